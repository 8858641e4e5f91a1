import Glibc
import StrataControlProtocol
import StrataTrace

/// Which process tree a process belongs to: the recorder's `origin` of control requests, Wayland
/// clients and windows (`TraceOrigin`, docs/experiments.md, "Traces").
///
/// The roots are the processes Strata started: the session's command and each `exec`, each kept
/// with its start time (so a pid the kernel gave again later is not taken for the root). A
/// process's origin is that of the first root on its chain of parents in /proc/PID/stat, read
/// when the connection or window appears (the process is alive then); `outside` when the chain
/// reaches pid 1 without one; `unknown` when a step cannot be read (the process or a parent is
/// gone) or after `maximumSteps`. A few small reads a connection or window, never per frame;
/// nothing blocks (/proc is not a device that waits).
struct ProcessAncestry {
    /// A process as /proc/PID/stat tells it.
    struct Status: Equatable {
        var parent: Int32
        /// Clock ticks after boot when the process started.
        var startTime: UInt64
    }

    struct Root {
        var origin: TraceOrigin
        var startTime: UInt64
    }

    /// The most parents walked.
    static let maximumSteps = 64
    /// The most roots kept; past it, those whose process has gone are forgotten (their children
    /// have new parents by then).
    static let maximumRoots = 1024

    private(set) var roots: [Int32: Root] = [:]
    /// Reads a process's status (tests give their own).
    let status: (Int32) -> Status?

    init(status: @escaping (Int32) -> Status? = ProcessAncestry.readStatus) {
        self.status = status
    }

    /// Strata started `pid` as `origin` (`command` or `exec`). A process already gone is no root.
    mutating func add(_ pid: Int32, as origin: TraceOrigin) {
        guard pid > 0, let started = status(pid) else { return }
        if roots.count >= Self.maximumRoots {
            roots = roots.filter { status($0.key)?.startTime == $0.value.startTime }
        }
        roots[pid] = Root(origin: origin, startTime: started.startTime)
    }

    /// The origin of `pid`: `strata` for Strata's own pid (`strata`), else the first root on its
    /// chain of parents.
    func origin(of pid: Int32, strata: Int32 = getpid()) -> TraceOrigin {
        guard pid > 0 else { return .unknown }
        if pid == strata { return .strata }
        var current = pid
        for _ in 0..<Self.maximumSteps {
            if current <= 1 { return .outside }
            guard let known = status(current) else { return .unknown }
            if let root = roots[current], root.startTime == known.startTime { return root.origin }
            current = known.parent
        }
        return .unknown
    }

    /// `/proc/PID/stat`'s parent (field 4) and start time (field 22), read after the last `)`
    /// (the command's name in parentheses may hold spaces and parentheses); nil when the process
    /// is gone or the line is not as the kernel writes it.
    static func readStatus(_ pid: Int32) -> Status? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parse(buffer[0..<count])
    }

    static func parse(_ line: ArraySlice<UInt8>) -> Status? {
        guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = line[(close + 1)...].split(separator: UInt8(ascii: " "))
        // fields[0] is the state (field 3): the parent is field 4, the start time field 22.
        guard fields.count > 19,
            let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
            let start = UInt64(String(decoding: fields[19], as: UTF8.self))
        else { return nil }
        return Status(parent: parent, startTime: start)
    }
}
