import Foundation
import StrataControlProtocol
import StrataTrace
import Testing

/// `WhatIfComparison` on hand-made traces: a session recorded under uikit (two windows, a click
/// on the back one, make-key, closing the key window) against replays under other policies,
/// compared step by step with windows matched by the order they opened.
@Suite struct WhatIfComparisonTests {
    func trace(policy: String, _ lines: [String]) throws -> TraceFile {
        let header =
            #"{"type":"header","version":1,"clock":"realtime","policy":"\#(policy)","screens":[],"sequence":0}"#
        return try TraceFile(data: Data(([header] + lines).joined(separator: "\n").utf8), name: policy + ".trace")
    }

    func event(_ name: String, _ window: Int, _ extra: String = "") -> String {
        #"{"type":"event","name":"\#(name)","sequence":1,"window":\#(window)\#(extra)}"#
    }

    /// `windows` front to back: (id, app id, key), all visible.
    func windows(_ list: [(Int, String, Bool)]) -> String {
        let items = list.map { #"{"id":\#($0.0),"app_id":"\#($0.1)","key":\#($0.2),"hidden":false}"# }
        return #"{"type":"windows","sequence":1,"windows":[\#(items.joined(separator: ","))]}"#
    }

    func command(_ name: String, _ arguments: String, ok: Bool = true) -> String {
        let reply = ok ? #"{"ok":true}"# : #"{"ok":false,"error":{"code":"failed"}}"#
        return
            #"{"type":"command","sequence":1,"request":{"command":"\#(name)","id":7\#(arguments)},"reply":\#(reply)}"#
    }

    let press =
        #"{"type":"input","input":"pointer-button","button":272,"state":"down","sequence":1,"during_command":true}"#
    let release = #"{"type":"input","input":"pointer-button","button":272,"state":"up","sequence":1}"#

    /// The session with window ids (each step's line after the events it posted at once, as
    /// Strata writes them; a client's window maps and a closed client leaves after the line) `a` and `b`; `afterClick`, `afterClose`: the window lists then.
    func session(
        policy: String, a: Int, b: Int, afterClick: [(Int, String, Bool)], clickEvents: [String],
        afterClose: [(Int, String, Bool)], closeEvents: [String], extraFirst: [String] = []
    ) throws -> TraceFile {
        try trace(
            policy: policy,
            extraFirst + [
                command("exec", #","argv":["/x/strata-color-client","--app-id","a"],"cwd":"/here""#),
                event("windowDidOpen", a), windows([(a, "a", true)]),
                command("exec", #","argv":["strata-color-client","--app-id","b"],"cwd":"/there""#),
                event("windowDidOpen", b), windows([(b, "b", true), (a, "a", false)]),
            ] + clickEvents + [windows(afterClick), press, release, command("pointer-click", #","x":10,"y":10"#)]
                + [
                    command("make-key", #","window":"b""#), windows([(b, "b", true), (a, "a", false)]),
                    command("settle", ""), command("close", #","window":"b""#),
                ] + closeEvents + [
                    windows(afterClose), #"{"type":"end","reason":"exit"}"#,
                ])
    }

    func recorded() throws -> TraceFile {
        try session(
            policy: "uikit", a: 10, b: 11, afterClick: [(11, "b", false), (10, "a", true)],
            clickEvents: [event("windowDidBecomeKey", 10, #","cause":"click","decided_by":"uikit""#)],
            afterClose: [(10, "a", true)],
            closeEvents: [event("windowDidBecomeKey", 10, #","cause":"successor","decided_by":"uikit""#)])
    }

    @Test func explicitListsEveryStepWhereTheKeyWindowDiffers() throws {
        let replayed = try session(
            policy: "explicit", a: 20, b: 21, afterClick: [(21, "b", true), (20, "a", false)], clickEvents: [],
            afterClose: [(20, "a", false)], closeEvents: [],
            extraFirst: [command("exec", #","argv":["sh","-c","run"]"#)])
        let comparison = WhatIfComparison(recorded: try recorded(), replayed: replayed)
        #expect(comparison.steps.count == 5, "exec, exec, the press, make-key, close (not settle nor the release)")
        #expect(comparison.differing.map { $0.recorded.line } == [9, 15], "the press and the close")
        #expect(comparison.differing.map(\.differences) == [["key"], ["key"]])
        #expect(comparison.unmatchedReplayed == [1] && comparison.unmatchedRecorded.isEmpty, "the extra exec")
        let close = comparison.differing[1]
        #expect(close.recorded.key == 1 && close.replayed.key == nil)
        #expect(close.recorded.stacking == [1] && close.replayed.stacking == [1])
        #expect(
            comparison.text(title: "t")
                == [
                    "t: 5 steps compared, 2 differ (0 recorded and 1 replayed steps unmatched)",
                    "step 3 (line 10) #1 input pointer-button button=272 during_command=true state=down: key differ",
                    "  key:      recorded 1 (a), replayed 2 (b)",
                    "  recorded: windowDidBecomeKey window=1 cause=click decided_by=uikit",
                    "step 5 (line 16) #1 command close window=b → ok: key differ",
                    "  key:      recorded 1 (a), replayed none",
                    "  recorded: windowDidBecomeKey window=1 cause=successor decided_by=uikit",
                ])
        let json = comparison.json(
            trace: "t", policy: "explicit", delegate: nil, recordedPolicy: "uikit", completed: true)
        #expect(json["differing"]?.intValue == 2)
        #expect(json["steps"]?.arrayValue?[4]["replayed"]?["key"] == .null)
    }

    @Test func clickToFocusDiffersInStackingFromTheClickOn() throws {
        let replayed = try session(
            policy: "click-to-focus", a: 1, b: 2, afterClick: [(1, "a", true), (2, "b", false)],
            clickEvents: [
                event("windowDidBecomeKey", 1, #","cause":"click""#), event("windowDidChangeStacking", 1),
            ],
            afterClose: [(1, "a", true)], closeEvents: [])
        let comparison = WhatIfComparison(recorded: try recorded(), replayed: replayed)
        #expect(comparison.differing.map(\.differences) == [["stacking"]])
        let click = try #require(comparison.differing.first)
        #expect(click.recorded.stacking == [2, 1] && click.replayed.stacking == [1, 2])
        #expect(
            click.replayed.events == ["windowDidBecomeKey window=1 cause=click", "windowDidChangeStacking window=1"])
    }

    @Test func theSamePolicyDiffersNowhere() throws {
        let comparison = WhatIfComparison(recorded: try recorded(), replayed: try recorded())
        #expect(comparison.steps.count == 5 && comparison.differing.isEmpty)
        #expect(comparison.text(title: "t") == ["t: 5 steps compared, 0 differ"])
    }

    @Test func aFailedCommandIsAReplyDifference() throws {
        let a = try trace(policy: "uikit", [command("make-key", #","window":1"#)])
        let b = try trace(policy: "explicit", [command("make-key", #","window":1"#, ok: false)])
        #expect(WhatIfComparison(recorded: a, replayed: b).differing.map(\.differences) == [["reply"]])
    }

    /// Traces are untrusted: every field of the side-by-side page is escaped, and the page has no script.
    @Test func theSideBySidePageEscapesEveryField() throws {
        let hostile = #"<img src=x onerror=alert(1)>"#
        let a = try trace(
            policy: "uikit",
            [
                command("exec", #","argv":["\#(hostile)"]"#), event("windowDidOpen", 1),
                windows([(1, hostile, true)]),
            ])
        let b = try trace(
            policy: "explicit", [command("exec", #","argv":["\#(hostile)"]"#), event("windowDidOpen", 1)])
        let html = WhatIfReport.html(
            recorded: a, replayed: b, comparison: WhatIfComparison(recorded: a, replayed: b), title: hostile)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("class=\"differs\""), "the differing step is highlighted")
    }

    /// The readable list goes to a terminal: a trace's control characters are shown as `?`.
    @Test func theListShowsNoControlCharacters() throws {
        let a = try trace(
            policy: "uikit", [command("make-key", #","window":1"#), windows([(1, "\\u001b[2J", true)])])
        let b = try trace(policy: "explicit", [command("make-key", #","window":1"#), windows([(1, "x", false)])])
        let text = WhatIfComparison(recorded: a, replayed: b).text(title: "t\u{7}")
        #expect(text.joined().unicodeScalars.allSatisfy { $0.value >= 0x20 })
        #expect(text.contains("  key:      recorded 1 (?[2J), replayed none"), "\(text)")
    }
}
