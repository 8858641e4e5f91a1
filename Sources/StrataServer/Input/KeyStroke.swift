/// How to type one keysym on the seat's keymap: an evdev key code, and the modifier keys (evdev
/// codes, pressed in order before it and released in reverse after it) that select the level
/// with that keysym. The control socket's `key` and `type` commands turn names and text into
/// these (`Seat.keyStroke(forKeysymNamed:)`, `Seat.type(_:time:)`; docs/seat.md, "Typing").
public struct KeyStroke: Equatable, Sendable {
    /// The Linux evdev code (the xkb keycode minus 8).
    public var keycode: UInt32
    /// Modifier keys (evdev codes) to hold around the key: Shift, AltGr…; empty for level 1.
    public var modifiers: [UInt32]

    public init(keycode: UInt32, modifiers: [UInt32] = []) {
        self.keycode = keycode
        self.modifiers = modifiers
    }

    public init(keycode: UInt32, needsShift: Bool) {
        self.init(keycode: keycode, modifiers: needsShift ? [Self.leftShift] : [])
    }

    /// Whether Shift is among the modifiers.
    public var needsShift: Bool { modifiers.contains(Self.leftShift) }

    /// KEY_LEFTSHIFT.
    public static let leftShift: UInt32 = 42
    /// KEY_RIGHTALT (AltGr: ISO_Level3_Shift on most layouts).
    public static let rightAlt: UInt32 = 100
}
