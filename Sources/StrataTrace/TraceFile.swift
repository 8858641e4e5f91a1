import FoundationEssentials
import Glibc
import StrataControlProtocol

/// A trace read back (`strata-ctl replay`, `strata-ctl report`): every line parsed and checked,
/// the header's version known. Bad input is a `Failure` naming the line.
public struct TraceFile: Sendable {
    public let name: String
    /// Every line, the header first.
    public let lines: [JSONValue]
    public var header: JSONValue { lines[0] }
    /// Whether the trace has its `end` line (a trace without one was cut short: Strata was
    /// killed, or the file is still being written).
    public var isComplete: Bool { lines.last?["type"] == "end" }
    public var clock: String { header["clock"]?.stringValue ?? "realtime" }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The largest trace read (a trace is capped when written; 1 GiB is far past any).
    public static let maximumBytes = 1 << 30

    public init(path: String) throws(Failure) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Failure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure("cannot read \(path): not a regular file") }
        guard Int(info.st_size) <= Self.maximumBytes else {
            throw Failure("\(path) is larger than \(Self.maximumBytes) bytes")
        }
        guard let bytes = FileContents.bytes(path, limit: Self.maximumBytes) else {
            throw Failure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        try self.init(data: Data(bytes), name: path)
    }

    public init(data: Data, name: String) throws(Failure) {
        self.name = name
        guard !data.isEmpty else { throw Failure("\(name) is empty: not a Strata trace") }
        var parsed: [JSONValue] = []
        let endsWithNewline = data.last == UInt8(ascii: "\n")
        let rows = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, row) in rows.enumerated() {
            let number = index + 1
            if row.isEmpty { continue }
            let value: JSONValue
            do {
                value = try JSONValue.parse(Data(row))
            } catch {
                let last = index == rows.count - 1 && !endsWithNewline
                throw Failure("\(name):\(number): not a JSON line\(last ? " (the trace is truncated)" : "")")
            }
            guard value.objectValue != nil, let type = value["type"]?.stringValue else {
                throw Failure("\(name):\(number): a trace line is a JSON object with a \"type\"")
            }
            if parsed.isEmpty {
                guard type == TraceFormat.LineType.header.rawValue else {
                    throw Failure(
                        "\(name):\(number): a trace starts with its header line, not \"\(type)\": not a Strata trace")
                }
                guard let version = value["version"]?.intValue else {
                    throw Failure("\(name):\(number): the header has no version")
                }
                guard version == TraceFormat.version else {
                    throw Failure(
                        "\(name): trace version \(version); this strata-ctl reads version \(TraceFormat.version)")
                }
            }
            parsed.append(value)
        }
        guard !parsed.isEmpty else { throw Failure("\(name) holds no lines: not a Strata trace") }
        lines = parsed
    }

    /// The lines of one type, with their indices in `lines`.
    public func lines(ofType type: TraceFormat.LineType) -> [(index: Int, line: JSONValue)] {
        lines.enumerated().filter { $0.element["type"]?.stringValue == type.rawValue }.map { ($0.offset, $0.element) }
    }

    /// One line as a person reads it: `#12 windowDidBecomeKey window=3`, `command hide window=a → ok`.
    public static func describe(_ line: JSONValue) -> String {
        let sequence = line["sequence"]?.intValue.map { "#\($0)" } ?? "#?"
        switch line["type"]?.stringValue ?? "" {
        case "event":
            return describeEvent(line)
        case "command":
            let request = line["request"]
            let arguments = (request?.objectValue ?? [:]).filter { !["id", "command"].contains($0.key) }
                .sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
            // A reply sent later (`settle`, `events --follow`) is not in the line: null.
            let reply = line["reply"]
            let outcome =
                reply == nil || reply == .null
                ? "(replied later)"
                : reply?["ok"] == true ? "ok" : "error \(reply?["error"]?["code"]?.stringValue ?? "?")"
            return ([sequence, "command", request?["command"]?.stringValue ?? "?"] + arguments).joined(separator: " ")
                + " → " + outcome
        case "input":
            let fields = (line.objectValue ?? [:]).filter {
                !["sequence", "input", "type", "time_ns", "time_ms"].contains($0.key)
            }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
            return ([sequence, "input", line["input"]?.stringValue ?? "?"] + fields).joined(separator: " ")
        case "frame":
            return
                "\(sequence) frame screen=\(line["screen"]?.intValue ?? 0) n=\(line["frame"]?.intValue ?? 0) hash=\(line["hash"]?.stringValue ?? "?")"
        case "client":
            let fields = (line.objectValue ?? [:]).filter { !["sequence", "type", "time_ns"].contains($0.key) }
                .sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
            return ([sequence, "client"] + fields).joined(separator: " ")
        case let other:
            return "\(sequence) \(other)"
        }
    }

    /// The cause's fields, in the order an event's description shows them (`requested_ns` is
    /// left out of descriptions).
    public static let causeKeys = ["cause", "request", "requester", "decided_by"]

    /// A model event (a trace's `event` line, or one from the control socket's `events`) in words:
    /// `#9 windowDidBecomeKey window=2 cause=click request="pointer-button 272" requester=user
    /// decided_by=uikit`: its sequence and name, the notification's fields by name, then its cause.
    public static func describeEvent(_ line: JSONValue) -> String {
        let sequence = line["sequence"]?.intValue.map { "#\($0)" } ?? "#?"
        let hidden: Set<String> = ["sequence", "name", "type", "time_ns", "requested_ns"]
        let all = line.objectValue ?? [:]
        let fields = all.filter { !hidden.contains($0.key) && !causeKeys.contains($0.key) }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }
        let cause = causeKeys.compactMap { key in
            all[key].map { value in
                let words = text(value)
                return words.contains(" ") ? "\(key)=\"\(words)\"" : "\(key)=\(words)"
            }
        }
        return ([sequence, line["name"]?.stringValue ?? "?"] + fields + cause).joined(separator: " ")
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .number: return value.intValue.map(String.init) ?? "\(value.doubleValue ?? 0)"
        case .bool(let b): return b ? "true" : "false"
        case .object(let o) where o["x"] != nil && o["width"] != nil:
            return
                "\(o["x"]?.intValue ?? 0),\(o["y"]?.intValue ?? 0),\(o["width"]?.intValue ?? 0)x\(o["height"]?.intValue ?? 0)"
        case .array(let items): return items.map(text).joined(separator: " ")
        default: return String(decoding: value.encodedLine(), as: UTF8.self)
        }
    }
}
