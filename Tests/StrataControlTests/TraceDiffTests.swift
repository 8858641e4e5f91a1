import Foundation
import StrataControlProtocol
import StrataTrace
import Testing

/// `TraceDiff` on hand-written traces: what counts as a divergence under each clock.
@Suite struct TraceDiffTests {
    func trace(clock: String, _ lines: [String]) throws -> TraceFile {
        let header = #"{"type":"header","version":1,"clock":"\#(clock)","policy":"uikit","screens":[],"sequence":0}"#
        return try TraceFile(data: Data(([header] + lines).joined(separator: "\n").utf8), name: "t")
    }

    func event(_ sequence: Int, _ name: String, window: Int) -> String {
        #"{"type":"event","name":"\#(name)","sequence":\#(sequence),"window":\#(window),"time_ns":\#(sequence * 1000)}"#
    }

    func frame(_ screen: Int, _ hash: String, sequence: Int = 1) -> String {
        #"{"type":"frame","screen":\#(screen),"frame":1,"hash":"\#(hash)","damage":[],"sequence":\#(sequence)}"#
    }

    @Test func eventsThatDifferOnlyInTimeMatch() throws {
        let a = try trace(
            clock: "realtime", [event(1, "windowDidOpen", window: 1), event(2, "windowDidBecomeKey", window: 1)])
        let b = try trace(
            clock: "realtime",
            [
                #"{"type":"event","name":"windowDidOpen","sequence":1,"window":1,"time_ns":5}"#,
                #"{"type":"event","name":"windowDidBecomeKey","sequence":2,"window":1,"time_ns":9}"#,
            ])
        #expect(TraceDiff.firstDivergence(recorded: a, replay: b) == nil)
    }

    /// The replay starts a recorded command with `exec`: its windows' origin differs, nothing else.
    @Test func aWindowsOriginIsNotADivergence() throws {
        let a = try trace(
            clock: "realtime", [#"{"type":"event","name":"windowDidOpen","origin":"command","sequence":1,"window":1}"#])
        let b = try trace(
            clock: "realtime", [#"{"type":"event","name":"windowDidOpen","origin":"exec","sequence":1,"window":1}"#])
        #expect(TraceDiff.firstDivergence(recorded: a, replay: b) == nil)
    }

    /// A cause's requester (a pid, a control connection) and its time differ between a recording
    /// and its replay; its kind, request and what decided do not.
    @Test func aCausesRequesterAndTimeAreNotADivergenceButItsKindAndDeciderAre() throws {
        func key(_ cause: String) -> String {
            #"{"type":"event","name":"windowDidBecomeKey","sequence":1,"window":1,\#(cause),"time_ns":1}"#
        }
        let recorded = try trace(
            clock: "realtime",
            [key(#""cause":"command","request":"make-key window=1","requester":"control 1","requested_ns":10"#)])
        let replayed = try trace(
            clock: "realtime",
            [key(#""cause":"command","request":"make-key window=1","requester":"control 4","requested_ns":99"#)])
        #expect(TraceDiff.firstDivergence(recorded: recorded, replay: replayed) == nil)

        let clicked = try trace(
            clock: "realtime", [key(#""cause":"click","request":"make-key window=1","requester":"control 1""#)])
        let divergence = try #require(TraceDiff.firstDivergence(recorded: recorded, replay: clicked))
        #expect(divergence.kind == "key")
        #expect(divergence.message.contains("cause=command") && divergence.message.contains("cause=click"))

        let uikit = try trace(clock: "realtime", [key(#""cause":"click","decided_by":"uikit""#)])
        let explicit = try trace(clock: "realtime", [key(#""cause":"click","decided_by":"explicit""#)])
        // The decider's name alone is no divergence: the outcome and the cause's kind are the same.
        #expect(TraceDiff.firstDivergence(recorded: uikit, replay: explicit) == nil)
    }

    @Test func anEventIsDescribedWithItsFieldsThenItsCause() throws {
        let line = try JSONValue.parse(
            Data(
                #"{"type":"event","name":"windowDidBecomeKey","sequence":9,"window":2,"cause":"click","request":"pointer-button 272","requester":"user","decided_by":"uikit","requested_ns":5,"time_ns":7}"#
                    .utf8))
        #expect(
            TraceFile.describeEvent(line)
                == #"#9 windowDidBecomeKey window=2 cause=click request="pointer-button 272" requester=user decided_by=uikit"#
        )
        #expect(TraceFile.describe(line) == TraceFile.describeEvent(line))
    }

    @Test func anotherKeyWindowIsAKeyDivergenceAtItsSequence() throws {
        let a = try trace(clock: "realtime", [event(1, "windowDidBecomeKey", window: 1)])
        let b = try trace(clock: "realtime", [event(1, "windowDidBecomeKey", window: 2)])
        let divergence = try #require(TraceDiff.firstDivergence(recorded: a, replay: b))
        #expect(divergence.kind == "key")
        #expect(
            divergence.message
                == "event #1: recorded #1 windowDidBecomeKey window=1, replayed #1 windowDidBecomeKey window=2")
        #expect(divergence.recordedIndex == 1 && divergence.replayIndex == 1)
    }

    @Test func aMissingAndAnExtraEventAreDivergences() throws {
        let two = try trace(
            clock: "realtime", [event(1, "windowDidOpen", window: 1), event(2, "windowDidBecomeHidden", window: 1)])
        let one = try trace(clock: "realtime", [event(1, "windowDidOpen", window: 1)])
        #expect(TraceDiff.firstDivergence(recorded: two, replay: one)?.kind == "visibility")
        #expect(
            TraceDiff.firstDivergence(recorded: one, replay: two)?.message.contains(
                "the replay goes on with #2 windowDidBecomeHidden") == true)
    }

    @Test func theManualClockComparesEveryDistinctPictureInOrder() throws {
        let recorded = try trace(clock: "manual", [frame(1, "aa"), frame(1, "bb"), frame(1, "bb"), frame(1, "cc")])
        let sameRepeatedOtherwise = try trace(
            clock: "manual", [frame(1, "aa"), frame(1, "aa"), frame(1, "bb"), frame(1, "cc")])
        let skipped = try trace(clock: "manual", [frame(1, "aa"), frame(1, "cc")])
        #expect(TraceDiff.firstDivergence(recorded: recorded, replay: sameRepeatedOtherwise, everyPicture: true) == nil)
        let divergence = try #require(
            TraceDiff.firstDivergence(recorded: recorded, replay: skipped, everyPicture: true))
        #expect(divergence.kind == "frame-hash")
        #expect(divergence.message.hasPrefix("screen 1, picture 2: recorded hash bb"))
    }

    /// Without `everyPicture` only the last picture counts, under the manual clock too: what a real
    /// client drew between two steps depends on when it read its input.
    @Test func withoutEveryPictureTheManualClockComparesTheLastPicture() throws {
        let recorded = try trace(clock: "manual", [frame(1, "aa"), frame(1, "bb"), frame(1, "cc")])
        let halfwayOther = try trace(clock: "manual", [frame(1, "aa"), frame(1, "b2"), frame(1, "cc")])
        let lastOther = try trace(clock: "manual", [frame(1, "aa"), frame(1, "bb"), frame(1, "dd")])
        #expect(TraceDiff.firstDivergence(recorded: recorded, replay: halfwayOther) == nil)
        #expect(
            TraceDiff.firstDivergence(recorded: recorded, replay: lastOther)?.message
                == "screen 1's last picture: recorded hash cc, replayed dd")
    }

    @Test func theRealtimeClockComparesTheLastPictureOfScreensStillConnected() throws {
        let recorded = try trace(
            clock: "realtime",
            [
                frame(1, "aa"), frame(2, "xx"), frame(1, "bb"),
                #"{"type":"event","name":"screenDidDisconnect","sequence":1,"screen":2}"#,
            ])
        let replayed = try trace(
            clock: "realtime",
            [
                frame(1, "bb"), frame(2, "yy"),
                #"{"type":"event","name":"screenDidDisconnect","sequence":1,"screen":2}"#,
            ])
        #expect(TraceDiff.firstDivergence(recorded: recorded, replay: replayed) == nil, "screen 2 was unplugged")
        let otherLast = try trace(
            clock: "realtime",
            [frame(1, "aa"), #"{"type":"event","name":"screenDidDisconnect","sequence":1,"screen":2}"#])
        #expect(
            TraceDiff.firstDivergence(recorded: recorded, replay: otherLast)?.message
                == "screen 1's last picture: recorded hash bb, replayed aa")
    }
}
