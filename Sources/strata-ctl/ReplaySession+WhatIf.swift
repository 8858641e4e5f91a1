import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataTrace

/// The sync of a what-if replay (docs/experiments.md, "What-if replay"): under another policy
/// the key and stacking events differ, so the recorded sequence numbers cannot be waited for.
/// What no key-window policy changes is which windows open and show: before each step the
/// replay waits until its model has posted as many `windowDidOpen` and `windowDidBecomeVisible`
/// as the recording had before that step (then the recorded gap, on the realtime clock).
final class WhatIfSync {
    /// Opened and shown windows counted in the recording before each line.
    let recorded: [(opened: Int, visible: Int)]
    /// The replay's counts, from its events (`events` with `since`).
    var opened = 0
    var visible = 0
    var since = 0

    init(trace: TraceFile) {
        var counts: [(opened: Int, visible: Int)] = []
        var opened = 0, visible = 0
        for line in trace.lines {
            counts.append((opened, visible))
            guard line["type"] == "event" else { continue }
            if line["name"] == "windowDidOpen" { opened += 1 }
            if line["name"] == "windowDidBecomeVisible" { visible += 1 }
        }
        counts.append((opened, visible))
        recorded = counts
    }

    /// Counts the events the replay's Strata posted since the last look; false when it does not answer.
    func update(_ client: ControlClient) -> Bool {
        guard let reply = try? client.request("events", ["since": JSONValue(since), "follow": false]),
            reply["ok"] == true
        else { return false }
        for event in reply["events"]?.arrayValue ?? [] {
            since = max(since, event["sequence"]?.intValue ?? since)
            if event["name"] == "windowDidOpen" { opened += 1 }
            if event["name"] == "windowDidBecomeVisible" { visible += 1 }
        }
        return true
    }
}

extension ReplaySession {
    /// Waits (at most `timeout` seconds, nothing after a missed point) until the replay has
    /// opened and shown as many windows as the recording had before line `index`; the first
    /// point missed is `missedPoint` (a what-if replay that misses one was not completed).
    func reachWindows(before index: Int, line: Int) {
        guard let sync = whatIf else { return }
        let wanted = sync.recorded[min(max(0, index), sync.recorded.count - 1)]
        let deadline = ControlClient.now() + (missedPoint == nil ? timeout : 0)
        while true {
            let answered = sync.update(client)
            if sync.opened >= wanted.opened, sync.visible >= wanted.visible { return }
            if !answered || ControlClient.now() >= deadline {
                if missedPoint == nil {
                    missedPoint =
                        "before line \(line + 1) the recording had opened \(wanted.opened) and shown \(wanted.visible) windows; "
                        + "the replay had \(sync.opened) and \(sync.visible) after \(timeout) s"
                }
                return
            }
            usleep(5000)
        }
    }
}
