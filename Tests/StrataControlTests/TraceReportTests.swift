import Foundation
import StrataControlProtocol
import StrataTestSupport
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

/// A hand-written trace is untrusted: whatever its fields hold, the page's data has no markup
/// character, and the page's policy allows only its own script, by the hash of its text.
@Suite struct TraceReportHostileTests {
    static let payload = #"</script><script>document.title='pwned'</script><img src=x onerror="document.title='pwned'">"#
        + "&amp;\u{2028}\u{2029}<!--"

    @Test func theDataHasNoMarkupCharacterWhateverTheTraceHolds() throws {
        let trace = try TraceFile(data: Data(HostileTrace.text(payload: Self.payload).utf8), name: "hostile.trace")
        let html = TraceReport.html(for: trace)
        let data = try #require(html.components(separatedBy: #"<script id="trace" type="application/json">"#).last?
            .components(separatedBy: "</script>").first)
        for character in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            #expect(!data.contains(character), "\(character.unicodeScalars.first!.value) in the page's data")
        }
        #expect(data.contains(#"\u003c/script\u003e"#))
        // The data reads back as the trace's own values.
        let parsed = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [[String: Any]]
        #expect((parsed?.first?["policy"] as? String) == Self.payload)
        #expect(html.components(separatedBy: "</script>").count - 1 == 3, "only the page's own three script elements close")
    }

    @Test func thePolicyAllowsOnlyThePagesOwnScriptByItsHash() throws {
        let trace = try TraceFile(data: Data(HostileTrace.text(payload: "x").utf8), name: "t")
        let html = TraceReport.html(for: trace)
        let policy = try #require(html.components(separatedBy: #"<meta http-equiv="Content-Security-Policy" content=""#).dropFirst().first?
            .components(separatedBy: "\"").first)
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-"))
        #expect(!policy.contains("unsafe-inline'; img") || policy.contains("style-src 'unsafe-inline'"))
        #expect(!policy.contains("script-src 'unsafe") && !policy.contains("http") && !policy.contains("*"))
        // The hash is the one of the page's inline script, as sha256sum computes it.
        let script = try #require(html.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
        let folder = try ScratchFolder(prefix: "strata-report-hash")
        try script.write(toFile: folder.path + "/script.js", atomically: true, encoding: .utf8)
        let sum = Process()
        sum.executableURL = URL(fileURLWithPath: "/bin/sh")
        sum.arguments = ["-c", "python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())' < script.js"]
        sum.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let pipe = Pipe()
        sum.standardOutput = pipe
        try sum.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        sum.waitUntilExit()
        #expect(!expected.isEmpty && policy.contains("'sha256-\(expected)'"), "\(policy) vs \(expected)")
    }
}
