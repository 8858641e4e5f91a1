import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol

/// `strata-ctl delegate`: registers as the policy delegate (docs/control.md, "Policy
/// delegate"), prints each question as a JSON line on standard output, and sends each line of
/// standard input as an answer: `{"question": 7, "answer": {"key": true}}` (or any request
/// object with a `command`). Replies that are errors go to standard error. Ends when Strata
/// closes the connection or standard input ends (the delegate's questions then fall back).
struct DelegateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delegate",
        abstract: "Decide for Strata: print its questions as JSON lines, read the answers from standard input.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The decisions to take over: key, placement, stacking (default: all three).")
    var decisions: [String] = []
    @Option(help: ArgumentHelp("How long Strata waits for each answer (1…10000 ms).", valueName: "ms"))
    var deadline: Int = 50

    func run() throws {
        try Output.guarded {
            let client = try options.connect()
            let names = decisions.isEmpty ? ["key", "placement", "stacking"] : decisions
            let reply = try client.call(
                "delegate", ["decisions": .array(names.map { .string($0) }), "deadline_ms": JSONValue(deadline)])
            Output.printError(
                "strata-ctl: delegate for \(names.joined(separator: ", ")) (clock \(reply["clock"]?.stringValue ?? "?"))"
            )
            client.timeout = .infinity
            try relay(client)
        }
    }

    private func relay(_ client: ControlClient) throws {
        var input: [UInt8] = []
        var inputOpen = true
        while inputOpen {
            var fds = [
                pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, client.pendingEvents.isEmpty ? -1 : 0) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 || !client.pendingEvents.isEmpty {
                guard let lines = try client.availableLines() else { return }
                for line in lines { show(line) }
            }
            if fds[1].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if n <= 0 {
                    inputOpen = false
                } else {
                    input.append(contentsOf: chunk[0..<n])
                }
                while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(input[..<newline])
                    input.removeSubrange(...newline)
                    try answer(line, client)
                }
            }
        }
    }

    /// A question goes to standard output; an error reply to standard error.
    private func show(_ line: JSONValue) {
        if line["ok"] == nil {
            print(String(decoding: line.encodedLine(), as: UTF8.self))
            fflush(nil)
        } else if line["ok"]?.boolValue == false {
            Output.printError("strata-ctl: \(line["error"]?["message"]?.stringValue ?? "error")")
        }
    }

    private func answer(_ line: [UInt8], _ client: ControlClient) throws {
        guard line.contains(where: { $0 != UInt8(ascii: " ") }) else { return }
        guard let value = try? JSONValue.parse(Data(line)), var fields = value.objectValue else {
            Output.printError("strata-ctl: an answer line must be a JSON object: {\"question\": N, \"answer\": {…}}")
            return
        }
        let command = fields.removeValue(forKey: "command")?.stringValue ?? "decide"
        fields["id"] = nil
        try client.post(command, fields)
    }
}
