import Foundation
import StrataProcess

/// A real client process (Debian's demo clients, strata-color-client, gtk3-demo) connected to
/// a `TestServer`'s socket. Its output goes to files the test reads while it steps the server.
/// The process is killed (with its process group) when this object goes.
public final class TestProcess {
    public let pid: pid_t
    /// Its standard output and error, as files.
    private let folder: ScratchFolder
    private var directory: String { folder.path }
    private var status: Int32?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `arguments` (looked up in PATH) in a new process group with the server's socket in
    /// its environment (plus `environment`).
    public init(_ arguments: [String], server: TestServer, environment: [String: String] = [:]) throws {
        var env = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY"] { env[name] = nil }
        for (name, value) in try server.addSocket() { env[name] = value }
        for (name, value) in environment { env[name] = value }
        folder = try ScratchFolder(prefix: "strata-proc")

        var launch = ProcessLaunch(arguments, environment: env)
        launch.standardInput = .null
        launch.standardOutput = .file(folder.path + "/stdout")
        launch.standardError = .file(folder.path + "/stderr")
        launch.newProcessGroup = true
        do {
            pid = try launch.spawn()
        } catch {
            throw Failure(description: error.description)
        }
    }

    deinit { kill() }

    public var stdout: String { (try? String(contentsOfFile: directory + "/stdout", encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? "" }

    /// Whether the process ended (reaping it if so).
    public var hasExited: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw
            return true
        }
        return false
    }

    /// Kills the process group and reaps the process.
    public func kill() {
        guard !hasExited else { return }
        Glibc.kill(-pid, SIGKILL)
        var raw: Int32 = 0
        if waitpid(pid, &raw, 0) == pid { status = raw }
    }

    /// Whether a program is on PATH (tests skip with a message when it is not).
    public static func isInstalled(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
