import StrataControlProtocol

/// A recording and its replay under another policy (`strata-ctl replay --policy`, `--delegate`)
/// compared decision by decision (docs/experiments.md, "What-if replay"): after each step (a
/// control command that changes something, or an input that can make a key decision: a press,
/// a touch, a pointer motion), the key window and the stacking of the visible windows in each
/// trace, every step where they differ listed (not only the first).
///
/// Windows are matched by the order they opened in each trace (window 1 is the first to open),
/// as ids need not agree. Steps are matched in order by what they do (the command and its
/// arguments, the input and its fields, never a time or a path); a step one trace lacks is
/// listed as unmatched. A step's line is written once it was handled, after the events it
/// posted at once: its effects begin after the nearest line before it that no step writes while
/// handled (a command, an input, a frame). A step's state is the trace's last window list before
/// the next matched step's effects begin (the last step's: before the trace's end), so what it
/// did at once and what followed (a window a client mapped, a client that left on `close`)
/// before the next step; the key and stacking events from its effects on are kept with their
/// causes (`cause`, `decided_by`, `request`, when the events carry them).
public struct WhatIfComparison: Sendable {
    /// One trace's side of a step.
    public struct Side: Sendable, Equatable {
        /// The step's line, an index into the trace's `lines`.
        public var line: Int
        /// The key window after the step, by opening order (nil: none).
        public var key: Int?
        /// The visible windows after the step, front to back, by opening order.
        public var stacking: [Int]
        /// A command's reply: `ok`, `error CODE`, or nil (an input, or a reply sent later).
        public var reply: String?
        /// The key and stacking events between this step and the next, each described with its
        /// cause when it has one.
        public var events: [String]
    }

    public struct Step: Sendable {
        /// The step as the recording describes it (`#12 command make-key window=2 → ok`).
        public var text: String
        public var recorded: Side
        public var replayed: Side
        /// What differs: `key`, `stacking`, `reply` (empty: nothing).
        public var differences: [String]
    }

    public var steps: [Step]
    /// Recorded steps the replay has no match for, and replayed steps the recording has none for.
    public var unmatchedRecorded: [Int]
    public var unmatchedReplayed: [Int]
    /// Each trace's windows by opening order: (number, app id).
    public var recordedWindows: [(number: Int, appID: String)]
    public var replayedWindows: [(number: Int, appID: String)]

    public var differing: [Step] { steps.filter { !$0.differences.isEmpty } }

    /// Input commands: the input lines they make are the steps, not the command lines.
    static let inputCommands: Set<String> = [
        "pointer-move", "pointer-button", "pointer-click", "pointer-scroll", "key", "type", "touch", "gesture",
        "tablet",
    ]
    /// Commands that decide nothing by themselves (they wait, read, or change the policy, which
    /// a what-if replay sets itself).
    static let skippedCommands: Set<String> = ["step", "settle", "screenshot", "policy"]
    /// How many of the other trace's steps a step is looked for in (a recording and its replay
    /// differ by a few steps at most; the bound keeps two unrelated traces from taking
    /// quadratic time).
    static let lookahead = 256
    /// Events of key and stacking decisions shown with each step.
    static let decisionEvents: Set<String> = [
        "windowDidBecomeKey", "windowDidResignKey", "windowDidChangeStacking", "windowDidChangeLevel",
        "keyRequestWasRefused", "policyDidFallBack",
    ]

    /// What a step does, to match it across the traces; nil for a line that is no step.
    static func signature(_ line: JSONValue) -> String? {
        switch line["type"]?.stringValue {
        case "command":
            guard let request = line["request"], let name = request["command"]?.stringValue,
                TraceFormat.replayedCommands.contains(name), !inputCommands.contains(name),
                !skippedCommands.contains(name)
            else { return nil }
            var fields = (request.objectValue ?? [:]).filter { !["id", "command", "cwd", "path"].contains($0.key) }
            if name == "exec", var argv = fields["argv"]?.arrayValue, let first = argv.first?.stringValue {
                // The replay runs Strata's own clients by their path beside strata-ctl.
                argv[0] = .string(String(first.split(separator: "/").last ?? Substring(first)))
                fields["argv"] = .array(argv)
            }
            return "command " + name + " " + String(decoding: JSONValue.object(fields).encodedLine(), as: UTF8.self)
        case "input":
            guard let input = line["input"]?.stringValue else { return nil }
            switch input {
            case "pointer-button" where line["state"] == "down" || line["state"] == "pressed": break
            case "touch-down", "pointer-motion": break
            default: return nil
            }
            let fields = (line.objectValue ?? [:]).filter {
                ["input", "button", "state", "touch_id", "x", "y", "screen"].contains($0.key)
            }
            return "input " + String(decoding: JSONValue.object(fields).encodedLine(), as: UTF8.self)
        default:
            return nil
        }
    }

    /// A trace read for the comparison: its steps, its windows by opening order, the window list
    /// after each line.
    struct Timeline {
        var steps: [(index: Int, signature: String)] = []
        var numbers: [UInt64: Int] = [:]
        var appIDs: [(number: Int, appID: String)] = []
        /// The index of the line where Strata began to stop (its `end` line, or where the
        /// session's clients went at the end), or the line count.
        var stop: Int
        /// For each line, the index of the last window list at or before it (-1: none).
        var lastWindows: [Int] = []

        init(_ trace: TraceFile) {
            stop = trace.lines.count
            lastWindows.reserveCapacity(trace.lines.count)
            for (index, line) in trace.lines.enumerated() {
                lastWindows.append(line["type"] == "windows" ? index : (lastWindows.last ?? -1))
                if let signature = WhatIfComparison.signature(line) { steps.append((index, signature)) }
                if line["type"] == "event", line["name"] == "windowDidOpen", let id = line["window"]?.intValue {
                    number(UInt64(max(0, id)), appID: nil)
                }
                if line["type"] == "windows" {
                    for window in line["windows"]?.arrayValue ?? [] {
                        guard let id = window["id"]?.intValue else { continue }
                        number(UInt64(max(0, id)), appID: window["app_id"]?.stringValue)
                    }
                }
                if line["type"] == "end", stop == trace.lines.count { stop = index }
            }
        }

        private mutating func number(_ id: UInt64, appID: String?) {
            if let known = numbers[id] {
                if let appID, !appID.isEmpty, appIDs[known - 1].appID.isEmpty { appIDs[known - 1].appID = appID }
                return
            }
            numbers[id] = numbers.count + 1
            appIDs.append((numbers.count, appID ?? ""))
        }

        /// The key window and the visible windows front to back, from the last window list
        /// before line `end`.
        func state(of trace: TraceFile, before end: Int) -> (key: Int?, stacking: [Int]) {
            let last = min(end, trace.lines.count) - 1
            guard last >= 0, lastWindows[last] >= 0 else { return (nil, []) }
            var key: Int?
            var stacking: [Int] = []
            for window in trace.lines[lastWindows[last]]["windows"]?.arrayValue ?? [] {
                guard let id = window["id"]?.intValue, let number = numbers[UInt64(max(0, id))] else { continue }
                if window["key"] == true { key = number }
                if window["hidden"] != true { stacking.append(number) }
            }
            return (key, stacking)
        }

        /// Where the effects of the step on line `step` begin: after the nearest line before it
        /// of a type that no step's handling writes (a command, an input, a frame).
        static func effectStart(of step: Int, in trace: TraceFile) -> Int {
            var index = step - 1
            while index > 0 {
                if ["command", "input", "frame"].contains(trace.lines[index]["type"]?.stringValue ?? "") {
                    return index + 1
                }
                index -= 1
            }
            return 1
        }

        func side(of trace: TraceFile, step: Int, until end: Int) -> Side {
            let line = trace.lines[step]
            let state = state(of: trace, before: end)
            var reply: String?
            if line["type"] == "command", let value = line["reply"], value != .null {
                reply = value["ok"] == true ? "ok" : "error \(value["error"]?["code"]?.stringValue ?? "?")"
            }
            var events: [String] = []
            let start = Self.effectStart(of: step, in: trace)
            if start < end {
                for other in trace.lines[start..<end]
                where other["type"] == "event"
                    && WhatIfComparison.decisionEvents.contains(other["name"]?.stringValue ?? "")
                {
                    events.append(describe(other))
                }
            }
            return Side(line: step, key: state.key, stacking: state.stacking, reply: reply, events: events)
        }

        /// `windowDidBecomeKey window=1 cause=click decided_by=uikit request=pointer-button 272`:
        /// the window by opening order, the cause's fields when present.
        func describe(_ event: JSONValue) -> String {
            var words = [event["name"]?.stringValue ?? "?"]
            if let id = event["window"]?.intValue {
                words.append("window=\(numbers[UInt64(max(0, id))].map(String.init) ?? "?")")
            }
            for field in ["cause", "decided_by", "request", "reason"] {
                if let value = event[field]?.stringValue, !value.isEmpty { words.append("\(field)=\(value)") }
            }
            return words.joined(separator: " ")
        }
    }

    public init(recorded: TraceFile, replayed: TraceFile) {
        let a = Timeline(recorded), b = Timeline(replayed)
        var pairs: [(Int, Int)] = []
        var unmatchedRecorded: [Int] = []
        var next = 0
        for step in a.steps {
            let window = b.steps[next..<min(b.steps.count, next + Self.lookahead)]
            if let found = window.firstIndex(where: { $0.signature == step.signature }) {
                pairs.append((step.index, found))
                next = found + 1
            } else {
                unmatchedRecorded.append(step.index)
            }
        }
        let matchedReplayed = Set(pairs.map(\.1))
        self.unmatchedReplayed = b.steps.indices.filter { !matchedReplayed.contains($0) }.map { b.steps[$0].index }
        self.unmatchedRecorded = unmatchedRecorded
        var steps: [Step] = []
        for (position, pair) in pairs.enumerated() {
            let recordedEnd =
                position + 1 < pairs.count ? Timeline.effectStart(of: pairs[position + 1].0, in: recorded) : a.stop
            let replayedEnd =
                position + 1 < pairs.count
                ? Timeline.effectStart(of: b.steps[pairs[position + 1].1].index, in: replayed) : b.stop
            let left = a.side(of: recorded, step: pair.0, until: recordedEnd)
            let right = b.side(of: replayed, step: b.steps[pair.1].index, until: replayedEnd)
            var differences: [String] = []
            if left.key != right.key { differences.append("key") }
            if left.stacking != right.stacking { differences.append("stacking") }
            if left.reply != right.reply, left.reply != nil, right.reply != nil { differences.append("reply") }
            steps.append(
                Step(
                    text: TraceFile.describe(recorded.lines[pair.0]), recorded: left, replayed: right,
                    differences: differences))
        }
        self.steps = steps
        recordedWindows = a.appIDs
        replayedWindows = b.appIDs
    }

    /// A window by opening order as a person reads it: `1 (m.first)`, `none`.
    public static func name(_ number: Int?, in windows: [(number: Int, appID: String)]) -> String {
        guard let number else { return "none" }
        let appID = windows.first { $0.number == number }?.appID ?? ""
        return appID.isEmpty ? "\(number)" : "\(number) (\(appID))"
    }

    /// The readable list: a summary line, then each differing step with both sides.
    public func text(title: String) -> [String] {
        var lines = [
            "\(title): \(steps.count) step\(steps.count == 1 ? "" : "s") compared, \(differing.count) differ"
                + (unmatchedRecorded.isEmpty && unmatchedReplayed.isEmpty
                    ? ""
                    : " (\(unmatchedRecorded.count) recorded and \(unmatchedReplayed.count) replayed steps unmatched)")
        ]
        for (number, step) in steps.enumerated() where !step.differences.isEmpty {
            lines.append(
                "step \(number + 1) (line \(step.recorded.line + 1)) \(step.text): \(step.differences.joined(separator: ", ")) differ"
            )
            if step.differences.contains("key") {
                lines.append(
                    "  key:      recorded \(Self.name(step.recorded.key, in: recordedWindows)), replayed \(Self.name(step.replayed.key, in: replayedWindows))"
                )
            }
            if step.differences.contains("stacking") {
                let a = step.recorded.stacking.map { Self.name($0, in: recordedWindows) }.joined(separator: ", ")
                let b = step.replayed.stacking.map { Self.name($0, in: replayedWindows) }.joined(separator: ", ")
                lines.append("  stacking: recorded [\(a)], replayed [\(b)] (front to back)")
            }
            if step.differences.contains("reply") {
                lines.append(
                    "  reply:    recorded \(step.recorded.reply ?? "-"), replayed \(step.replayed.reply ?? "-")")
            }
            let caused = { (events: [String]) in events.filter { $0.contains("cause=") || $0.contains("decided_by=") } }
            for event in caused(step.recorded.events) { lines.append("  recorded: \(event)") }
            for event in caused(step.replayed.events) { lines.append("  replayed: \(event)") }
        }
        return lines.map(TraceReportText.plain)
    }

    /// The comparison for machines (`--json`).
    public func json(trace: String, policy: String?, delegate: String?, recordedPolicy: String, completed: Bool)
        -> JSONValue
    {
        func side(_ side: Side) -> JSONValue {
            [
                "line": JSONValue(side.line + 1), "key": side.key.map { JSONValue($0) } ?? .null,
                "stacking": .array(side.stacking.map { JSONValue($0) }),
                "reply": side.reply.map { .string($0) } ?? .null,
                "events": .array(side.events.map { .string($0) }),
            ]
        }
        func windows(_ list: [(number: Int, appID: String)]) -> JSONValue {
            .array(list.map { ["window": JSONValue($0.number), "app_id": .string($0.appID)] })
        }
        return [
            "trace": .string(trace), "policy": policy.map { .string($0) } ?? .null,
            "delegate": delegate.map { .string($0) } ?? .null, "recorded_policy": .string(recordedPolicy),
            "completed": .bool(completed), "compared": JSONValue(steps.count), "differing": JSONValue(differing.count),
            "windows": ["recorded": windows(recordedWindows), "replayed": windows(replayedWindows)],
            "steps": .array(
                steps.enumerated().map { number, step in
                    [
                        "step": JSONValue(number + 1), "text": .string(step.text), "recorded": side(step.recorded),
                        "replayed": side(step.replayed),
                        "differences": .array(step.differences.map { .string($0) }),
                    ]
                }),
            "unmatched_recorded_lines": .array(unmatchedRecorded.map { JSONValue($0 + 1) }),
            "unmatched_replayed_lines": .array(unmatchedReplayed.map { JSONValue($0 + 1) }),
        ]
    }
}
