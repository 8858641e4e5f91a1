import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataProcess

/// The policy delegate of a what-if replay (`strata-ctl replay TRACE --delegate CMD`): CMD runs
/// with `sh -c` once the replay's Strata is up, with `STRATA_SOCKET` set to its control socket,
/// in a process group of its own (as an `exec`'d client), its output in files of the replay's
/// own; the replay goes on once `policy`'s reply names a delegate, and stops the group at the end.
final class ReplayDelegate {
    let pid: pid_t
    let command: String
    let outputPath: String
    private var status: Int32?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(command: String, socket: String, directory: String) throws(Failure) {
        self.command = command
        var environment = ProcessInfo.processInfo.environment
        environment[ControlProtocol.environmentVariable] = socket
        outputPath = directory + "/delegate.out"
        var launch = ProcessLaunch(["/bin/sh", "-c", command], environment: environment)
        launch.standardInput = .null
        launch.standardOutput = .file(outputPath)
        launch.standardError = .file(directory + "/delegate.err")
        launch.newProcessGroup = true
        do {
            pid = try launch.spawn()
        } catch {
            throw Failure(description: "cannot start the delegate \(command): \(Output.words(for: error))")
        }
    }

    var isRunning: Bool {
        if status == nil { status = ExitStatus.reap(pid) }
        return status == nil
    }

    /// Waits until the replay's Strata names a delegate in `policy`'s reply (at most `timeout`
    /// seconds); the reason when it does not.
    func waitUntilRegistered(_ client: ControlClient, timeout: Double, errorPath: String) -> String? {
        let deadline = ControlClient.now() + timeout
        while ControlClient.now() < deadline {
            if let reply = try? client.request("policy"), reply["delegate"]?.objectValue != nil { return nil }
            if !isRunning {
                let errors = (FileContents.text(errorPath) ?? "").split(separator: "\n").suffix(3)
                    .joined(separator: "\n")
                return "the delegate \(command) ended (status \(status ?? 0)) before it registered"
                    + (errors.isEmpty ? "" : "; its standard error ends:\n\(errors)")
            }
            usleep(10000)
        }
        return "the delegate \(command) did not register within \(timeout) s (policy names no delegate)"
    }

    /// Ends the delegate's process group: SIGTERM, a grace of 2 s, then SIGKILL; reaps it.
    func stop() {
        kill(-pid, SIGTERM)
        let deadline = ControlClient.now() + 2
        while isRunning, ControlClient.now() < deadline { usleep(10000) }
        kill(-pid, SIGKILL)
        if status == nil { status = ExitStatus.wait(pid) }
    }
}
