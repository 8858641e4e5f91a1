import StrataControlProtocol

/// What drives a replay: the recorded command, run again, or the recorded control requests,
/// never both (docs/experiments.md, "Replay and diff", "Each client once").
///
/// From the `origin` of the trace's lines (`TraceOrigin`): when the command's tree made no
/// Wayland client and no window of its own (each `client connect` and windowDidOpen came from an
/// `exec`'d process or from outside), the **requests** drive: the command is not run, and the
/// requests it sent (`strata-ctl run`, `strata-ctl exec` from a script) are replayed. Otherwise
/// the **command** drives: it runs again and sends its requests again, so those of origin
/// `command` are not replayed. Requests of origin `exec` are never replayed (the `exec`'d
/// process runs again either way and sends them itself); those of origin `outside` always are.
/// A line the choice or a replayed request depends on whose origin is `unknown` or missing (a
/// trace of an older Strata) leaves it undecided (`Undecided`, naming the line), unless the
/// user chose (`forced`): then such requests are replayed.
public struct ReplayDriver: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case command
        case requests
    }

    public let kind: Kind
    /// The header's command when it is run again (the `command` driver), else nil.
    public let command: [String]?
    /// Why this driver, in one line.
    public let reason: String
    /// The origin of each line the choice and the replayed requests depend on
    /// (`line N (<the line described>): origin <origin>`), for `--verbose`.
    public let details: [String]
    /// The indices (in `TraceFile.lines`) of the `command` lines not replayed.
    public let skipped: Set<Int>

    /// Why the replay cannot choose by itself.
    public struct Undecided: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Whether the `command` line at `index` is replayed (the caller still replays only the
    /// commands that change something, `TraceFormat.replayedCommands`).
    public func replays(line index: Int) -> Bool { !skipped.contains(index) }

    public init(trace: TraceFile, forced: Kind? = nil) throws(Undecided) {
        let header = trace.header["command"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let command = header.isEmpty ? nil : header
        var details: [String] = []
        func origin(_ line: JSONValue) -> TraceOrigin? {
            line["origin"]?.stringValue.flatMap(TraceOrigin.init(rawValue:))
        }
        func name(_ index: Int) -> String { "line \(index + 1) (\(TraceFile.describe(trace.lines[index])))" }
        func said(_ origin: TraceOrigin?) -> String { origin.map { "origin \($0.rawValue)" } ?? "no origin" }

        // Each client connection of another process, and each window that opened.
        var makers: [(index: Int, origin: TraceOrigin?)] = []
        for (index, line) in trace.lines.enumerated() {
            let isClient = line["type"] == "client" && line["event"] == "connect" && line["pid"] != nil
            let isWindow = line["type"] == "event" && line["name"] == "windowDidOpen"
            guard isClient || isWindow, origin(line) != .strata else { continue }
            makers.append((index, origin(line)))
            details.append("\(name(index)): \(said(origin(line)))")
        }
        let kind: Kind, reason: String
        if let forced {
            guard forced == .requests || command != nil else {
                throw Undecided(description: "--driver command: the trace has no command (its header names none)")
            }
            kind = forced
            reason = "--driver \(forced.rawValue) (the user's choice)"
        } else if command == nil {
            kind = .requests
            reason = "the trace has no command: its requests drive"
        } else if let first = makers.first(where: { $0.origin == .command }) {
            kind = .command
            reason =
                "the command's tree made a client or window of its own, line \(first.index + 1): "
                + "\(TraceFile.describe(trace.lines[first.index])); the command drives, and the requests its tree sent are not replayed"
        } else if let first = makers.first(where: { $0.origin != .exec && $0.origin != .outside }) {
            throw Undecided(
                description:
                    "cannot tell whether the command or its requests drive the replay: \(name(first.index)) has "
                    + "\(said(first.origin)) (a trace of an older Strata, or a process gone before it was seen); "
                    + "pass --driver command or --driver requests")
        } else {
            kind = .requests
            let windows = makers.filter { trace.lines[$0.index]["type"] == "event" }.count
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            reason =
                "the command's tree made no client and no window of its own (\(count(makers.count - windows, "client")) and "
                + "\(count(windows, "window")) came from exec'd processes or outside): its requests drive, the command is not run"
        }

        var skipped: Set<Int> = []
        for (index, line) in trace.lines.enumerated() where line["type"] == "command" {
            guard let request = line["request"]?["command"]?.stringValue, TraceFormat.replayedCommands.contains(request)
            else { continue }
            let from = origin(line)
            details.append("\(name(index)): \(said(from))")
            switch from {
            case .exec?: skipped.insert(index)
            case .command? where kind == .command: skipped.insert(index)
            case .command?, .outside?: break
            default:
                guard forced == nil else { break }
                throw Undecided(
                    description: "cannot tell whether \(name(index)) is sent again by a process the replay runs: "
                        + "it has \(said(from)) (a trace of an older Strata, or a peer gone before it was seen); "
                        + (command == nil
                            ? "pass --driver requests to replay it" : "pass --driver command or --driver requests"))
            }
        }
        self.kind = kind
        self.command = kind == .command ? command : nil
        self.reason = reason
        self.details = details
        self.skipped = skipped
    }
}
