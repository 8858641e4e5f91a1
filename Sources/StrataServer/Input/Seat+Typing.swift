import CXKBCommon

/// Typing text and key chords on the seat's keymap (the control socket's `type` and `key`;
/// docs/seat.md, "Typing"). Each keysym is typed on the key and level that give it, with that
/// level's modifier keys pressed around it; keysyms the keymap lacks through its extension.
extension Seat {
    /// The keysym that types `character`: newline and carriage return are Return, tab is Tab,
    /// backspace BackSpace, escape Escape, delete Delete; other control characters (NUL, C0, C1)
    /// and non-characters have none (nil).
    public static func keysym(for character: Unicode.Scalar) -> UInt32? {
        switch character.value {
        case 0x0a, 0x0d: return 0xff0d  // Return
        case 0x09: return 0xff09  // Tab
        case 0x08: return 0xff08  // BackSpace
        case 0x1b: return 0xff1b  // Escape
        case 0x7f: return 0xffff  // Delete
        case 0x00..<0x20, 0x80..<0xa0: return nil
        default:
            let keysym = xkb_utf32_to_keysym(character.value)
            return keysym == 0 ? nil : keysym
        }
    }

    /// How typing stopped early.
    public enum TypingFailure: Error, Equatable {
        /// The seat has no keymap (no XKB data).
        case noKeymap
        /// The keysym at this index could not be typed: the keymap lacks it and could not be
        /// extended for it.
        case cannotType(index: Int, keysym: UInt32)
    }

    /// Types `keysyms` in order, each a press and release of its key with the modifiers its
    /// level needs; keysyms the keymap lacks are bound first in an extension (clients get the
    /// extended keymap before their keys). Returns how many were typed, or why it stopped.
    @discardableResult
    public func type(keysyms: [UInt32], time: UInt32) -> Result<Int, TypingFailure> {
        guard keyboard.keymap != nil else { return .failure(.noKeymap) }
        for index in keysyms.indices {
            guard let stroke = stroke(typing: keysyms, at: index) else {
                return .failure(.cannotType(index: index, keysym: keysyms[index]))
            }
            press(stroke, holding: [], time: time)
        }
        return .success(keysyms.count)
    }

    /// Presses the modifier keys `modifiers` (evdev codes, in order), then the key of `keysym`
    /// (with the modifiers its level needs besides those), and releases them in reverse order.
    /// The key is the one that types the keysym before the modifiers are pressed (ctrl+shift+t
    /// is Control, Shift and the t key). Returns the key, or nil when it cannot be typed.
    @discardableResult
    public func chord(modifiers: [UInt32], keysym: UInt32, time: UInt32) -> KeyStroke? {
        guard keyboard.keymap != nil, let stroke = stroke(typing: [keysym], at: 0) else { return nil }
        press(stroke, holding: modifiers, time: time)
        return stroke
    }

    /// The key that types `keysym`, the keymap extended for it when no key has it (clients get
    /// the extended keymap); nil when it cannot be.
    public func keyStrokeExtendingKeymap(forKeysym keysym: UInt32) -> KeyStroke? {
        stroke(typing: [keysym], at: 0)
    }

    /// The key for `keysyms[index]`; when the keymap lacks it (on keys X can carry), the keymap
    /// is extended with it and the next keysyms it lacks (as many as an extension binds), and
    /// clients get the extended keymap; when it cannot be extended, a key beyond X's range
    /// that has it, if any.
    func stroke(typing keysyms: [UInt32], at index: Int) -> KeyStroke? {
        guard let keymap = keyboard.keymap else { return nil }
        let keysym = keysyms[index]
        guard keysym != 0 else { return nil }
        if let stroke = keymap.keyStroke(for: keysym) { return stroke }
        let capacity = keymap.extensionCapacity
        guard capacity > 0, let compiled = keymap.compile() else {
            return keymap.keyStroke(for: keysym, anyKeycode: true)
        }
        var wanted: [UInt32] = [keysym]
        var considered: Set<UInt32> = [keysym]
        for next in keysyms[(index + 1)...]
        where wanted.count < capacity && next != 0 && considered.insert(next).inserted {
            if keymap.baseKeyStroke(for: next, compiled) == nil { wanted.append(next) }
        }
        guard keymap.extend(with: wanted) else { return keymap.keyStroke(for: keysym, anyKeycode: true) }
        keyboard.keymapTextDidChange()
        return keymap.keyStroke(for: keysym)
    }

    /// Presses `holding`, then the stroke's own modifiers not among them, then its key; then
    /// releases all in reverse order. Keys already held stay as they are.
    private func press(_ stroke: KeyStroke, holding: [UInt32], time: UInt32) {
        var modifiers: [UInt32] = []
        for key in holding + stroke.modifiers
        where key != stroke.keycode && !modifiers.contains(key) && !keyboard.pressedKeys.contains(key) {
            modifiers.append(key)
        }
        for key in modifiers { self.key(key, pressed: true, time: time) }
        let wasHeld = keyboard.pressedKeys.contains(stroke.keycode)
        if wasHeld { self.key(stroke.keycode, pressed: false, time: time) }
        self.key(stroke.keycode, pressed: true, time: time)
        self.key(stroke.keycode, pressed: false, time: time)
        for key in modifiers.reversed() { self.key(key, pressed: false, time: time) }
    }
}
