import StrataControlProtocol

extension FocusMetrics {
    /// The metrics of a recorded session (the report's Focus panel): its `event` lines (the
    /// window's app id from the `windows` lines), its key presses (`input` lines with `key`,
    /// `down` and the `window` the key went to) and its frames (`frame` lines; not the `final`
    /// ones a recording writes as it stops).
    ///
    /// A trace's `time_ns` counts from the recording's start and `requested_ns` is the
    /// compositor's clock: the header's `start_ns` (the clock when the recording started) maps one
    /// onto the other. A trace without it on the realtime clock has no request times (under the
    /// manual clock both count from 0). A trace is untrusted: a field of the wrong type or out of
    /// range leaves that record out (or that field), nothing traps.
    public init(trace: TraceFile) {
        self.init(lines: trace.lines)
    }

    public init(lines: [JSONValue]) {
        self.init()
        let header = lines.first
        // Read as doubles: a monotonic clock's nanoseconds pass 2^53 after 104 days of uptime.
        let start: Double? =
            Self.finite(header?["start_ns"]) ?? (header?["clock"]?.stringValue == "manual" ? 0 : nil)
        var appIDs: [UInt64: String] = [:]
        for line in lines where line["type"]?.stringValue == TraceFormat.LineType.windows.rawValue {
            for window in line["windows"]?.arrayValue ?? [] {
                guard let id = Self.unsigned(window["id"]), let app = window["app_id"]?.stringValue else { continue }
                appIDs[id] = app
            }
        }
        for line in lines {
            guard let type = line["type"]?.stringValue, let time = Self.unsigned(line["time_ns"]) else { continue }
            switch type {
            case TraceFormat.LineType.event.rawValue:
                guard let name = line["name"]?.stringValue else { continue }
                let window = Self.unsigned(line["window"])
                var requestedAt: UInt64 = 0
                if let start, let requested = Self.finite(line["requested_ns"]), requested - start >= 1 {
                    requestedAt = UInt64(min(requested - start, 1e18))
                }
                record(
                    Event(
                        name: name, window: window, appID: window.flatMap { appIDs[$0] } ?? "",
                        cause: line["cause"]?.stringValue, request: line["request"]?.stringValue ?? "",
                        requester: line["requester"]?.stringValue ?? "",
                        decidedBy: line["decided_by"]?.stringValue ?? "", requestedAt: requestedAt, time: time))
            case TraceFormat.LineType.input.rawValue:
                guard line["input"]?.stringValue == "key", line["state"]?.stringValue == "down" else { continue }
                let window = Self.unsigned(line["window"])
                recordKeystroke(window: window, appID: window.flatMap { appIDs[$0] } ?? "", time: time)
            case TraceFormat.LineType.frame.rawValue:
                guard line["final"]?.boolValue != true, let screen = line["screen"]?.intValue else { continue }
                recordFrame(screen: screen, time: time)
            default:
                continue
            }
        }
    }

    /// A finite number from 0 on, or nil.
    static func finite(_ value: JSONValue?) -> Double? {
        guard let number = value?.doubleValue, number.isFinite, number >= 0 else { return nil }
        return number
    }

    /// A whole number from 0 on, or nil.
    static func unsigned(_ value: JSONValue?) -> UInt64? {
        guard let number = value?.intValue, number >= 0 else { return nil }
        return UInt64(number)
    }
}
