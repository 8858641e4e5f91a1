import StrataControlProtocol
import StrataServer

/// A key with modifiers, as the control socket's `key` command names it: modifier names and a
/// key joined by `+` (`ctrl+shift+t`, `altgr+q`, `super+Return`, `ctrl++`), or a key alone.
/// The key is a keysym name (`Seat.keysym(named:)`: `t`, `Return`, `at`, `EuroSign`;
/// case-insensitive when unambiguous) or a single character (`@`, `€`).
struct KeyChord: Equatable {
    /// The modifier keys (evdev codes), in the order named.
    var modifiers: [UInt32]
    var keysym: UInt32
    /// The key as named.
    var keyName: String

    /// Modifier names and their keys (evdev codes): the left ones, AltGr the right Alt.
    static let modifierKeys: [String: UInt32] = [
        "ctrl": 29, "control": 29, "shift": 42, "alt": 56, "super": 125, "logo": 125, "meta": 125, "win": 125,
        "altgr": KeyStroke.rightAlt,
    ]

    init(parsing text: String) throws(ControlError) {
        guard !text.isEmpty, text.utf8.count <= 256 else {
            throw ControlError(.invalidArgument, "a key name is 1 to 256 bytes")
        }
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // A trailing "+" is the plus key itself (ctrl++).
        if parts.count >= 2, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("plus")
        }
        let name = parts.removeLast()
        guard !name.isEmpty else {
            throw ControlError(.invalidArgument, "\"\(text)\" names no key after its modifiers")
        }
        var modifiers: [UInt32] = []
        for part in parts {
            guard let key = Self.modifierKeys[part.lowercased()] else {
                throw ControlError(
                    .invalidArgument, "\"\(part)\" is not a modifier: use ctrl, shift, alt, super (logo, meta) or altgr"
                )
            }
            if !modifiers.contains(key) { modifiers.append(key) }
        }
        let scalars = name.unicodeScalars
        if let keysym = Seat.keysym(named: name) {
            self.keysym = keysym
        } else if scalars.count == 1, let scalar = scalars.first, let keysym = Seat.keysym(for: scalar) {
            self.keysym = keysym
        } else {
            throw ControlError(
                .invalidArgument,
                "\"\(name)\" is not a keysym name (a, Return, F1, at, EuroSign…; xkbcommon-keysyms.h without XKB_KEY_) nor one character"
            )
        }
        self.modifiers = modifiers
        keyName = name
    }
}
