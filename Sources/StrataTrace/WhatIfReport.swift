import StrataControlProtocol

/// The page of a what-if replay (`strata-ctl replay --policy P --report page.html`,
/// `strata-ctl report REC --compare REPLAYED`): the two timelines side by side, step by step
/// (`WhatIfComparison`), each step's key window, stacking, reply and decision events with their
/// causes, the steps that differ highlighted.
///
/// Both traces are untrusted: the page is plain HTML built here with every value of a trace
/// escaped (`TraceReport.escapeHTML`), no script at all, and a Content-Security-Policy that
/// allows nothing but its own style.
public enum WhatIfReport {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    public static func html(
        recorded: TraceFile, replayed: TraceFile, comparison: WhatIfComparison, title: String
    ) -> String {
        let e = TraceReport.escapeHTML
        func side(_ side: WhatIfComparison.Side, windows: [(number: Int, appID: String)], differences: [String])
            -> String
        {
            let key = WhatIfComparison.name(side.key, in: windows)
            let stacking = side.stacking.map { WhatIfComparison.name($0, in: windows) }.joined(separator: ", ")
            var cell = "<div class=\"\(differences.contains("key") ? "diff" : "")\">key: \(e(key))</div>"
            cell += "<div class=\"\(differences.contains("stacking") ? "diff" : "")\">stacking: \(e(stacking))</div>"
            if let reply = side.reply {
                cell += "<div class=\"\(differences.contains("reply") ? "diff" : "")\">reply: \(e(reply))</div>"
            }
            if !side.events.isEmpty {
                cell += "<ul>" + side.events.map { "<li>\(e($0))</li>" }.joined() + "</ul>"
            }
            return cell
        }
        var rows = ""
        for (number, step) in comparison.steps.enumerated() {
            let differs = !step.differences.isEmpty
            rows += "<tr class=\"\(differs ? "differs" : "")\"><td>\(number + 1)</td>"
            rows +=
                "<td>\(e(step.text))<div class=\"lines\">line \(step.recorded.line + 1) / \(step.replayed.line + 1)</div>"
            rows +=
                differs
                ? "<div class=\"what\">\(e(step.differences.joined(separator: ", "))) differ</div></td>" : "</td>"
            rows +=
                "<td>\(side(step.recorded, windows: comparison.recordedWindows, differences: step.differences))</td>"
            rows +=
                "<td>\(side(step.replayed, windows: comparison.replayedWindows, differences: step.differences))</td></tr>\n"
        }
        var unmatched = ""
        for index in comparison.unmatchedRecorded {
            unmatched += "<li>recorded line \(index + 1): \(e(TraceFile.describe(recorded.lines[index])))</li>"
        }
        for index in comparison.unmatchedReplayed {
            unmatched += "<li>replayed line \(index + 1): \(e(TraceFile.describe(replayed.lines[index])))</li>"
        }
        let recordedPolicy = recorded.header["policy"]?.stringValue ?? "?"
        let replayedPolicy = replayed.header["policy"]?.stringValue ?? "?"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <title>\(e(title))</title>
            <style>\(style)</style></head>
            <body>
            <header><h1>\(e(title))</h1>
            <div>\(comparison.steps.count) steps compared, \(comparison.differing.count) differ. Windows by the order they opened.</div></header>
            <table><thead><tr><th>#</th><th>step</th><th>recorded (\(e(recorded.name)), \(e(recordedPolicy)))</th><th>replayed (\(e(replayed.name)), \(e(replayedPolicy)))</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            \(unmatched.isEmpty ? "" : "<h2>Steps without a match</h2><ul>\(unmatched)</ul>")
            </body></html>
            """
    }

    static let style = """
        body{font:13px/1.4 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2430}
        header{padding:10px 16px;background:#1d2430;color:#fff}h1{font-size:16px;margin:0 0 4px}h2{font-size:14px;margin:12px 16px}
        table{border-collapse:collapse;margin:12px 16px;background:#fff}td,th{border:1px solid #cdd3dd;padding:4px 8px;vertical-align:top;text-align:left}
        tr.differs{background:#fde2e1}.diff{color:#8a1010;font-weight:600}.what{color:#8a1010}.lines{color:#667;font-size:11px}
        ul{margin:2px 0;padding-left:16px;font-size:12px}
        """
}
