import StrataModel

/// How a control command names a window (docs/control.md, "Naming a window"): the one rule the
/// server applies to every command that takes a window, and `strata-ctl run` to its expectations.
///
/// Read in this order:
/// - a whole number (a JSON number, or a string of digits) is the window's id;
/// - `title:TEXT` names the window whose title is TEXT exactly, where `*` stands for any run of
///   characters (`title:*Mozilla Firefox`);
/// - `pid:N` names the window of process N;
/// - `app:ID`, and any other text, names the window whose app id is ID, compared without regard
///   to case (`gtk3-demo` finds an X11 window of class `Gtk3-demo`). When windows differ only
///   in case, the one spelled exactly wins.
///
/// A selector that names no window, or several, is an error that lists the candidates.
public enum WindowSelector: Equatable, Sendable, CustomStringConvertible {
    case id(UInt64)
    case title(String)
    case pid(Int32)
    case appID(String)

    /// The forms, for messages.
    public static let forms = "an id, title:TEXT (* matches any characters), pid:N, or an app id (any case)"

    /// Reads a selector from a command line word or a request's string.
    public init(_ text: String) throws(ControlError) {
        if let id = UInt64(text) {
            self = .id(id)
        } else if text.hasPrefix("title:") {
            let pattern = String(text.dropFirst("title:".count))
            guard pattern.utf8.count <= Self.maximumPatternBytes else {
                throw ControlError(.invalidArgument, "a title: pattern is at most \(Self.maximumPatternBytes) bytes")
            }
            self = .title(pattern)
        } else if text.hasPrefix("pid:") {
            let number = text.dropFirst("pid:".count)
            guard let pid = Int32(number), pid > 0 else {
                throw ControlError(.invalidArgument, "\"\(text)\": pid: takes a process id (a whole number above 0)")
            }
            self = .pid(pid)
        } else if text.hasPrefix("app:") {
            let appID = String(text.dropFirst("app:".count))
            guard !appID.isEmpty else { throw ControlError(.invalidArgument, "\"app:\" needs an app id after it") }
            self = .appID(appID)
        } else {
            guard !text.isEmpty else {
                throw ControlError(.invalidArgument, "an empty name names no window: use \(Self.forms)")
            }
            self = .appID(text)
        }
    }

    /// Reads a request's window argument `name`: a number (an id) or a string.
    public init(_ value: JSONValue, argument name: String = "window") throws(ControlError) {
        if let number = value.intValue {
            // No window has an id of 0 or below; such a number names none (unknown_window).
            self = .id(number > 0 ? UInt64(number) : 0)
        } else if let text = value.stringValue {
            try self.init(text)
        } else {
            throw ControlError(.invalidArgument, "\"\(name)\" must be \(Self.forms), not \(value.typeName)")
        }
    }

    public var description: String {
        switch self {
        case .id(let id): return "id \(id)"
        case .title(let pattern): return "title \(Self.quoted(pattern))"
        case .pid(let pid): return "pid \(pid)"
        case .appID(let appID): return "app id \(Self.quoted(appID)) (in any case)"
        }
    }

    /// Whether `window` answers to this selector (an app id in any case).
    public func matches(_ window: some SelectableWindow) -> Bool {
        switch self {
        case .id(let id): return window.selectableID == id
        case .title(let pattern): return Glob.matches(pattern, window.title)
        case .pid(let pid): return window.pid == pid
        case .appID(let appID): return AppIDMatch.matches(appID, window.appID)
        }
    }

    /// The windows of `windows` this selector names, in their order; for an app id, the exact
    /// spelling's windows when there are some.
    public func matching<Candidate: SelectableWindow>(_ windows: [Candidate]) -> [Candidate] {
        let found = windows.filter(matches)
        if case .appID(let appID) = self, found.count > 1 {
            let exact = found.filter { $0.appID == appID }
            if !exact.isEmpty { return exact }
        }
        return found
    }

    /// The one window of `windows` this selector names; an error listing the candidates when it
    /// names none (`unknown_window`: every window) or several (`ambiguous_window`: those).
    public func resolve<Candidate: SelectableWindow>(in windows: [Candidate]) throws(ControlError) -> Candidate {
        let found = matching(windows)
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            let open = windows.isEmpty ? "no window is open" : "the open windows: \(Self.list(windows))"
            let what =
                if case .id = self { "no open window has \(description)" } else { "no window has \(description)" }
            throw ControlError(.unknownWindow, "\(what); \(open)")
        }
        throw ControlError(
            .ambiguousWindow,
            "\(found.count) windows have \(description): \(Self.list(found)); name one by its id, title: or pid:")
    }

    // MARK: Messages

    /// The most candidates a message lists.
    public static let listedCandidates = 20

    /// `id 3 (app "foot", title "~", pid 812)`, … by id, at most `listedCandidates`.
    public static func list<Candidate: SelectableWindow>(_ windows: [Candidate]) -> String {
        let sorted = windows.sorted { $0.selectableID < $1.selectableID }
        var parts = sorted.prefix(listedCandidates).map { window in
            "id \(window.selectableID) (app \(quoted(window.appID)), title \(quoted(window.title)), pid \(window.pid))"
        }
        if sorted.count > listedCandidates { parts.append("and \(sorted.count - listedCandidates) more") }
        return parts.joined(separator: ", ")
    }

    /// Text in double quotes, cut at 80 characters (a title may be long).
    static func quoted(_ text: String) -> String {
        text.count > 80 ? "\"\(text.prefix(79))…\"" : "\"\(text)\""
    }

    /// The longest `title:` pattern, in bytes (a control line's word, not a document).
    public static let maximumPatternBytes = 1024
}

/// What a `WindowSelector` looks at: the model's `Window` on the server, `WindowInfo` in
/// `strata-ctl`.
public protocol SelectableWindow {
    var selectableID: UInt64 { get }
    var appID: String { get }
    var title: String { get }
    var pid: Int32 { get }
}

extension Window: SelectableWindow {
    public var selectableID: UInt64 { id.rawValue }
}

extension WindowInfo: SelectableWindow {
    public var selectableID: UInt64 { id }
}
