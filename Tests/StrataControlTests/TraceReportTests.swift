import Foundation
import StrataControlProtocol
import StrataTestSupport
import StrataTrace
import Testing

/// The report page's data is inert inside its `<script>` element, whatever a client named its
/// window.
@Suite struct TraceReportTests {
    @Test func aWindowTitleCannotCloseTheScriptElement() throws {
        let header = #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0}"#
        let windows =
            #"{"type":"windows","sequence":1,"windows":[{"id":1,"app_id":"</script><script>alert(1)</script>","title":"<!-- x","level":"normal","order":0,"key":true,"hidden":false,"screen":1,"pid":1,"frame":{"x":0,"y":0,"width":1,"height":1}}]}"#
        let trace = try TraceFile(data: Data((header + "\n" + windows + "\n").utf8), name: "<b>name</b>")
        let html = TraceReport.html(for: trace)
        #expect(
            html.components(separatedBy: "</script>").count - 1 == 3,
            "only the page's own three script elements close (data, divergence, code)")
        #expect(!html.contains("<!-- x"))
        #expect(html.contains("<title>Strata trace: &lt;b&gt;name&lt;/b&gt;</title>"))
    }
}

/// A hand-written trace is untrusted: whatever its fields hold, the page's data has no markup
/// character, and the page's policy allows only its own script, by the hash of its text.
@Suite struct TraceReportHostileTests {
    static let payload =
        #"</script><script>document.title='pwned'</script><img src=x onerror="document.title='pwned'">"#
        + "&amp;\u{2028}\u{2029}<!--"

    @Test func theDataHasNoMarkupCharacterWhateverTheTraceHolds() throws {
        let trace = try TraceFile(data: Data(HostileTrace.text(payload: Self.payload).utf8), name: "hostile.trace")
        let html = TraceReport.html(for: trace)
        let data = try #require(
            html.components(separatedBy: #"<script id="trace" type="application/json">"#).last?
                .components(separatedBy: "</script>").first)
        for character in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            #expect(!data.contains(character), "\(character.unicodeScalars.first!.value) in the page's data")
        }
        #expect(data.contains(#"\u003c/script\u003e"#))
        // The data reads back as the trace's own values.
        let parsed = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [[String: Any]]
        #expect((parsed?.first?["policy"] as? String) == Self.payload)
        #expect(
            html.components(separatedBy: "</script>").count - 1 == 3, "only the page's own three script elements close")
    }

    @Test func thePolicyAllowsOnlyThePagesOwnScriptByItsHash() throws {
        let trace = try TraceFile(data: Data(HostileTrace.text(payload: "x").utf8), name: "t")
        let html = TraceReport.html(for: trace)
        let policy = try #require(
            html.components(separatedBy: #"<meta http-equiv="Content-Security-Policy" content=""#).dropFirst().first?
                .components(separatedBy: "\"").first)
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-"))
        #expect(!policy.contains("unsafe-inline'; img") || policy.contains("style-src 'unsafe-inline'"))
        #expect(!policy.contains("script-src 'unsafe") && !policy.contains("http") && !policy.contains("*"))
        // The hash is the one of the page's inline script, as sha256sum computes it.
        let script = try #require(
            html.components(separatedBy: "<script>").dropFirst().first?.components(separatedBy: "</script>").first)
        let folder = try ScratchFolder(prefix: "strata-report-hash")
        try script.write(toFile: folder.path + "/script.js", atomically: true, encoding: .utf8)
        let sum = Process()
        sum.executableURL = URL(fileURLWithPath: "/bin/sh")
        sum.arguments = [
            "-c",
            "python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())' < script.js",
        ]
        sum.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let pipe = Pipe()
        sum.standardOutput = pipe
        try sum.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        sum.waitUntilExit()
        #expect(!expected.isEmpty && policy.contains("'sha256-\(expected)'"), "\(policy) vs \(expected)")
    }
}

/// The report's pictures (docs/experiments.md, "A report to look at"): thumbnails from `image`
/// lines, only base64 PNGs, and a divergence's pictures.
@Suite struct TraceReportPictureTests {
    /// A 2×1 PNG, base64.
    static var png: String { Data(PictureFixture.bytes).base64EncodedString() }

    private func data(of html: String) throws -> [[String: Any]] {
        let text = try #require(
            html.components(separatedBy: #"<script id="trace" type="application/json">"#).last?
                .components(separatedBy: "</script>").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func base64PNGIsTheOnlyPictureThePageGets() throws {
        #expect(TraceReport.isBase64PNG(Self.png))
        for text in [
            "", "javascript:alert(1)", "iVBORw0KGgo\"><script>", "iVBORw0KGgo=A==", "aGVsbG8=", "iVBORw0KGgoAAA",
            "iVBORw0KGgo\u{2028}AAAA",
            "data:image/png;base64,iVBORw0KGgoAAAA",
        ] {
            #expect(!TraceReport.isBase64PNG(text), "\(text)")
        }
        let header = #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0}"#
        let lines = [
            header,
            #"{"type":"image","kind":"thumbnail","hash":"00000000000000aa","width":2,"height":1,"png":"\#(Self.png)","sequence":0}"#,
            #"{"type":"image","kind":"thumbnail","hash":"00000000000000bb","width":2,"height":1,"png":"javascript:alert(1)","sequence":0}"#,
            #"{"type":"image","kind":"window","hash":"00000000000000cc","width":2,"height":1,"png":"\#(Self.png)","sequence":0}"#,
            #"{"type":"frame","screen":1,"frame":1,"hash":"00000000000000aa","sequence":0}"#,
        ]
        let trace = try TraceFile(data: Data((lines.joined(separator: "\n") + "\n").utf8), name: "t")
        let images = try data(of: TraceReport.html(for: trace)).filter { ($0["type"] as? String) == "image" }
        #expect(images.count == 1, "a thumbnail with a base64 PNG; not the javascript: one, not a window's picture")
        #expect((images.first?["hash"] as? String) == "00000000000000aa")
        #expect((images.first?["png"] as? String) == Self.png)
    }

    @Test func aDivergencesPicturesAreInThePage() throws {
        let header = #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0}"#
        let trace = try TraceFile(data: Data((header + "\n").utf8), name: "t")
        let divergence = TraceDivergence(
            kind: "pixels", recordedIndex: 0, replayIndex: nil, message: "window 1 showed other pixels")
        let html = TraceReport.html(
            for: trace, divergence: divergence,
            pictures: [("recorded", Data(PictureFixture.bytes)), ("diff", Data("<script>".utf8))])
        let marked = try #require(
            html.components(separatedBy: #"<script id="divergence-data" type="application/json">"#).last?
                .components(separatedBy: "</script>").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(marked.utf8)) as? [String: Any])
        let pictures = try #require(object["pictures"] as? [[String: Any]])
        #expect(pictures.count == 1, "bytes that are no PNG are left out")
        #expect((pictures.first?["label"] as? String) == "recorded")
    }
}
