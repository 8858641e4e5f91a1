import ArgumentParser
import StrataControlProtocol

/// `strata-ctl settle [--frames N] [--timeout S]`: waits until the picture has settled.
struct SettleCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "settle",
        abstract:
            "Wait until every shown window has stopped changing: no frame callback outstanding and no commit for N frames.",
        discussion:
            "`--timeout S` is how long it waits (default 30, at most 3600). Fails (exit 1) at the timeout, naming the windows still changing (id, app id, title). Under `--clock manual` frame callbacks wait for a `step` and are not counted: settled means no commit for N frame periods."
    )
    @OptionGroup var options: ConnectionOptions
    @Option(help: ArgumentHelp("Frames without a commit (1...36000, default 2).", valueName: "N")) var frames: Int = 2
    /// `--timeout S` (the connection options'): how long settle waits before failing (default 30 s, at most 3600).
    var timeout: Double { options.timeout }

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        try Self.request(frames: frames, timeout: timeout)
    }

    static func request(frames: Int, timeout: Double) throws -> (command: String, arguments: [String: JSONValue]) {
        guard (1...36_000).contains(frames) else { throw ValidationError("settle takes --frames between 1 and 36000") }
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw ValidationError("settle takes --timeout in seconds, above 0 and at most 3600")
        }
        return ("settle", ["frames": JSONValue(frames), "timeout": JSONValue(timeout)])
    }

    var replyTimeout: Double? { timeout + 5 }

    func render(_ reply: JSONValue) -> String? {
        "settled after \(reply["waited_s"]?.doubleValue ?? 0) s"
    }
}
