import Glibc
import StrataProcess

/// A process Strata starts: the command (`strata -- command args…`) or a client of the control
/// socket's `exec`. It is reaped from the event loop's SIGCHLD handler through
/// `reapIfExited()`; nothing here blocks or starts a thread until Strata stops.
final class ChildProcess {
    let pid: pid_t
    let commandName: String
    /// Whether the process leads a process group of its own (an `exec`'d client): its children
    /// (a browser's helpers, a script's background jobs) are stopped with it. The command stays
    /// in Strata's group, so that a terminal's Ctrl-C and job control reach it.
    let leadsGroup: Bool
    /// The shell-style exit status once the process ended: its exit code, or 128 + the signal
    /// that killed it.
    private(set) var exitStatus: Int32?

    /// Starts `arguments` (looked up in PATH) with `environment`, every signal at its default
    /// disposition and none blocked, in `workingDirectory` (nil: Strata's); `leadsGroup`: in a
    /// process group of its own.
    init(
        arguments: [String], environment: [String: String], workingDirectory: String? = nil,
        leadsGroup: Bool = false
    ) throws(ProcessLaunchError) {
        var launch = ProcessLaunch(arguments, environment: environment)
        launch.workingDirectory = workingDirectory
        launch.newProcessGroup = leadsGroup
        pid = try launch.spawn()
        commandName = arguments[0]
        self.leadsGroup = leadsGroup
        FileLimit.restore(in: pid)
    }

    /// Collects the child's status if it has ended; returns whether it has.
    @discardableResult
    func reapIfExited() -> Bool {
        if exitStatus != nil { return true }
        exitStatus = ExitStatus.reap(pid)
        return exitStatus != nil
    }

    /// Whether the process has ended and been reaped and, when it leads a group, no process of
    /// its group is left.
    var isGone: Bool {
        guard reapIfExited() else { return false }
        return !leadsGroup || !Self.groupExists(pid)
    }

    /// Asks each process (with its group) to end (SIGTERM), gives them `grace` seconds together,
    /// then kills what is left; reaps them. Only when Strata stops: it waits.
    static func terminate(_ processes: [ChildProcess], grace: Double) {
        let running = processes.filter { !$0.isGone }
        guard !running.isEmpty else { return }
        for process in running { process.signal(SIGTERM) }
        let deadline = monotonicSeconds() + grace
        while monotonicSeconds() < deadline {
            if running.allSatisfy(\.isGone) { return }
            usleep(10_000)
        }
        for process in running where !process.isGone {
            process.signal(SIGKILL)
            if process.exitStatus == nil { process.exitStatus = ExitStatus.wait(process.pid) }
        }
    }

    /// Sends `number` to the process, or to its whole group when it leads one.
    private func signal(_ number: Int32) {
        if leadsGroup, Self.groupExists(pid) {
            kill(-pid, number)
        } else if exitStatus == nil {
            kill(pid, number)
        }
    }

    /// Whether a process group `id` has a member that still runs. A zombie does not count: a
    /// member whose parent died was handed to init, which may reap it late (a container's init
    /// can take seconds), and it holds nothing. A zombie leader of ours is reaped first
    /// (`isGone`).
    private static func groupExists(_ id: pid_t) -> Bool {
        guard kill(-id, 0) == 0 || errno == EPERM else { return false }
        guard let proc = opendir("/proc") else { return true }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let pid = Int32(name), let state = Self.stateAndGroup(of: pid), state.group == id else { continue }
            if state.state != UInt8(ascii: "Z") { return true }
        }
        return false
    }

    /// A process's state letter and process group, from `/proc/PID/stat` ("pid (comm) S ppid
    /// pgrp …"; the command may hold spaces and parentheses, so the fields after its last `)`).
    private static func stateAndGroup(of pid: Int32) -> (state: UInt8, group: pid_t)? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0, let end = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(end + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 3, let state = fields[0].first,
            let group = Int32(String(decoding: fields[2], as: UTF8.self))
        else { return nil }
        return (state, group)
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
