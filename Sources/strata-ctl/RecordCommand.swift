import ArgumentParser
import StrataControlProtocol

/// `strata-ctl record start FILE` / `strata-ctl record stop`: a trace of a running Strata.
struct RecordCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Start or stop recording a trace of the running Strata (docs/experiments.md).",
        usage: "strata-ctl record start FILE | strata-ctl record stop")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "start or stop.") var action: String
    @Argument(help: "The trace file (start; made absolute).") var file: String?

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        switch action {
        case "start":
            guard let file, !file.isEmpty else {
                throw ValidationError("record start needs a file: strata-ctl record start FILE")
            }
            return ("record", ["action": "start", "path": .string(ReplayCommand.absolute(file))])
        case "stop":
            return ("record", ["action": "stop"])
        default:
            throw ValidationError("record takes start FILE or stop, not \(action)")
        }
    }

    func render(_ reply: JSONValue) -> String? {
        guard let lines = reply["lines"]?.intValue else { return reply["path"]?.stringValue }
        return "\(reply["path"]?.stringValue ?? "?"): \(lines) lines, \(reply["bytes"]?.intValue ?? 0) bytes"
    }
}
