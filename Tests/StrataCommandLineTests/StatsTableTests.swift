import StrataControlProtocol
import StrataTrace
import Testing
@testable import strata_ctl

/// `strata-ctl stats` without --json: a row for the run, then one per app by name.
@Suite struct StatsTableTests {
    @Test func theRunComesFirstThenEachAppByName() throws {
        var metrics = FocusMetrics()
        metrics.record(.init(name: "windowDidBecomeKey", window: 2, appID: "zenity", cause: "map", time: 0))
        metrics.record(
            .init(
                name: "windowDidBecomeKey", window: 1, appID: "foot", cause: "focus-request",
                request: "_NET_ACTIVE_WINDOW", requester: "pid 3", requestedAt: 1_000_000, time: 17_666_667))
        metrics.recordKeystroke(window: 1, appID: "foot", time: 20_000_000)
        let reply = try #require(metrics.json(windowMilliseconds: 250).objectValue)
        let text = StatsCommand.table(.object(reply.merging(["ok": true, "id": 1]) { old, _ in old }))
        #expect(
            text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") } == [
                "APP REQUESTS GRANTED REFUSED COUNT TO_KEY_MS TO_KEY_FRAMES KEYS<250MS SWITCHES CAUSES",
                "(run) 1 1 0 1 16.7/16.7 0/0 1 2 focus-request 1, map 1",
                "foot 1 1 0 1 16.7/16.7 0/0 1 1 focus-request 1",
                "zenity 0 0 0 0 0/0 0/0 0 1 map 1",
            ])
    }
}
