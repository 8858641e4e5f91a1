import StrataModel

/// What a locator asks for (`strata-ctl find --role R --name N …`): each given part must hold.
/// Pure: it judges what an element says of itself, so it is tested without a bus.
public struct AccessibleQuery: Equatable, Sendable {
    /// The role, in any case, with spaces or dashes (`push button`, `push-button`); `button`
    /// also names `push button` and `toggle button`, `entry` names `text` (GTK 3's entries),
    /// as test authors say them.
    public var role: String?
    /// The accessible name, exactly.
    public var name: String?
    /// The accessible name, where `*` matches any run of characters.
    public var nameGlob: String?
    /// Text the element's text holds (an entry's contents, a label's).
    public var text: String?

    public init(role: String? = nil, name: String? = nil, nameGlob: String? = nil, text: String? = nil) {
        self.role = role
        self.name = name
        self.nameGlob = nameGlob
        self.text = text
    }

    /// Whether an element of `role` called `name` matches; `text` is read only when the query
    /// asks for text (it costs a call to the client), so it is a closure.
    public func matches(role: String, name: String, text: () -> String?) -> Bool {
        if let wanted = self.role, !Self.roleMatches(wanted, role) { return false }
        if let wanted = self.name, wanted != name { return false }
        if let pattern = nameGlob, !Glob.matches(pattern, name) { return false }
        if let wanted = self.text {
            guard let text = text(), text.contains(wanted) else { return false }
        }
        return true
    }

    static func normalized(_ role: String) -> String {
        String(role.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 })
    }

    static func roleMatches(_ wanted: String, _ role: String) -> Bool {
        let wanted = normalized(wanted), role = normalized(role)
        if wanted == role { return true }
        switch wanted {
        case "button": return role == "push button" || role == "toggle button"
        case "entry": return role == "text" || role == "entry" || role == "password text"
        default: return false
        }
    }
}
