import Foundation
import StrataControlProtocol
import StrataTrace
import Testing

/// `FocusMetrics` fed hand-made records: each metric, the keystroke window's edge, refusals, and
/// the caps that bound its memory.
@Suite struct FocusMetricsTests {
    static let ms: UInt64 = 1_000_000

    func key(
        _ window: UInt64, app: String, cause: String, request: String = "", requester: String = "",
        requestedAt: UInt64 = 0, at time: UInt64
    ) -> FocusMetrics.Event {
        FocusMetrics.Event(
            name: "windowDidBecomeKey", window: window, appID: app, cause: cause, request: request,
            requester: requester, requestedAt: requestedAt, time: time)
    }

    @Test func keySwitchesAreCountedByCauseForTheRunAndEachApp() {
        var metrics = FocusMetrics()
        metrics.record(key(1, app: "foot", cause: "map", at: 1 * Self.ms))
        metrics.record(key(2, app: "gedit", cause: "click", at: 2 * Self.ms))
        metrics.record(key(1, app: "foot", cause: "click", at: 3 * Self.ms))
        metrics.record(FocusMetrics.Event(name: "windowDidBecomeKey", window: 2, appID: "gedit", time: 4 * Self.ms))
        let stats = metrics.json()
        #expect(stats["run"]?["key_switches"]?["total"] == 4)
        #expect(stats["run"]?["key_switches"]?["by_cause"] == ["map": 1, "click": 2, "(none)": 1])
        #expect(stats["apps"]?["foot"]?["key_switches"] == ["total": 2, "by_cause": ["map": 1, "click": 1]])
        #expect(stats["apps"]?["gedit"]?["key_switches"] == ["total": 2, "by_cause": ["click": 1, "(none)": 1]])
        #expect(stats["run"]?["focus_requests"] == ["made": 0, "granted": 0, "refused": 0])
    }

    @Test func aFocusRequestThatLedToKeyIsGrantedAndARefusalRefused() {
        var metrics = FocusMetrics()
        metrics.record(key(1, app: "foot", cause: "map", at: 0))
        // A make_key: the key window resigns, the asking one becomes key (one transaction).
        metrics.record(
            FocusMetrics.Event(
                name: "windowDidResignKey", window: 1, appID: "foot", cause: "focus-request",
                request: "strata_window_v1.make_key", requester: "pid 7", requestedAt: 10 * Self.ms,
                time: 10 * Self.ms))
        metrics.record(
            key(
                2, app: "chat", cause: "focus-request", request: "strata_window_v1.make_key", requester: "pid 7",
                requestedAt: 10 * Self.ms, at: 10 * Self.ms))
        // Refused twice: the focus rule, then an activation token under a lock.
        metrics.record(
            FocusMetrics.Event(
                name: "keyRequestWasRefused", window: 3, appID: "chat", cause: "focus-request",
                request: "_NET_ACTIVE_WINDOW", requester: "pid 8", requestedAt: 20 * Self.ms, time: 20 * Self.ms))
        metrics.record(
            FocusMetrics.Event(
                name: "keyRequestWasRefused", window: 3, appID: "chat", cause: "activation-token",
                request: "xdg_activation_v1.activate", requester: "pid 8", requestedAt: 21 * Self.ms,
                time: 21 * Self.ms))
        let stats = metrics.json()
        #expect(stats["run"]?["focus_requests"] == ["made": 3, "granted": 1, "refused": 2])
        #expect(stats["apps"]?["chat"]?["focus_requests"] == ["made": 3, "granted": 1, "refused": 2])
        #expect(stats["apps"]?["foot"]?["focus_requests"] == ["made": 0, "granted": 0, "refused": 0])
    }

    /// A delegate's answer, a fallback and key routed to a modal window keep the request's words:
    /// still a focus request. A level request (set_level under `focus-request`) is not one.
    @Test func aRequestDecidedByTheDelegateIsAFocusRequestAndALevelRequestIsNot() {
        var metrics = FocusMetrics()
        metrics.record(
            key(
                4, app: "a", cause: "delegate", request: "xdg_activation_v1.activate", requester: "pid 3",
                requestedAt: 1, at: 60 * Self.ms))
        metrics.record(
            FocusMetrics.Event(
                name: "windowDidChangeLevel", window: 4, appID: "a", cause: "focus-request",
                request: "strata_window_v1.set_level", requester: "pid 3", requestedAt: 70 * Self.ms,
                time: 70 * Self.ms))
        metrics.record(
            key(
                5, app: "a", cause: "modal", request: "strata_window_v1.make_key", requester: "pid 3",
                requestedAt: 80 * Self.ms, at: 80 * Self.ms))
        let stats = metrics.json()
        #expect(stats["run"]?["focus_requests"] == ["made": 2, "granted": 2, "refused": 0])
    }

    /// A focus request that changed something but key (an activation that only raised the
    /// window) was not granted: refused.
    @Test func aFocusRequestThatLedToNoKeyIsRefused() {
        var metrics = FocusMetrics()
        metrics.record(key(1, app: "a", cause: "map", at: 0))
        metrics.record(
            FocusMetrics.Event(
                name: "windowDidChangeStacking", window: 2, appID: "b", cause: "activation-token",
                request: "xdg_activation_v1.activate", requester: "pid 9", requestedAt: 5, time: 5))
        #expect(metrics.json()["apps"]?["b"]?["focus_requests"] == ["made": 1, "granted": 0, "refused": 1])
    }

    @Test func requestToKeyIsMeasuredInMillisecondsAndInFramesPresentedMeanwhile() {
        var metrics = FocusMetrics()
        // Frames every 16 ms on screen 1, every 8 ms on screen 2.
        for frame in 0..<20 { metrics.recordFrame(screen: 1, time: UInt64(frame) * 16 * Self.ms) }
        for frame in 0..<40 { metrics.recordFrame(screen: 2, time: UInt64(frame) * 8 * Self.ms) }
        // Asked at 100 ms, key at 150 ms: screen 2 presented 104…144 (6 frames), screen 1 112…144 (3).
        metrics.record(key(1, app: "a", cause: "focus-request", requestedAt: 100 * Self.ms, at: 150 * Self.ms))
        // Asked at 200 ms, key at 210 ms: 208 on screen 2 (1 frame).
        metrics.record(key(2, app: "b", cause: "click", requestedAt: 200 * Self.ms, at: 210 * Self.ms))
        // Unknown request time: not measured.
        metrics.record(key(1, app: "a", cause: "successor", at: 300 * Self.ms))
        let stats = metrics.json()
        #expect(
            stats["run"]?["request_to_key"] == [
                "count": 2, "mean_ms": 30, "max_ms": 50, "mean_frames": 3.5, "max_frames": 6,
            ])
        #expect(
            stats["apps"]?["b"]?["request_to_key"] == [
                "count": 1, "mean_ms": 10, "max_ms": 10, "mean_frames": 1, "max_frames": 1,
            ])
    }

    @Test func aKeystroke499MillisecondsAfterKeyIsMisdirectedAnd501IsNot() {
        var metrics = FocusMetrics()
        metrics.record(key(1, app: "editor", cause: "click", at: 1000 * Self.ms))
        metrics.record(key(2, app: "popup", cause: "map", at: 2000 * Self.ms))
        metrics.recordKeystroke(window: 2, appID: "popup", time: 2499 * Self.ms)
        metrics.recordKeystroke(window: 2, appID: "popup", time: 2501 * Self.ms)
        metrics.recordKeystroke(window: 1, appID: "editor", time: 2499 * Self.ms)  // became key long before
        metrics.recordKeystroke(window: nil, appID: "", time: 2000 * Self.ms)  // to no window
        let stats = metrics.json()
        #expect(stats["run"]?["keystrokes_after_key"] == ["window_ms": 500, "count": 1, "by_window": ["2": 1]])
        #expect(stats["apps"]?["popup"]?["keystrokes_after_key"]?["count"] == 1)
        #expect(stats["apps"]?["editor"]?["keystrokes_after_key"] == ["window_ms": 500, "count": 0, "by_window": [:]])
        // The window is the query's: 502 ms takes both, 499 neither.
        #expect(metrics.json(windowMilliseconds: 502)["run"]?["keystrokes_after_key"]?["count"] == 2)
        #expect(metrics.json(windowMilliseconds: 499)["run"]?["keystrokes_after_key"]?["count"] == 0)
        #expect(metrics.json(windowMilliseconds: 2000)["apps"]?["editor"]?["keystrokes_after_key"]?["count"] == 1)
    }

    @Test func appsPastTheCapAreCountedUnderOther() {
        var metrics = FocusMetrics()
        let apps = FocusMetrics.maximumApps + 10
        for index in 0..<apps {
            metrics.record(key(UInt64(index + 1), app: "app\(index)", cause: "map", at: UInt64(index) * Self.ms))
            metrics.recordKeystroke(window: UInt64(index + 1), appID: "app\(index)", time: UInt64(index) * Self.ms)
        }
        let stats = metrics.json()
        let names = stats["apps"]?.objectValue?.keys.map { $0 } ?? []
        #expect(names.count == FocusMetrics.maximumApps + 1)
        #expect(stats["apps"]?["(other)"]?["key_switches"]?["total"] == 10)
        #expect(stats["apps"]?["app0"]?["key_switches"]?["total"] == 1)
        #expect(stats["run"]?["key_switches"]?["total"] == JSONValue(apps))
        // Windows past the cap too.
        let byWindow = stats["run"]?["keystrokes_after_key"]?["by_window"]?.objectValue ?? [:]
        #expect(byWindow.count == FocusMetrics.maximumWindows + 1)
        #expect(byWindow["(other)"] == 10)
        #expect(stats["apps"]?["(other)"]?["keystrokes_after_key"]?["by_window"]?["(other)"] == 10)
    }

    @Test func causesPastTheCapAreCountedUnderOther() {
        var metrics = FocusMetrics()
        for index in 0..<(FocusMetrics.maximumCauses + 5) {
            metrics.record(key(1, app: "a", cause: "cause \(index)", at: UInt64(index)))
        }
        let causes = metrics.json()["run"]?["key_switches"]?["by_cause"]?.objectValue ?? [:]
        #expect(causes.count == FocusMetrics.maximumCauses + 1)
        #expect(causes["(other)"] == 5)
    }

    /// The trace form: requested_ns is the clock, time_ns counts from the header's start_ns;
    /// app ids come from the `windows` lines; final frames are not presented frames.
    @Test func aTracesLinesGiveTheSameMetrics() throws {
        let lines = [
            #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0,"start_ns":5000000000}"#,
            #"{"type":"windows","sequence":1,"time_ns":1,"windows":[{"id":1,"app_id":"foot"},{"id":2,"app_id":"chat"}]}"#,
            #"{"type":"frame","screen":1,"frame":1,"sequence":1,"time_ns":16000000}"#,
            #"{"type":"frame","screen":1,"frame":2,"sequence":1,"time_ns":32000000}"#,
            #"{"type":"event","name":"windowDidBecomeKey","window":2,"cause":"focus-request","request":"strata_window_v1.make_key","requester":"pid 4","requested_ns":5010000000,"sequence":2,"time_ns":40000000}"#,
            #"{"type":"input","input":"key","state":"down","window":2,"keycode":30,"sequence":2,"time_ns":300000000}"#,
            #"{"type":"input","input":"key","state":"up","window":2,"keycode":30,"sequence":2,"time_ns":310000000}"#,
            #"{"type":"event","name":"keyRequestWasRefused","window":1,"cause":"focus-request","requester":"pid 5","sequence":3,"time_ns":400000000}"#,
            #"{"type":"frame","screen":1,"frame":3,"final":true,"sequence":3,"time_ns":500000000}"#,
        ]
        let trace = try TraceFile(data: Data(lines.joined(separator: "\n").utf8), name: "t")
        let stats = FocusMetrics(trace: trace).json()
        #expect(
            stats["apps"]?["chat"]?["request_to_key"] == [
                "count": 1, "mean_ms": 30, "max_ms": 30, "mean_frames": 2, "max_frames": 2,
            ])
        #expect(stats["apps"]?["chat"]?["keystrokes_after_key"]?["count"] == 1)
        #expect(stats["apps"]?["foot"]?["focus_requests"] == ["made": 1, "granted": 0, "refused": 1])
        #expect(stats["run"]?["focus_requests"] == ["made": 2, "granted": 1, "refused": 1])
    }

    /// Without `start_ns` a realtime trace's request times cannot be placed: not measured.
    @Test func aRealtimeTraceWithoutItsStartHasNoRequestTimes() throws {
        let lines = [
            #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[],"sequence":0}"#,
            #"{"type":"event","name":"windowDidBecomeKey","window":2,"cause":"click","requested_ns":5010000000,"sequence":2,"time_ns":40000000}"#,
            #"{"type":"event","name":"windowDidBecomeKey","window":"x","cause":7,"requested_ns":"y","sequence":3,"time_ns":-4}"#,
        ]
        let trace = try TraceFile(data: Data(lines.joined(separator: "\n").utf8), name: "t")
        let stats = FocusMetrics(trace: trace).json()
        #expect(stats["run"]?["request_to_key"]?["count"] == 0)
        #expect(stats["run"]?["key_switches"]?["total"] == 1)
        #expect(stats["apps"]?["(none)"]?["key_switches"]?["total"] == 1)
    }
}
