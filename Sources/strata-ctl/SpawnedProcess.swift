import FoundationEssentials
import Glibc

/// A process strata-ctl starts (the replay's Strata), with posix_spawn: its standard output goes
/// to a file, which the caller reads, so nothing it prints can fill a pipe and block it.
final class SpawnedProcess {
    let pid: pid_t
    private(set) var exitStatus: Int32?

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String, arguments: [String], environment: [String: String], standardOutput: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "\(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Whether it still runs (reaps it when it has ended).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result == 0 }
        exitStatus = Self.decode(status)
        return false
    }

    func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Waits for it to end; its exit status (128 + the signal when a signal ended it).
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let decoded = Self.decode(status)
        exitStatus = decoded
        return decoded
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
