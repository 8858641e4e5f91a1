import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataTrace

struct VersionCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "The server's protocol version, pid, Wayland display and commands.")
    @OptionGroup var options: ConnectionOptions
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("hello", [:]) }
    func render(_ reply: JSONValue) -> String? {
        let version = reply["protocol"]?.intValue.map(String.init) ?? "?"
        let display = reply["wayland_display"]?.stringValue ?? "?"
        let pid = reply["pid"]?.intValue.map(String.init) ?? "?"
        return
            "strata control protocol \(version) (client \(ControlProtocol.version)), WAYLAND_DISPLAY=\(display), pid \(pid)"
    }
}

struct SyncCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Wait until Strata has applied everything asked before and flushed its clients.")
    @OptionGroup var options: ConnectionOptions
    func makeRequest() -> (command: String, arguments: [String: JSONValue]) { ("sync", [:]) }
}

struct ExecCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract:
            "Start a client inside Strata in the command's environment (WAYLAND_DISPLAY: the privileged socket, for it and everything it starts; STRATA_SOCKET; DISPLAY); prints its pid.",
        usage: "strata-ctl exec -- command [args...]")
    @OptionGroup var options: ConnectionOptions
    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments, after --.") var command: [String] =
        []

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        let argv = command.first == "--" ? Array(command.dropFirst()) : command
        guard !argv.isEmpty else { throw ValidationError("exec needs a command: strata-ctl exec -- command args...") }
        return (
            "exec",
            ["argv": .array(argv.map { .string($0) }), "cwd": .string(FileManager.default.currentDirectoryPath)]
        )
    }

    func render(_ reply: JSONValue) -> String? { reply["pid"]?.intValue.map(String.init) }
}

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the window model's events as they happen (one per line, each with its cause).")
    @OptionGroup var options: ConnectionOptions
    @Option(help: ArgumentHelp("Replay the kept events after this sequence number first.", valueName: "seq"))
    var since: UInt64?
    @Option(help: ArgumentHelp("Stop after this many events.", valueName: "n")) var count: Int?
    @Flag(help: "Print the replayed events and stop (with --since).") var noFollow = false

    func run() throws {
        try Output.guarded {
            let client = try options.connect()
            var arguments: [String: JSONValue] = ["follow": .bool(!noFollow)]
            if let since { arguments["since"] = JSONValue(since) }
            let reply = try client.call("events", arguments)
            if reply["truncated"]?.boolValue == true {
                Output.printError("strata-ctl: warning: some events after \(since ?? 0) are no longer kept")
            }
            if noFollow {
                for event in reply["events"]?.arrayValue ?? [] { print(line(event)) }
                return
            }
            client.timeout = .infinity
            var printed = 0
            while count.map({ printed < $0 }) ?? true, let event = try client.nextEvent() {
                print(line(event))
                fflush(nil)
                printed += 1
            }
        }
    }

    /// `#12 windowDidBecomeKey window=3` (or the JSON line with --json).
    func line(_ event: JSONValue) -> String {
        options.json ? String(decoding: event.encodedLine(), as: UTF8.self) : EventsCommand.text(for: event)
    }

    /// `#12 windowDidBecomeKey window=3 cause=click request="pointer-button 272" requester=user
    /// decided_by=uikit` (`TraceFile.describeEvent`: the notification's fields, then its cause).
    static func text(for event: JSONValue) -> String {
        TraceFile.describeEvent(event)
    }
}
