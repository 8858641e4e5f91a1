import ArgumentParser
import StrataControlProtocol

/// `strata-ctl step [N]`: N frames of the manual clock (`strata --clock manual`).
struct StepCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "step",
        abstract:
            "Advance Strata's manual clock by N frames (default 1): repaints, frame callbacks and presentation feedback happen now.",
        discussion:
            "Only under `strata --clock manual`; the realtime clock answers with an error. Prints the frames stepped and the virtual time in nanoseconds."
    )
    @OptionGroup var options: ConnectionOptions
    @Argument(help: ArgumentHelp("How many frames (1...36000).", valueName: "N")) var frames: Int = 1
    @Option(
        help: ArgumentHelp(
            "Step N frames one at a time and settle after each (clients answered that frame's callbacks and stopped committing; see `settle`).",
            valueName: "N")) var settle: Int?
    /// With --settle: how long each settle may take (`--timeout`, the connection options').
    var timeout: Double { options.timeout }

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard (1...36_000).contains(frames) else {
            throw ValidationError("step takes a number of frames between 1 and 36000")
        }
        if let settle {
            guard (1...36_000).contains(settle) else {
                throw ValidationError("step --settle takes a number of frames between 1 and 36000")
            }
            _ = try SettleCommand.request(frames: 2, timeout: timeout)
        }
        return ("step", ["frames": JSONValue(frames)])
    }

    func run() throws {
        guard let settle else {
            try runRequest("step", ["frames": JSONValue(frames)])
            return
        }
        try Output.guarded {
            let time = try stepSettling(settle, client: try options.connect())
            if options.json {
                print(
                    String(
                        decoding: JSONValue.object([
                            "ok": true, "frames": JSONValue(settle), "time_ns": JSONValue(time),
                        ]).encodedLine(), as: UTF8.self))
            } else {
                print("\(settle) frames, settled after each, time \(time) ns")
            }
        }
    }

    /// `frames` steps of one frame, each followed by a `settle`; the virtual time after them.
    func stepSettling(_ frames: Int, client: ControlClient) throws -> Int {
        let usualTimeout = client.timeout
        client.timeout = max(usualTimeout, timeout + 5)
        defer { client.timeout = usualTimeout }
        let settle = try SettleCommand.request(frames: 2, timeout: timeout)
        var time = 0
        for _ in 0..<frames {
            let step = try client.request("step", ["frames": 1])
            try Self.check(step)
            time = step["time_ns"]?.intValue ?? time
            try Self.check(try client.request(settle.command, settle.arguments))
        }
        return time
    }

    private static func check(_ reply: JSONValue) throws {
        guard reply["ok"]?.boolValue == true else {
            throw CommandFailure(
                "\(reply["error"]?["message"]?.stringValue ?? "failed") (\(reply["error"]?["code"]?.stringValue ?? "failed"))"
            )
        }
    }

    func render(_ reply: JSONValue) -> String? {
        "\(reply["frames"]?.intValue ?? 0) frames, time \(reply["time_ns"]?.intValue ?? 0) ns"
    }
}
