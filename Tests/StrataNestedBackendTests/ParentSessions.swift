import Foundation
import StrataRender
import StrataServer
import StrataTestSupport

/// Finds an executable on PATH.
func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

enum ParentSessionError: Error, CustomStringConvertible {
    case didNotStart(String)
    var description: String {
        switch self {
        case .didNotStart(let why): return why
        }
    }
}

/// A child process started with posix_spawn, with every signal unblocked and at its default:
/// the test runner's worker threads block most signals and Foundation's Process passes that
/// mask on, so Xvfb would never see the SIGTERM that stops it.
final class ChildProcess {
    let pid: pid_t
    private var exited = false

    /// `inheriting`: close-on-exec descriptors the child keeps at the same numbers (the flag is
    /// cleared in the child only, so processes other tests start do not get them).
    init(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        inheriting: [Int32] = []
    ) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // dup2 onto itself clears close-on-exec in the child (glibc ≥ 2.29).
        for fd in inheriting { posix_spawn_file_actions_adddup2(&actions, fd, fd) }
        // posix_spawn_file_actions_addchdir_np is not visible to Swift here: a shell changes directory.
        var path = path, arguments = arguments
        if let directory {
            arguments = ["-c", "cd \"$0\" && exec \"$@\"", directory, path] + arguments
            path = "/bin/sh"
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ParentSessionError.didNotStart("cannot start \(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// Waits for the child to exit (at most `seconds`).
    @discardableResult
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// SIGTERM, then SIGKILL if it does not exit within a few seconds.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if !wait(seconds: 5) {
            kill(pid, SIGKILL)
            wait(seconds: 5)
        }
    }
}

/// Debian's Weston 10 on its headless backend, with the pixman renderer (so it has pixels) and
/// the debug protocols (so `weston-screenshooter` can read them), in a private runtime folder.
final class ParentWeston {
    static var isInstalled: Bool { executable("weston") != nil && executable("weston-screenshooter") != nil }
    static let missingMessage =
        "weston is not installed (Debian: apt-get install weston): the Wayland-nested tests need it as the parent"

    private let runtimeFolder: ScratchFolder
    let runtimeDirectory: String
    let socketPath: String
    private var process: ChildProcess!

    init(width: Int = 640, height: Int = 480, shell: String = "desktop-shell.so") throws {
        runtimeFolder = try ScratchFolder(prefix: "strata-weston")
        runtimeDirectory = runtimeFolder.path
        socketPath = runtimeDirectory + "/parent-0"
        // No animations: a window fading in has not got its final colours yet.
        try
            "[core]\nidle-time=0\n[shell]\nanimation=none\nstartup-animation=none\nclose-animation=none\nfocus-animation=none\n"
            .write(toFile: runtimeDirectory + "/weston.ini", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        guard let weston = executable("weston") else { throw ParentSessionError.didNotStart(Self.missingMessage) }
        process = try ChildProcess(
            weston,
            [
                "--backend=headless-backend.so", "--socket=parent-0", "--width=\(width)", "--height=\(height)",
                "--idle-time=0", "--use-pixman", "--debug", "--config=\(runtimeDirectory)/weston.ini",
                "--shell=\(shell)",
                "--log=\(runtimeDirectory)/weston.log",
            ], environment: environment, directory: runtimeDirectory)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socketPath)
            || !FileManager.default.fileExists(atPath: socketPath + ".lock")
        {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw ParentSessionError.didNotStart("weston did not start: \(log)")
            }
            usleep(20_000)
        }
        // The shell client draws the background and panel; screenshots before it are black.
        // Wait for its first pixels, not for a fixed time.
        let shellDeadline = Date().addingTimeInterval(20)
        while (try? screenshot())?.argb.contains(where: { $0 & 0x00ff_ffff != 0 }) != true {
            guard process.isRunning, Date() < shellDeadline else {
                stop()
                throw ParentSessionError.didNotStart("weston's shell never drew: \(log)")
            }
            usleep(50_000)
        }
    }

    var log: String { (try? String(contentsOfFile: runtimeDirectory + "/weston.log", encoding: .utf8)) ?? "(no log)" }

    /// The whole parent output, through weston-screenshooter (writes a PNG into the cwd).
    func screenshot() throws -> PNGFile.Pixels {
        let directory = runtimeDirectory + "/shots-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["WAYLAND_DISPLAY"] = socketPath
        guard let screenshooter = executable("weston-screenshooter") else {
            throw ParentSessionError.didNotStart(Self.missingMessage)
        }
        let shooter = try ChildProcess(screenshooter, [], environment: environment, directory: directory)
        guard shooter.wait(seconds: 20) else {
            shooter.stop()
            throw ParentSessionError.didNotStart("weston-screenshooter did not finish")
        }
        guard
            let name = try FileManager.default.contentsOfDirectory(atPath: directory).first(where: {
                $0.hasSuffix(".png")
            })
        else {
            throw ParentSessionError.didNotStart("weston-screenshooter wrote no screenshot")
        }
        return try PNGFile.read(path: directory + "/" + name)
    }

    func stop() {
        process?.stop()
    }

    deinit {
        stop()
    }
}

/// Debian's Xvfb on a free display number, 24-bit.
final class ParentXvfb {
    static var isInstalled: Bool { executable("Xvfb") != nil }
    static let missingMessage =
        "Xvfb is not installed (Debian: apt-get install xvfb): the X11-nested tests need it as the parent"

    let display: String
    private var process: ChildProcess!

    /// Display numbers handed out in this process: tests run in parallel, and two that looked
    /// for a free number at once took the same one (the second Xvfb failed, and its test then
    /// talked to the first's, which went away with it).
    private static let lock = NSLock()
    private static var taken: Set<Int> = []

    private static func reserveNumber() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        for candidate in (100 + Int(getpid() % 50) * 4)..<400
        where !taken.contains(candidate)
            && !FileManager.default.fileExists(atPath: "/tmp/.X\(candidate)-lock")
            && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(candidate)")
        {
            taken.insert(candidate)
            return candidate
        }
        return nil
    }

    init(width: Int = 1024, height: Int = 768) throws {
        // Another process may take a number between the check and Xvfb's start: then this
        // Xvfb ends at once, and the next number is tried.
        guard let xvfb = executable("Xvfb") else { throw ParentSessionError.didNotStart(Self.missingMessage) }
        for _ in 0..<5 {
            guard let number = Self.reserveNumber() else { break }
            let display = ":\(number)"
            let process = try ChildProcess(
                xvfb, [display, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                environment: ProcessInfo.processInfo.environment)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline,
                !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            {
                usleep(20_000)
            }
            usleep(100_000)
            guard process.isRunning, FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") else {
                process.stop()
                continue
            }
            self.display = display
            self.process = process
            return
        }
        throw ParentSessionError.didNotStart("no Xvfb display could be started")
    }

    func stop() {
        process?.stop()
    }

    deinit { stop() }
}

/// Steps the nested compositor's loop until `condition` holds or `seconds` pass (the parent is
/// another process: 20 s by default, for a loaded machine).
@discardableResult
func step(_ compositor: Compositor, seconds: Double = 20, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        compositor.display.dispatch(timeout: 0.01)
    }
    return true
}

/// What `read` gives once `condition` holds for it, stepping the nested compositor between reads
/// (`seconds` at most; then the last read, for the test's exact checks to report). The parent
/// shows a frame in its own time: a fixed wait before reading its pixels was too short under load.
func settled<T>(_ compositor: Compositor, seconds: Double = 20, read: () throws -> T?, until condition: (T) -> Bool)
    rethrows -> T?
{
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        let value = try read()
        if let value, condition(value) { return value }
        if Date() > deadline { return value }
        compositor.display.dispatch(timeout: 0.01)
    }
}

/// Steps the loop for a while regardless (lets the parent catch up).
func settle(_ compositor: Compositor, seconds: Double) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline { compositor.display.dispatch(timeout: 0.01) }
}
