/// How to type one keysym on the seat's keymap: an evdev key code, pressed with Shift or not.
/// The control socket's `key` and `type` commands turn names and text into these
/// (`Seat.keyStroke(forKeysymNamed:)`, `Seat.keyStroke(for:)`).
public struct KeyStroke: Equatable, Sendable {
    /// The Linux evdev code (the xkb keycode minus 8).
    public var keycode: UInt32
    /// Whether the keysym is on the key's Shift level.
    public var needsShift: Bool

    public init(keycode: UInt32, needsShift: Bool) {
        self.keycode = keycode
        self.needsShift = needsShift
    }

    /// KEY_LEFTSHIFT, pressed around strokes that need Shift.
    public static let leftShift: UInt32 = 42
}
