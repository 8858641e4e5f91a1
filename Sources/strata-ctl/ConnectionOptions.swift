import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataProcess
import StrataTrace

/// Options every command takes: where the socket is, JSON output, how long to wait.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The control socket (default: $STRATA_SOCKET, else the strata-*.sock in $XDG_RUNTIME_DIR).",
            valueName: "path"))
    var socket: String?

    @Flag(help: "Print the server's JSON replies instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Seconds to wait for a reply.", valueName: "seconds"))
    var timeout = 30.0

    /// The socket path: --socket, $STRATA_SOCKET, the socket of $WAYLAND_DISPLAY, or the only
    /// strata-*.sock in $XDG_RUNTIME_DIR. None found is a failure (exit 1) that says how to
    /// start a Strata.
    func socketPath() throws(CommandFailure) -> String {
        if let socket { return socket }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[ControlProtocol.environmentVariable], !path.isEmpty { return path }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw CommandFailure(
                "no Strata to talk to: neither STRATA_SOCKET nor XDG_RUNTIME_DIR is set. \(Self.howToStart)")
        }
        if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty, !display.contains("/") {
            let path = runtime + "/" + ControlProtocol.socketFileName(waylandSocket: display)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? [])
            .filter { $0.hasPrefix("strata-") && $0.hasSuffix(".sock") }.sorted()
        guard names.count == 1, let name = names.first else {
            if names.isEmpty {
                throw CommandFailure(
                    "no Strata is running: no control socket (strata-*.sock) in \(runtime). \(Self.howToStart)")
            }
            throw CommandFailure(
                "several Strata sessions run (\(names.joined(separator: ", "))): choose one with --socket or STRATA_SOCKET"
            )
        }
        return runtime + "/" + name
    }

    /// How to get a Strata to talk to, for the failures above.
    static let howToStart =
        "Start one with a command, `strata -- COMMAND` (its clients, strata-ctl among them, find it), or in the background with `strata &`; or name a running one's control socket with STRATA_SOCKET or --socket."

    func connect() throws -> ControlClient {
        let path = try socketPath()
        do {
            return try ControlClient(path: path, timeout: timeout)
        } catch let failure as ControlClient.Failure {
            throw CommandFailure(failure.description + (failure.isConnectFailure ? " " + Self.howToStart : ""))
        }
    }
}

/// A failure printed as `strata-ctl: error: …` with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A command that is one request and one reply.
protocol RequestCommand: ParsableCommand {
    var options: ConnectionOptions { get }
    /// The command's name on the wire and its arguments.
    func makeRequest() throws -> (command: String, arguments: [String: JSONValue])
    /// What to print for a successful reply without --json (nil: nothing).
    func render(_ reply: JSONValue) -> String?
    /// How long the reply may take, when longer than the client's usual wait (`settle`).
    var replyTimeout: Double? { get }
}

extension RequestCommand {
    func render(_ reply: JSONValue) -> String? { nil }
    var replyTimeout: Double? { nil }

    /// The request is made once while parsing, so that a bad argument is a validation error of
    /// this subcommand (its own usage is printed, exit 64), before any connection.
    func validate() throws {
        _ = try makeRequest()
    }

    func run() throws {
        let (command, arguments) = try makeRequest()
        try runRequest(command, arguments)
    }

    /// Sends one request and prints its reply (`render`, or the JSON with --json); an error
    /// reply is a failure (exit 1).
    func runRequest(_ command: String, _ arguments: [String: JSONValue]) throws {
        try Output.guarded {
            let client = try options.connect()
            if let replyTimeout { client.timeout = max(client.timeout, replyTimeout) }
            let reply = try client.request(command, arguments)
            if options.json {
                print(String(decoding: reply.encodedLine(), as: UTF8.self))
            }
            guard reply["ok"]?.boolValue == true else {
                let message = reply["error"]?["message"]?.stringValue ?? "failed"
                let code = reply["error"]?["code"]?.stringValue ?? "failed"
                throw CommandFailure("\(message) (\(code))")
            }
            if !options.json, let text = render(reply) { print(text) }
        }
    }
}

enum Output {
    /// Runs `body`; prints failures as `strata-ctl: error: …` and exits 1.
    static func guarded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            printError("strata-ctl: error: \(failure.description)")
            throw ExitCode(1)
        } catch let failure as ControlClient.Failure {
            printError("strata-ctl: error: \(failure.description)")
            throw ExitCode(1)
        } catch let error as ControlError {
            printError("strata-ctl: error: \(error.description)")
            throw ExitCode(1)
        } catch let passed as ExitCode {
            throw passed
        } catch let validation as ValidationError {
            throw validation
        } catch {
            printError("strata-ctl: error: \(words(for: error))")
            throw ExitCode(1)
        }
    }

    /// An error in words: the description of strata-ctl's own errors (all in words), and a
    /// sentence for the others (never a raw Swift error description).
    static func words(for error: any Error) -> String {
        switch error {
        case let failure as CommandFailure: return failure.description
        case let failure as ControlClient.Failure: return failure.description
        case let error as ControlError: return error.description
        case let error as ValidationError: return error.message
        case let error as ShellWords.SyntaxError: return error.description
        case let error as TraceFile.Failure: return error.description
        case let error as ProcessLaunchError: return error.description
        case is DecodingError:
            return "Strata's reply is not what this strata-ctl expects (are strata and strata-ctl of the same version?)"
        default: return "an unexpected error (\(type(of: error)))"
        }
    }

    static func printError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
