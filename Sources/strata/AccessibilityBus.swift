import Glibc
import StrataControlProtocol
import StrataProcess

/// `strata --accessibility`: a private session D-Bus for Strata's clients, so that their
/// toolkits' accessibility trees (AT-SPI) are published there and nowhere else. Strata starts
/// Debian's `dbus-daemon --session` on a socket of its own beside the Wayland socket, in a process
/// group of its own; the AT-SPI bus launcher and registry (at-spi2-core) are started on it by
/// D-Bus activation when the first client asks for `org.a11y.Bus`, as in a desktop session, and
/// are in that group too. When Strata stops, the whole group gets SIGTERM, then SIGKILL
/// (`ChildProcess.terminate`), and the folder is removed. Two Stratas never share a bus: each has
/// a folder of its own, `XDG_RUNTIME_DIR/strata-<wayland socket>.a11y`, for its bus's socket and,
/// as the daemon's `XDG_RUNTIME_DIR`, for the AT-SPI bus's (which the launcher would otherwise
/// put at one path for every session of the user); the user's session bus is never named to the
/// clients.
///
/// The bus says accessibility is on (org.a11y.Status `IsEnabled`, which Firefox and Qt ask before
/// they publish a tree): its folder, the daemon's `XDG_DATA_HOME`, holds a copy of the system's
/// D-Bus service for the launcher with `--a11y=1` added, which comes before the system's. The
/// daemon and what it starts read and write no user settings (`GSETTINGS_BACKEND=memory`: the
/// launcher would otherwise write `IsEnabled` into the user's dconf database) and see no X
/// display (the launcher would put its bus's address on its root window).
final class AccessibilityBus {
    /// The bus's address (`unix:path=…`), for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    /// The AT-SPI bus's address, once its launcher answered at start (`startLauncher`): what a
    /// desktop session names on its X root (`AT_SPI_BUS`), which the XWM names on Xwayland's.
    /// Nil when the launcher did not start in time (toolkits then ask the session bus for it).
    private(set) var atSpiAddress: String?
    /// The bus's folder: its socket `bus`, and the AT-SPI bus's `at-spi/`.
    let directory: String
    private let socketPath: String
    private let daemon: ChildProcess
    /// The write end of the daemon's group's lifeline (`tieToStrata`); -1 without one.
    private var lifeline: Int32 = -1

    /// Why the bus could not start, in words.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the bus at `XDG_RUNTIME_DIR/strata-<wayland socket>.a11y/bus` and waits (at most
    /// `timeout` seconds, at start-up, before any client runs) until it accepts connections.
    init(waylandSocket: String, environment: [String: String], timeout: Double = 5) throws(Failure) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw Failure(description: "XDG_RUNTIME_DIR is not set")
        }
        directory = runtime + "/strata-" + waylandSocket + ".a11y"
        socketPath = directory + "/bus"
        // The AT-SPI bus's socket, the longer path, must fit a unix socket's address.
        guard (directory + "/at-spi/bus_65535").utf8.count < 100 else {
            throw Failure(description: "the folder \(directory) is too long a path for a unix socket in it")
        }
        Self.removeFolder(directory)
        guard mkdir(directory, 0o700) == 0 else {
            throw Failure(description: "cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        address = "unix:path=" + Self.escaped(socketPath)
        var daemonEnvironment = environment
        // The daemon and the services it activates see only the private bus and folder.
        daemonEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address
        daemonEnvironment["AT_SPI_BUS_ADDRESS"] = nil
        daemonEnvironment["XDG_RUNTIME_DIR"] = directory
        daemonEnvironment["XDG_DATA_HOME"] = directory
        daemonEnvironment["GSETTINGS_BACKEND"] = "memory"
        // No X display: the launcher would publish its bus on that display's root window
        // (AT_SPI_BUS), where the user's own X clients would find it.
        daemonEnvironment["DISPLAY"] = nil
        Self.writeLauncherService(in: directory, dataDirectories: environment["XDG_DATA_DIRS"])
        do {
            daemon = try ChildProcess(
                arguments: [
                    Self.daemonExecutable, "--session", "--nofork", "--nopidfile", "--nosyslog",
                    "--address=" + address,
                ],
                environment: daemonEnvironment, leadsGroup: true)
        } catch {
            Self.removeFolder(directory)
            throw Failure(description: "cannot start \(Self.daemonExecutable): \(error)")
        }
        lifeline = Self.tieToStrata(group: daemon.pid, path: environment["PATH"])
        let deadline = Self.monotonicSeconds() + timeout
        while !Self.accepts(socketPath) {
            if daemon.reapIfExited() {
                Self.removeFolder(directory)
                throw Failure(
                    description: "\(Self.daemonExecutable) ended at start (status \(daemon.exitStatus ?? -1))")
            }
            guard Self.monotonicSeconds() < deadline else {
                ChildProcess.terminate([daemon], grace: 1)
                Self.removeFolder(directory)
                throw Failure(
                    description: "\(Self.daemonExecutable) did not open \(socketPath) within \(Int(timeout)) s")
            }
            usleep(2_000)
        }
        atSpiAddress = startLauncher(timeout: min(timeout, 2), path: environment["PATH"])
    }

    /// Ties the daemon's process group to Strata's life: a shell in that group waits to read a
    /// pipe whose write end only Strata holds (close-on-exec, so no other child has it), and
    /// stops the group (SIGTERM) when the pipe closes. Strata closes it when it stops; so does
    /// the kernel when Strata ends any other way (SIGKILL, a crash), which would otherwise leave
    /// the daemon, the launcher, its bus and the registry running. Returns the write end (-1
    /// when the shell could not be started: the bus works, untied).
    private static func tieToStrata(group: pid_t, path: String?) -> Int32 {
        var ends: [Int32] = [-1, -1]
        // At start-up, before any other child is started: no spawn can come between the pipe
        // and its close-on-exec flags.
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var launch = ProcessLaunch(
            ["/bin/sh", "-c", "read _; kill -TERM 0"], environment: ["PATH": path ?? "/usr/bin:/bin"])
        launch.processGroup = group
        launch.standardInput = .descriptor(ends[0])
        launch.standardOutput = .null
        launch.standardError = .null
        let spawned = try? launch.spawn()
        close(ends[0])
        guard spawned != nil else {
            close(ends[1])
            return -1
        }
        return ends[1]
    }

    /// Starts the AT-SPI bus launcher and its bus: `dbus-send` asks `org.a11y.Bus` for the
    /// bus's address (D-Bus activation starts the launcher; the launcher starts its bus when
    /// first asked), and Strata waits, at most `timeout` seconds at start-up, until that bus
    /// accepts connections; returns its address. The launcher puts it at `at-spi/bus` in the
    /// folder it is given as `XDG_RUNTIME_DIR` (this bus's folder), with no display number, as
    /// it sees no X display. X clients read it from the root at their start, before any D-Bus
    /// call of theirs could start the launcher: Qt 5 under X11 otherwise sets up its tree
    /// before its connection to the bus is ready, and never publishes it.
    private func startLauncher(timeout: Double, path: String?) -> String? {
        let socket = directory + "/at-spi/bus"
        var launch = ProcessLaunch(
            [
                "dbus-send", "--session", "--print-reply", "--reply-timeout=\(Int(timeout * 1000))",
                "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress",
            ],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": path ?? "/usr/bin:/bin"])
        launch.standardOutput = .null
        launch.standardError = .null
        guard let sender = try? launch.spawn() else { return nil }
        // dbus-send ends when the launcher answers, or at its own timeout: the same as this
        // wait's, so reaping it below never waits long.
        defer { _ = ExitStatus.wait(sender) }
        let deadline = Self.monotonicSeconds() + timeout
        while !Self.accepts(socket) {
            guard Self.monotonicSeconds() < deadline else {
                kill(sender, SIGKILL)
                return nil
            }
            usleep(2_000)
        }
        return "unix:path=" + Self.escaped(socket)
    }

    /// `environment` for a client of this Strata: the private bus as its session bus, and the
    /// switches that make Qt and Chromium publish their trees (GTK does by default).
    func clientEnvironment(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["AT_SPI_BUS_ADDRESS"] = nil
        environment["NO_AT_BRIDGE"] = nil
        environment["GTK_A11Y"] = nil
        environment["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
        environment["ACCESSIBILITY_ENABLED"] = "1"
        return environment
    }

    /// The AT-SPI bus launcher's D-Bus service, started with accessibility on: the first
    /// `dbus-1/services/org.a11y.Bus.service` of `dataDirectories` (XDG_DATA_DIRS, by default
    /// /usr/local/share and /usr/share) with `--a11y=1` added to its `Exec` line, written to
    /// `directory/dbus-1/services/`. Nothing is written without the system's service (no
    /// at-spi2-core: nothing to launch) or when it cannot be read or written (the bus works, with
    /// accessibility off until a client asks).
    static func writeLauncherService(in directory: String, dataDirectories: String?) {
        let searched = (dataDirectories.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        for data in searched where data.hasPrefix("/") {
            guard let text = FileContents.text(data + "/dbus-1/services/org.a11y.Bus.service", limit: 64 << 10)
            else { continue }
            var sawExec = false
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                guard line.hasPrefix("Exec="), !sawExec else { return String(line) }
                sawExec = true
                return line + " --a11y=1"
            }
            guard sawExec else { return }
            let services = directory + "/dbus-1/services"
            guard mkdir(directory + "/dbus-1", 0o700) == 0, mkdir(services, 0o700) == 0 else { return }
            let fd = open(services + "/org.a11y.Bus.service", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let bytes = Array(lines.joined(separator: "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            return
        }
    }

    /// Stops the daemon and everything it started (SIGTERM to its group, then SIGKILL after
    /// `grace` seconds), and removes its folder.
    func stop(grace: Double = 2) {
        ChildProcess.terminate([daemon], grace: grace)
        if lifeline >= 0 { close(lifeline) }
        lifeline = -1
        Self.removeFolder(directory)
    }

    /// Removes `path` and what the bus puts in it: files, and folders of files (`at-spi/`), two
    /// levels at most; a symbolic link is removed, never followed.
    static func removeFolder(_ path: String, depth: Int = 2) {
        if let folder = opendir(path) {
            var names: [String] = []
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(folder)
            for name in names {
                let child = path + "/" + name
                var info = stat()
                guard lstat(child, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR, depth > 0 {
                    removeFolder(child, depth: depth - 1)
                } else {
                    unlink(child)
                }
            }
        }
        rmdir(path)
    }

    /// Whether the reaped daemon and every process of its group have ended.
    var isGone: Bool { daemon.isGone }

    /// Debian's dbus-daemon, or `STRATA_DBUS_DAEMON`'s for tests.
    static var daemonExecutable: String {
        getenv("STRATA_DBUS_DAEMON").map { String(cString: $0) } ?? "dbus-daemon"
    }

    /// D-Bus address escaping: bytes outside `[-0-9A-Za-z_/.\\*]` as `%XX`.
    static func escaped(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"),
                UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xf)])
            }
        }
        return result
    }

    /// Whether a unix socket at `path` accepts a connection now.
    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
