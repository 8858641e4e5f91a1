import Foundation
import StrataControlProtocol
import Testing

/// The report page's data is inert inside its `<script>` element, whatever a client named its
/// window.
@Suite struct TraceReportTests {
    @Test func aWindowTitleCannotCloseTheScriptElement() throws {
        let header = #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0}"#
        let windows = #"{"type":"windows","sequence":1,"windows":[{"id":1,"app_id":"</script><script>alert(1)</script>","title":"<!-- x","level":"normal","order":0,"key":true,"hidden":false,"screen":1,"pid":1,"frame":{"x":0,"y":0,"width":1,"height":1}}]}"#
        let trace = try TraceFile(data: Data((header + "\n" + windows + "\n").utf8), name: "<b>name</b>")
        let html = TraceReport.html(for: trace)
        #expect(html.components(separatedBy: "</script>").count - 1 == 3, "only the page's own three script elements close (data, divergence, code)")
        #expect(!html.contains("<!-- x"))
        #expect(html.contains("<title>Strata trace: &lt;b&gt;name&lt;/b&gt;</title>"))
    }
}
