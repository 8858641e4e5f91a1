import ArgumentParser
import StrataControlProtocol
import StrataTrace

/// `strata-ctl stats [--window-ms N]`: the session's focus metrics, a row for the run and one
/// per app (docs/control.md, "Focus metrics").
struct StatsCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Print focus metrics since Strata started, for the run and per app: focus requests made, granted and refused; time from a request to key; keystrokes soon after key; key switches by cause.",
        discussion: """
            Columns: REQUESTS/GRANTED/REFUSED (focus requests), TO_KEY_MS and TO_KEY_FRAMES (from a request \
            to key: mean/max, over COUNT key switches whose request time is known), KEYS<N_MS (key presses \
            a window got less than N ms after it became key), SWITCHES and CAUSES (key switches by cause).
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(
        name: .customLong("window-ms"),
        help: ArgumentHelp(
            "Count keystrokes less than this many milliseconds after their window became key (1…10000).",
            valueName: "ms"))
    var windowMilliseconds: Int = FocusMetrics.defaultWindowMilliseconds

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard FocusMetrics.windowMillisecondsRange.contains(windowMilliseconds) else {
            throw ValidationError("--window-ms must be between 1 and 10000")
        }
        return ("stats", ["window_ms": JSONValue(windowMilliseconds)])
    }

    func render(_ reply: JSONValue) -> String? { Self.table(reply) }

    /// The run's row, then each app's by name.
    static func table(_ reply: JSONValue) -> String {
        let window =
            reply["run"]?["keystrokes_after_key"]?["window_ms"]?.intValue ?? FocusMetrics.defaultWindowMilliseconds
        var table = Table(header: [
            "APP", "REQUESTS", "GRANTED", "REFUSED", "COUNT", "TO_KEY_MS", "TO_KEY_FRAMES", "KEYS<\(window)MS",
            "SWITCHES", "CAUSES",
        ])
        var rows: [(String, JSONValue)] = [("(run)", reply["run"] ?? .null)]
        let apps = reply["apps"]?.objectValue ?? [:]
        rows += apps.keys.sorted().map { ($0, apps[$0] ?? .null) }
        for (name, metrics) in rows {
            let requests = metrics["focus_requests"], latency = metrics["request_to_key"]
            let switches = metrics["key_switches"]
            let causes = (switches?["by_cause"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key) \(FocusMetrics.text($0.value))" }.joined(separator: ", ")
            table.rows.append([
                name, FocusMetrics.text(requests?["made"]), FocusMetrics.text(requests?["granted"]),
                FocusMetrics.text(requests?["refused"]),
                FocusMetrics.text(latency?["count"]),
                FocusMetrics.text(latency?["mean_ms"]) + "/" + FocusMetrics.text(latency?["max_ms"]),
                FocusMetrics.text(latency?["mean_frames"]) + "/" + FocusMetrics.text(latency?["max_frames"]),
                FocusMetrics.text(metrics["keystrokes_after_key"]?["count"]), FocusMetrics.text(switches?["total"]),
                causes.isEmpty ? "-" : causes,
            ])
        }
        return table.text
    }
}
