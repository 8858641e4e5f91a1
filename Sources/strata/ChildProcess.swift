import Glibc

/// The command Strata starts (`strata -- command args…`). It is reaped from the event loop's
/// SIGCHLD handler through `reapIfExited()`; nothing here blocks or starts a thread.
final class ChildProcess {
    let pid: pid_t
    let commandName: String
    /// The shell-style exit status once the process ended: its exit code, or 128 + the signal
    /// that killed it.
    private(set) var exitStatus: Int32?

    struct SpawnError: Error, CustomStringConvertible {
        var command: String
        var code: Int32
        var description: String { "cannot start '\(command)': \(String(cString: strerror(code)))" }
    }

    /// Starts `arguments` (looked up in PATH) with `environment`, the handled signals unblocked
    /// and at their default dispositions, in `workingDirectory` (nil: Strata's).
    init(arguments: [String], environment: [String: String], workingDirectory: String? = nil) throws(SpawnError) {
        guard let program = arguments.first, !program.isEmpty else { throw SpawnError(command: "", code: ENOENT) }
        commandName = program

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let workingDirectory {
            guard let addChdir = ChildProcess.addChdir else { throw SpawnError(command: program, code: ENOSYS) }
            let result = addChdir(&actions, workingDirectory)
            guard result == 0 else { throw SpawnError(command: program, code: result) }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in HandledSignals.numbers + [SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(command: arguments[0], code: result) }
        self.pid = pid
        FileLimit.restore(in: pid)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which the Glibc module does not
    /// import; looked up at run time.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    /// Collects the child's status if it has ended; returns whether it has.
    @discardableResult
    func reapIfExited() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exitStatus = ChildProcess.shellStatus(status)
            return true
        }
        if result < 0 && errno == ECHILD {
            exitStatus = 1  // someone else reaped it: its status is lost
            return true
        }
        return false
    }

    /// Asks the child to end (SIGTERM), gives it `grace` seconds, then kills it; reaps it.
    func terminate(grace: Double) {
        guard !reapIfExited() else { return }
        kill(pid, SIGTERM)
        let deadline = ChildProcess.monotonicSeconds() + grace
        while ChildProcess.monotonicSeconds() < deadline {
            if reapIfExited() { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        if waitpid(pid, &status, 0) == pid { exitStatus = ChildProcess.shellStatus(status) }
    }

    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which Swift cannot import (they are macros).
    static func shellStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
