import Glibc
import StrataProcess

/// The command Strata starts (`strata -- command args…`). It is reaped from the event loop's
/// SIGCHLD handler through `reapIfExited()`; nothing here blocks or starts a thread.
final class ChildProcess {
    let pid: pid_t
    let commandName: String
    /// The shell-style exit status once the process ended: its exit code, or 128 + the signal
    /// that killed it.
    private(set) var exitStatus: Int32?

    /// Starts `arguments` (looked up in PATH) with `environment`, every signal at its default
    /// disposition and none blocked, in `workingDirectory` (nil: Strata's).
    init(arguments: [String], environment: [String: String], workingDirectory: String? = nil) throws(ProcessLaunchError)
    {
        var launch = ProcessLaunch(arguments, environment: environment)
        launch.workingDirectory = workingDirectory
        pid = try launch.spawn()
        commandName = arguments[0]
        FileLimit.restore(in: pid)
    }

    /// Collects the child's status if it has ended; returns whether it has.
    @discardableResult
    func reapIfExited() -> Bool {
        if exitStatus != nil { return true }
        exitStatus = ExitStatus.reap(pid)
        return exitStatus != nil
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
        exitStatus = ExitStatus.wait(pid)
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
