import StrataControlProtocol

/// Compares a recorded trace with the trace of its replay and finds the first divergence
/// (docs/experiments.md, "Replay and diff").
///
/// Model events are aligned by sequence number: the replay's event #n must have the recorded
/// event #n's name and fields (window, screen, from, to…), so a different key window, stacking,
/// level, visibility or screen shows as the first event that differs, or as an event one trace
/// has and the other lacks; their causes must agree too (kind, request, what decided; not the
/// requester or the time). Frames: the last picture of each screen (under the realtime clock,
/// of each screen still connected at the end). What a real client draws between two steps
/// depends on when it read its input (a shell's echo reaches foot over a pty), under either
/// clock, so the pictures in between are checked where a step recorded them (`shown`, by the
/// replay's waits), not frame by frame; with `everyPicture` (clients that draw the same at
/// every step, `strata-ctl replay --every-picture`) each screen's sequence of pictures (frame
/// hashes, a repeat of the same picture left out) is compared in order.
public struct TraceDivergence: Sendable, CustomStringConvertible {
    /// What differs: `key`, `stacking`, `level`, `visibility`, `screen`, `windows`, `frame`,
    /// `event`, `frame-hash`.
    public var kind: String
    /// Where: an index into each trace's `lines` (nil when the trace has no such line).
    public var recordedIndex: Int?
    public var replayIndex: Int?
    public var message: String
    public var description: String { "\(kind): \(message)" }

    public init(kind: String, recordedIndex: Int?, replayIndex: Int?, message: String) {
        self.kind = kind
        self.recordedIndex = recordedIndex
        self.replayIndex = replayIndex
        self.message = message
    }
}

public enum TraceDiff {
    /// The first divergence of `replay` from `recorded`, nil when they match.
    /// `acceptsLastPicture(screen, recorded, replayed)`: whether a screen's last pictures that
    /// hash differently are the same within a tolerance (the realtime clock's final check;
    /// `strata-ctl replay --threshold`). `everyPicture`: compare each screen's sequence of
    /// distinct pictures, not only the last.
    public static func firstDivergence(
        recorded: TraceFile, replay: TraceFile, everyPicture: Bool = false,
        acceptsLastPicture: (Int, JSONValue, JSONValue) -> Bool = { _, _, _ in false }
    ) -> TraceDivergence? {
        let floor = recorded.header["sequence"]?.intValue ?? 0
        let recordedEvents = events(of: recorded, after: floor)
        let replayEvents = events(of: replay, after: floor)
        let replayBySequence = Dictionary(
            replayEvents.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        for event in recordedEvents {
            guard let other = replayBySequence[event.sequence] else {
                return TraceDivergence(
                    kind: kind(of: event.line), recordedIndex: event.index, replayIndex: replayEvents.last?.index,
                    message:
                        "the replay has no event #\(event.sequence); the recording has \(TraceFile.describe(event.line))"
                        + (replayEvents.last.map { " (the replay's last: \(TraceFile.describe($0.line)))" }
                            ?? " (the replay has no events)"))
            }
            if comparable(event.line) != comparable(other.line) {
                return TraceDivergence(
                    kind: kind(of: event.line), recordedIndex: event.index, replayIndex: other.index,
                    message:
                        "event #\(event.sequence): recorded \(TraceFile.describe(event.line)), replayed \(TraceFile.describe(other.line))"
                )
            }
        }
        let lastRecorded = recordedEvents.last?.sequence ?? floor
        if let extra = replayEvents.first(where: { $0.sequence > lastRecorded }) {
            return TraceDivergence(
                kind: kind(of: extra.line), recordedIndex: recordedEvents.last?.index, replayIndex: extra.index,
                message:
                    "the replay goes on with \(TraceFile.describe(extra.line)) after the recording's last event #\(lastRecorded)"
            )
        }
        return frameDivergence(
            recorded: recorded, replay: replay, everyFrame: everyPicture,
            manual: recorded.clock == "manual", acceptsLastPicture: acceptsLastPicture)
    }

    private struct Event {
        var sequence: Int
        var index: Int
        var line: JSONValue
    }

    private static func events(of trace: TraceFile, after floor: Int) -> [Event] {
        trace.lines(ofType: .event).compactMap { entry in
            guard let sequence = entry.line["sequence"]?.intValue, sequence > floor else { return nil }
            return Event(sequence: sequence, index: entry.index, line: entry.line)
        }
    }

    /// The event without what may differ between runs (its time, its line type, a window's
    /// `origin`: the replay starts the recorded command with `exec`; its cause's `requester` and
    /// `requested_ns`: other pids, another control connection, other times; and `decided_by`: a
    /// replay under another policy (or delegate) diverges where the outcome does, not where only
    /// the decider's name does; `strata-ctl replay --policy` compares decisions). The cause's
    /// kind and request are compared.
    static func comparable(_ line: JSONValue) -> JSONValue {
        guard var fields = line.objectValue else { return line }
        for key in ["time_ns", "type", "origin", "requester", "requested_ns", "decided_by"] { fields[key] = nil }
        return .object(fields)
    }

    /// What an event is about, for the divergence's kind.
    static func kind(of line: JSONValue) -> String {
        switch line["name"]?.stringValue ?? "" {
        case "windowDidBecomeKey", "windowDidResignKey": return "key"
        case "windowDidChangeStacking": return "stacking"
        case "windowDidChangeLevel": return "level"
        case "windowDidBecomeVisible", "windowDidBecomeHidden": return "visibility"
        case "windowDidOpen", "windowDidClose": return "windows"
        case "windowDidChangeFrame": return "frame"
        case let name where name.hasPrefix("screen") || name == "windowDidMoveToScreen": return "screen"
        default: return "event"
        }
    }

    private static func frameDivergence(
        recorded: TraceFile, replay: TraceFile, everyFrame: Bool, manual: Bool,
        acceptsLastPicture: (Int, JSONValue, JSONValue) -> Bool
    ) -> TraceDivergence? {
        let recordedFrames = framesByScreen(recorded), replayFrames = framesByScreen(replay)
        // Under the realtime clock a screen that was unplugged has no settled last picture (under
        // the manual clock it was unplugged between two steps, after what they painted).
        let unplugged = Set(
            recorded.lines(ofType: .event).compactMap { entry in
                entry.line["name"] == "screenDidDisconnect" ? entry.line["screen"]?.intValue : nil
            })
        for screen in recordedFrames.keys.sorted() where everyFrame || manual || !unplugged.contains(screen) {
            let mine = distinct(recordedFrames[screen] ?? []), theirs = distinct(replayFrames[screen] ?? [])
            if everyFrame {
                for (offset, frame) in mine.enumerated() {
                    guard offset < theirs.count else {
                        return TraceDivergence(
                            kind: "frame-hash", recordedIndex: frame.index, replayIndex: theirs.last?.index,
                            message:
                                "screen \(screen) showed \(theirs.count) pictures in the replay, \(mine.count) in the recording; the first missing: \(TraceFile.describe(frame.line))"
                        )
                    }
                    let other = theirs[offset]
                    if frame.line["hash"] != other.line["hash"] {
                        return TraceDivergence(
                            kind: "frame-hash", recordedIndex: frame.index, replayIndex: other.index,
                            message:
                                "screen \(screen), picture \(offset + 1): recorded hash \(frame.line["hash"]?.stringValue ?? "?") at #\(frame.line["sequence"]?.intValue ?? 0), replayed \(other.line["hash"]?.stringValue ?? "?") at #\(other.line["sequence"]?.intValue ?? 0)"
                        )
                    }
                }
                if theirs.count > mine.count {
                    return TraceDivergence(
                        kind: "frame-hash", recordedIndex: mine.last?.index, replayIndex: theirs[mine.count].index,
                        message:
                            "screen \(screen) showed \(theirs.count) pictures in the replay, \(mine.count) in the recording"
                    )
                }
            } else if let last = recordedFrames[screen]?.last {
                // The last frame line itself (the `final` one, whose picture a trace keeps), not
                // the first of its repeats.
                guard let other = replayFrames[screen]?.last else {
                    return TraceDivergence(
                        kind: "frame-hash", recordedIndex: last.index, replayIndex: nil,
                        message: "screen \(screen) presented no frame in the replay")
                }
                if last.line["hash"] != other.line["hash"], !acceptsLastPicture(screen, last.line, other.line) {
                    return TraceDivergence(
                        kind: "frame-hash", recordedIndex: last.index, replayIndex: other.index,
                        message:
                            "screen \(screen)'s last picture: recorded hash \(last.line["hash"]?.stringValue ?? "?"), replayed \(other.line["hash"]?.stringValue ?? "?")"
                    )
                }
            }
        }
        return nil
    }

    /// The frames that showed a new picture (a frame repainting the same pixels is left out:
    /// how many frames a client's redraws take depends on when its commits land between steps).
    private static func distinct(_ frames: [(index: Int, line: JSONValue)]) -> [(index: Int, line: JSONValue)] {
        var result: [(index: Int, line: JSONValue)] = []
        for frame in frames where result.last?.line["hash"] != frame.line["hash"] { result.append(frame) }
        return result
    }

    private static func framesByScreen(_ trace: TraceFile) -> [Int: [(index: Int, line: JSONValue)]] {
        var result: [Int: [(index: Int, line: JSONValue)]] = [:]
        for entry in trace.lines(ofType: .frame) {
            // Frames painted between two hashes carry none (realtime clock).
            guard let screen = entry.line["screen"]?.intValue, entry.line["hash"] != nil else { continue }
            result[screen, default: []].append(entry)
        }
        return result
    }

    /// The lines around `index` (frames left out), described, for a divergence report.
    public static func context(of trace: TraceFile, around index: Int?, radius: Int = 4) -> [String] {
        guard let index else { return [] }
        // Frames, window lists, screen states and the commands that only read (windows, sync,
        // events…) are left out.
        let candidates = trace.lines.indices.filter { i in
            let line = trace.lines[i]
            switch line["type"]?.stringValue {
            case "frame", "windows", "screen", "image": return i == index
            case "command":
                return i == index
                    || TraceFormat.replayedCommands.contains(line["request"]?["command"]?.stringValue ?? "")
            default: return true
            }
        }
        guard let position = candidates.firstIndex(where: { $0 >= index }) else { return [] }
        let range = max(0, position - radius)..<min(candidates.count, position + radius + 1)
        return range.map { i in
            let line = candidates[i]
            return (line == index ? "> " : "  ") + TraceFile.describe(trace.lines[line])
        }
    }
}
