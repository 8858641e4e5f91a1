import Glibc
import StrataProcess

/// A process strata-ctl starts (the replay's Strata): its standard output and standard error go
/// to files, which the caller reads, so nothing it prints can fill a pipe and block it.
final class SpawnedProcess {
    let pid: pid_t
    private(set) var exitStatus: Int32?

    init(
        path: String, arguments: [String], environment: [String: String], standardOutput: String,
        standardError: String
    ) throws(ProcessLaunchError) {
        var launch = ProcessLaunch([path] + arguments, environment: environment)
        launch.standardOutput = .file(standardOutput)
        launch.standardError = .file(standardError)
        pid = try launch.spawn()
    }

    /// Whether it still runs (reaps it when it has ended).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        exitStatus = ExitStatus.reap(pid)
        return exitStatus == nil
    }

    func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Waits for it to end; its exit status (128 + the signal when a signal ended it).
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        let status = ExitStatus.wait(pid)
        exitStatus = status
        return status
    }
}
