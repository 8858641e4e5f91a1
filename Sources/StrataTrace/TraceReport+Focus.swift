import StrataControlProtocol

extension TraceReport {
    /// The report's Focus panel: the trace's `FocusMetrics` (the numbers `strata-ctl stats`
    /// gives live), a row for the run and one per app. Written as HTML here, every value from
    /// the trace (app ids, cause names) escaped: the page's script does not touch it.
    static func focusPanel(for trace: TraceFile, windowMilliseconds: Int = FocusMetrics.defaultWindowMilliseconds)
        -> String
    {
        let stats = FocusMetrics(trace: trace).json(windowMilliseconds: windowMilliseconds)
        let apps = stats["apps"]?.objectValue ?? [:]
        let rows = [("run", stats["run"] ?? .null)] + apps.keys.sorted().map { ("app " + $0, apps[$0] ?? .null) }
        var html = """
            <section id="focus"><h2>Focus (focus requests, request to key, keystrokes less than \
            \(windowMilliseconds) ms after their window became key, key switches by cause)</h2>
            <table><thead><tr><th>who</th><th>requests made</th><th>granted</th><th>refused</th>\
            <th>request → key: count</th><th>ms mean / max</th><th>frames mean / max</th>\
            <th>keystrokes &lt; \(windowMilliseconds) ms</th><th>key switches</th><th>by cause</th></tr></thead><tbody>
            """
        for (name, metrics) in rows {
            let requests = metrics["focus_requests"], latency = metrics["request_to_key"]
            let switches = metrics["key_switches"]
            let causes = (switches?["by_cause"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key) \(FocusMetrics.text($0.value))" }.joined(separator: ", ")
            let cells = [
                name, FocusMetrics.text(requests?["made"]), FocusMetrics.text(requests?["granted"]),
                FocusMetrics.text(requests?["refused"]),
                FocusMetrics.text(latency?["count"]),
                FocusMetrics.text(latency?["mean_ms"]) + " / " + FocusMetrics.text(latency?["max_ms"]),
                FocusMetrics.text(latency?["mean_frames"]) + " / " + FocusMetrics.text(latency?["max_frames"]),
                FocusMetrics.text(metrics["keystrokes_after_key"]?["count"]), FocusMetrics.text(switches?["total"]),
                causes,
            ]
            html += "<tr>" + cells.map { "<td>" + escapeHTML($0) + "</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody></table></section>"
    }
}
