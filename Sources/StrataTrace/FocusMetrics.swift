import StrataControlProtocol

/// Focus metrics (docs/control.md, "Focus metrics"), per run and per app: focus requests made,
/// granted and refused; the time from a request to key, in milliseconds and in frames; the
/// keystrokes a window got less than N ms after it became key ("misdirected keystrokes"); key
/// switches and their causes.
///
/// One computation for the live `stats` command (fed by an observer of the model, the seat and
/// the scene) and for the report's Focus panel (fed from a trace's lines: `init(trace:)`). It
/// knows no server type: it is fed records, all times in one time base (nanoseconds). Its
/// memory is bounded whatever it is fed: at most `maximumApps` apps (the rest are counted under
/// `otherApp`), `maximumWindows` windows in `by_window`, `maximumCauses` causes, a ring of
/// `frameHistory` frame times per screen for `maximumScreens` screens, a ring of the last
/// `keyHistory` key switches, and keystroke delays kept as a histogram of whole milliseconds
/// below `windowMillisecondsRange.upperBound` (per app and per window: 40 KB each at most).
public struct FocusMetrics: Sendable {
    /// A model notification as the metrics read it: its name, the window it is about and that
    /// window's app id, its cause's fields (`ChangeCause.fields`) and when it was posted.
    public struct Event: Sendable {
        public var name: String
        public var window: UInt64?
        public var appID: String
        /// The cause's kind (`click`, `focus-request`…); nil when the notification has none.
        public var cause: String?
        public var request: String
        public var requester: String
        public var decidedBy: String
        /// When the request was made (0: not known), in the time base of `time`.
        public var requestedAt: UInt64
        public var time: UInt64

        public init(
            name: String, window: UInt64?, appID: String = "", cause: String? = nil, request: String = "",
            requester: String = "", decidedBy: String = "", requestedAt: UInt64 = 0, time: UInt64
        ) {
            self.name = name
            self.window = window
            self.appID = appID
            self.cause = cause
            self.request = request
            self.requester = requester
            self.decidedBy = decidedBy
            self.requestedAt = requestedAt
            self.time = time
        }
    }

    public static let defaultWindowMilliseconds = 500
    /// The `window_ms` a query may ask for.
    public static let windowMillisecondsRange = 1...10_000
    public static let maximumApps = 256
    public static let maximumWindows = 256
    public static let maximumCauses = 32
    public static let maximumScreens = 16
    /// Frame times kept per screen (17 s at 60 Hz): a request older than that counts at most
    /// this many frames.
    public static let frameHistory = 1024
    /// Key switches kept to find when a keystroke's window became key.
    public static let keyHistory = 32
    /// Where apps past `maximumApps` and windows past `maximumWindows` are counted.
    public static let otherApp = "(other)"
    /// The app of a window without an app id.
    public static let noAppID = "(none)"
    /// The cause of a key switch that has none.
    public static let noCause = "(none)"
    /// The cause kinds of a focus request, and the requests that are focus requests whatever
    /// the kind that decided them (a delegate's answer, a fallback, key routed to a modal).
    public static let requestCauses: Set<String> = ["focus-request", "activation-token"]
    public static let focusRequests: Set<String> = [
        "strata_window_v1.make_key", "_NET_ACTIVE_WINDOW", "xdg_activation_v1.activate",
    ]

    /// The counts of the run or of one app.
    struct Tally: Sendable {
        var made = 0
        var granted = 0
        var refused = 0
        var latencyCount = 0
        var latencyTotal = 0.0
        var latencyMax: UInt64 = 0
        var framesTotal = 0
        var framesMax = 0
        /// Keystrokes by whole milliseconds after their window became key.
        var keystrokes = DelayHistogram()
        var switches = 0
        var causes = CappedCounts(limit: FocusMetrics.maximumCauses)
    }

    /// Counts by whole milliseconds, below the largest `window_ms`: as long as the longest delay
    /// seen (4 bytes a millisecond, 40 KB at most).
    struct DelayHistogram: Sendable {
        var counts: [UInt32] = []
        mutating func add(milliseconds: Int) {
            guard milliseconds < FocusMetrics.windowMillisecondsRange.upperBound else { return }
            let index = max(0, milliseconds)
            if index >= counts.count { counts.append(contentsOf: repeatElement(0, count: index + 1 - counts.count)) }
            counts[index] &+= 1
        }
        func count(below limit: Int) -> Int {
            counts.prefix(max(0, limit)).reduce(0) { $0 + Int($1) }
        }
    }

    /// Counts by name, at most `limit` names; the rest under `FocusMetrics.otherApp`.
    struct CappedCounts: Sendable {
        let limit: Int
        var counts: [String: Int] = [:]
        mutating func add(_ name: String) {
            let key = counts[name] != nil || counts.count < limit ? name : FocusMetrics.otherApp
            counts[key, default: 0] += 1
        }
    }

    /// A screen's last frame times, oldest overwritten.
    struct FrameRing: Sendable {
        let screen: Int
        var times: [UInt64]
        var next = 0
        var count = 0
        init(screen: Int) {
            self.screen = screen
            times = Array(repeating: 0, count: FocusMetrics.frameHistory)
        }
        mutating func add(_ time: UInt64) {
            times[next] = time
            next = (next + 1) % times.count
            count = min(count + 1, times.count)
        }
        /// Frames presented after `start` and at or before `end`.
        func count(after start: UInt64, through end: UInt64) -> Int {
            var frames = 0
            for offset in 0..<count {
                let time = times[(next - 1 - offset + times.count) % times.count]
                if time <= start { break }
                if time <= end { frames += 1 }
            }
            return frames
        }
    }

    /// The focus request being read: consecutive notifications with the same request, requester
    /// and request time are one transaction's.
    struct OpenRequest: Sendable {
        var request: String
        var requester: String
        var requestedAt: UInt64
        var isFocusRequest: Bool
        var window: UInt64?
        var appID: String
        var outcome: Outcome = .none
        var changedLevel = false
        var wasKeyAlready: Bool

        enum Outcome: Sendable { case none, granted, refused }

        func isSame(as event: Event) -> Bool {
            event.cause != nil && event.request == request && event.requester == requester
                && event.requestedAt == requestedAt
        }
    }

    var run = Tally()
    var apps: [String: Tally] = [:]
    /// Keystrokes within the largest window, by window: the window's app and its delays.
    var windows: [UInt64: (appID: String, keystrokes: DelayHistogram)] = [:]
    var otherWindows = DelayHistogram()
    var frames: [FrameRing] = []
    /// The last key switches, newest last: which window became key when.
    var keySwitches: [(window: UInt64, time: UInt64)] = []
    var keyWindow: UInt64?
    var open: OpenRequest?

    public init() {}

    // MARK: Feeding

    public mutating func record(_ event: Event) {
        readRequest(event)
        switch event.name {
        case "windowDidBecomeKey":
            guard let window = event.window else { break }
            keyWindow = window
            if keySwitches.count >= Self.keyHistory { keySwitches.removeFirst() }
            keySwitches.append((window, event.time))
            let cause = event.cause ?? Self.noCause
            var latency: (nanoseconds: UInt64, frames: Int)?
            if event.requestedAt != 0, event.requestedAt <= event.time {
                let frames = self.frames.map { $0.count(after: event.requestedAt, through: event.time) }.max() ?? 0
                latency = (event.time - event.requestedAt, frames)
            }
            update(event.appID) { tally in
                tally.switches += 1
                tally.causes.add(cause)
                if let latency {
                    tally.latencyCount += 1
                    tally.latencyTotal += Double(latency.nanoseconds)
                    tally.latencyMax = max(tally.latencyMax, latency.nanoseconds)
                    tally.framesTotal += latency.frames
                    tally.framesMax = max(tally.framesMax, latency.frames)
                }
            }
        case "windowDidResignKey":
            if event.window == keyWindow { keyWindow = nil }
        case "sessionDidLock":
            keyWindow = nil
        default:
            break
        }
    }

    /// A key press delivered to `window` (nil: to no window) at `time`.
    public mutating func recordKeystroke(window: UInt64?, appID: String, time: UInt64) {
        guard let window, let keyed = keySwitches.last(where: { $0.window == window }), keyed.time <= time else {
            return
        }
        let milliseconds = Int(clamping: (time - keyed.time) / 1_000_000)
        guard milliseconds < Self.windowMillisecondsRange.upperBound else { return }
        update(appID) { $0.keystrokes.add(milliseconds: milliseconds) }
        if windows[window] != nil || windows.count < Self.maximumWindows {
            windows[window, default: (appID, DelayHistogram())].keystrokes.add(milliseconds: milliseconds)
        } else {
            otherWindows.add(milliseconds: milliseconds)
        }
    }

    /// A frame presented on `screen` at `time`. Allocates nothing but for a screen's first frame.
    public mutating func recordFrame(screen: Int, time: UInt64) {
        if let index = frames.firstIndex(where: { $0.screen == screen }) {
            frames[index].add(time)
        } else if frames.count < Self.maximumScreens {
            frames.append(FrameRing(screen: screen))
            frames[frames.count - 1].add(time)
        }
    }

    /// Follows the focus request `event` belongs to, if any; counts the one it ends.
    private mutating func readRequest(_ event: Event) {
        let isRefusal = event.name == "keyRequestWasRefused"
        let isOutcome = isRefusal || event.name == "windowDidBecomeKey"
        if var current = open, current.isSame(as: event), !(isOutcome && current.outcome != .none) {
            if event.name == "windowDidBecomeKey" {
                current.outcome = .granted
                (current.window, current.appID) = (event.window, event.appID)
            } else if isRefusal {
                current.outcome = .refused
                (current.window, current.appID) = (event.window, event.appID)
            } else if event.name == "windowDidChangeLevel" {
                current.changedLevel = true
            }
            current.isFocusRequest = current.isFocusRequest || Self.isFocusRequest(event)
            open = current
            return
        }
        closeRequest()
        guard isRefusal || Self.isFocusRequest(event) else { return }
        var started = OpenRequest(
            request: event.request, requester: event.requester, requestedAt: event.requestedAt,
            isFocusRequest: true, window: event.window, appID: event.appID,
            wasKeyAlready: event.window != nil && event.window == keyWindow)
        if event.name == "windowDidBecomeKey" { started.outcome = .granted }
        if isRefusal { started.outcome = .refused }
        if event.name == "windowDidChangeLevel" { started.changedLevel = true }
        open = started
    }

    static func isFocusRequest(_ event: Event) -> Bool {
        guard let cause = event.cause else { return false }
        return requestCauses.contains(cause) || focusRequests.contains(event.request)
    }

    /// Counts the open request: granted when a window became key, refused when the request was
    /// refused or changed something but key (not a level, not for the key window).
    private mutating func closeRequest() {
        guard let request = open else { return }
        open = nil
        let outcome: OpenRequest.Outcome
        switch request.outcome {
        case .granted, .refused: outcome = request.outcome
        case .none:
            guard request.isFocusRequest, !request.changedLevel, !request.wasKeyAlready else { return }
            outcome = .refused
        }
        update(request.appID) { tally in
            tally.made += 1
            if outcome == .granted { tally.granted += 1 } else { tally.refused += 1 }
        }
    }

    /// Applies `change` to the run's tally and to the app's (or `otherApp`'s past the cap).
    private mutating func update(_ appID: String, _ change: (inout Tally) -> Void) {
        change(&run)
        let app = appID.isEmpty ? Self.noAppID : appID
        let key = apps[app] != nil || apps.count < Self.maximumApps ? app : Self.otherApp
        change(&apps[key, default: Tally()])
    }

    // MARK: Reading

    /// The `stats` reply's fields: `run` and `apps` (each app's id to its metrics), keystrokes
    /// counted within `windowMilliseconds` (clamped to `windowMillisecondsRange`).
    public func json(windowMilliseconds: Int = FocusMetrics.defaultWindowMilliseconds) -> JSONValue {
        let limit = min(
            max(windowMilliseconds, Self.windowMillisecondsRange.lowerBound), Self.windowMillisecondsRange.upperBound)
        var finished = self
        finished.closeRequest()
        var apps: [String: JSONValue] = [:]
        for (app, tally) in finished.apps {
            apps[app] = finished.json(tally, app: app, limit: limit)
        }
        return ["run": finished.json(finished.run, app: nil, limit: limit), "apps": .object(apps)]
    }

    private func json(_ tally: Tally, app: String?, limit: Int) -> JSONValue {
        var byWindow: [String: JSONValue] = [:]
        for (window, entry) in windows where app == nil || Self.appKey(entry.appID, in: apps) == app {
            let count = entry.keystrokes.count(below: limit)
            if count > 0 { byWindow[String(window)] = JSONValue(count) }
        }
        if app == nil || app == Self.otherApp {
            let count = otherWindows.count(below: limit)
            if count > 0 { byWindow[Self.otherApp] = JSONValue(count) }
        }
        let latencies = Double(max(1, tally.latencyCount))
        return [
            "focus_requests": [
                "made": JSONValue(tally.made), "granted": JSONValue(tally.granted), "refused": JSONValue(tally.refused),
            ],
            "request_to_key": [
                "count": JSONValue(tally.latencyCount),
                "mean_ms": JSONValue(Self.rounded(tally.latencyTotal / latencies / 1e6)),
                "max_ms": JSONValue(Self.rounded(Double(tally.latencyMax) / 1e6)),
                "mean_frames": JSONValue(Self.rounded(Double(tally.framesTotal) / latencies)),
                "max_frames": JSONValue(tally.framesMax),
            ],
            "keystrokes_after_key": [
                "window_ms": JSONValue(limit), "count": JSONValue(tally.keystrokes.count(below: limit)),
                "by_window": .object(byWindow),
            ],
            "key_switches": [
                "total": JSONValue(tally.switches),
                "by_cause": .object(tally.causes.counts.mapValues { JSONValue($0) }),
            ],
        ]
    }

    /// The key an app's counts are under in `apps`.
    static func appKey(_ appID: String, in apps: [String: Tally]) -> String {
        let app = appID.isEmpty ? noAppID : appID
        return apps[app] != nil ? app : otherApp
    }

    /// A number of a `json` reply as a table shows it: `3`, `16.7` (one decimal), `-` when absent.
    public static func text(_ value: JSONValue?) -> String {
        guard let value = value?.doubleValue, value.isFinite else { return "-" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String((value * 10).rounded() / 10)
    }

    /// Three decimals.
    static func rounded(_ value: Double) -> Double {
        value.isFinite ? (value * 1000).rounded() / 1000 : 0
    }
}
