import Foundation
import StrataControlProtocol
import StrataTrace
import Testing

/// The report's Focus panel: the trace's focus metrics in the page, every value from the trace
/// escaped.
@Suite struct TraceReportFocusTests {
    static let payload = #"<script>document.title='pwned'</script>"#

    static let trace = [
        #"{"type":"header","version":1,"clock":"manual","policy":"uikit","screens":[],"sequence":0,"start_ns":0}"#,
        #"{"type":"windows","sequence":1,"time_ns":1,"windows":[{"id":1,"app_id":"\#(payload)"},{"id":2,"app_id":"plain"}]}"#,
        #"{"type":"frame","screen":1,"frame":1,"sequence":1,"time_ns":16000000}"#,
        #"{"type":"event","name":"windowDidBecomeKey","window":2,"cause":"map","sequence":2,"time_ns":10000000}"#,
        #"{"type":"event","name":"windowDidResignKey","window":2,"cause":"focus-request","request":"strata_window_v1.make_key","requester":"pid 4","requested_ns":10000000,"sequence":3,"time_ns":20000000}"#,
        #"{"type":"event","name":"windowDidBecomeKey","window":1,"cause":"focus-request","request":"strata_window_v1.make_key","requester":"pid 4","requested_ns":10000000,"sequence":4,"time_ns":20000000}"#,
        #"{"type":"input","input":"key","state":"down","window":1,"keycode":30,"sequence":4,"time_ns":30000000}"#,
        #"{"type":"event","name":"windowDidBecomeKey","window":2,"cause":"<img src=x onerror=alert(1)>","sequence":5,"time_ns":40000000}"#,
    ].joined(separator: "\n")

    @Test func thePanelShowsTheMetricsWithEveryFieldEscaped() throws {
        let trace = try TraceFile(data: Data(Self.trace.utf8), name: "focus.trace")
        let html = TraceReport.html(for: trace)
        let panel = try #require(
            html.components(separatedBy: #"<section id="focus">"#).dropFirst().first?
                .components(separatedBy: "</section>").first)
        // The run: one focus request granted, 10 ms and 1 frame to key, one keystroke 10 ms after
        // key, three switches.
        #expect(
            panel.contains(
                "<tr><td>run</td><td>1</td><td>1</td><td>0</td><td>1</td><td>10 / 10</td><td>1 / 1</td><td>1</td><td>3</td>"
            ), "\(panel)")
        #expect(panel.contains("<td>app &lt;script&gt;document.title='pwned'&lt;/script&gt;</td>"))
        #expect(panel.contains("&lt;img src=x onerror=alert(1)&gt; 1, focus-request 1, map 1"))
        #expect(panel.contains("<td>app plain</td>"))
        #expect(!panel.contains("<script") && !panel.contains("<img"))
        #expect(
            html.components(separatedBy: "</script>").count - 1 == 3, "only the page's own three script elements close")
    }
}
