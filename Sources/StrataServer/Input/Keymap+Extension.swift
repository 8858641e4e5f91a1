import CXKBCommon
import Glibc

/// Keysyms no key of the keymap has, typed through spare keycodes (docs/seat.md, "Typing"):
/// an extended text, the base text with one extra key per keysym (one level, so no modifier
/// changes what it types), is served to clients instead of the base one. Spare keycodes are those
/// with no symbols in the base keymap, in the range X can carry (up to 255) when it has any, so
/// Xwayland's clients, which follow wl_keyboard.keymap, type them too. At most as many keysyms
/// as there are spare keycodes (and `maximumExtraKeys`) at a time: a new extension replaces the
/// previous one (whose keysyms were typed before it).
extension Keymap {
    /// The most keysyms one extension binds.
    static let maximumExtraKeys = 128

    /// How many keysyms an extension can bind on this keymap (0: none).
    var extensionCapacity: Int {
        guard let compiled = compile() else { return 0 }
        return min(spares(compiled).count, Self.maximumExtraKeys)
    }

    /// Keycodes without symbols and their names (nil: the keycodes section names no key there):
    /// those in X's range (8…255) when there are any (18 under `us`), so that Xwayland's clients
    /// type every extra keysym too; else those above it.
    func spares(_ compiled: Compiled) -> [(keycode: UInt32, name: String?)] {
        if let spareKeycodes { return spareKeycodes }
        let keymap = compiled.keymap
        let low = xkb_keymap_min_keycode(keymap), high = xkb_keymap_max_keycode(keymap)
        var spares: [(keycode: UInt32, name: String?)] = []
        // Keycodes below 8 have no evdev code; a keymap may start above 255 (a parent's text).
        let first = max(low, 8)
        if first <= high {
            let ranges = (first <= 255 ? [first...min(high, 255)] : []) + (high >= 256 ? [max(first, 256)...high] : [])
            for range in ranges where spares.isEmpty {
                for keycode in range where xkb_keymap_num_layouts_for_key(keymap, keycode) == 0 {
                    spares.append((keycode, xkb_keymap_key_get_name(keymap, keycode).map { String(cString: $0) }))
                }
            }
        }
        spareKeycodes = spares
        return spares
    }

    /// Serves a keymap with `keysyms` (at most `extensionCapacity`, none 0) bound to spare
    /// keycodes, replacing the previous extension. False (and nothing changed) when the
    /// extended text cannot be made: no spare keycodes, or it does not compile.
    func extend(with keysyms: [UInt32]) -> Bool {
        guard let compiled = compile(), !keysyms.contains(0), let base = baseText() else { return false }
        let spares = spares(compiled)
        guard keysyms.count <= min(spares.count, Self.maximumExtraKeys) else { return false }
        var names = "", symbols = ""
        var bound: [UInt32: UInt32] = [:]
        for (keysym, spare) in zip(keysyms, spares) {
            let name = spare.name ?? "Z\(spare.keycode)"
            if spare.name == nil { names += "\t<\(name)> = \(spare.keycode);\n" }
            symbols += "\tkey <\(name)> { [ 0x\(String(keysym, radix: 16)) ] };\n"
            bound[keysym] = spare.keycode
        }
        guard
            let text = Self.inserting(names, intoSection: "xkb_keycodes", of: base)
                .flatMap({ Self.inserting(symbols, intoSection: "xkb_symbols", of: $0) })
        else { return false }
        // The text must compile and give its keysyms, or every client would lose its keymap.
        guard let context = Self.newContext() else { return false }
        defer { xkb_context_unref(context) }
        guard
            let check = xkb_keymap_new_from_string(
                context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return false }
        let complete = bound.allSatisfy { keysym, keycode in
            var syms: UnsafePointer<xkb_keysym_t>?
            return xkb_keymap_key_get_syms_by_level(check, keycode, 0, 0, &syms) == 1 && syms?[0] == keysym
        }
        xkb_keymap_unref(check)
        guard complete, let memfd = Self.memfd(text) else { return false }
        serve(fd: memfd.0, size: memfd.1)
        extraKeys = bound
        return true
    }

    /// `lines` inserted after the opening brace of the section that starts with `section`.
    static func inserting(_ lines: String, intoSection section: String, of text: String) -> String? {
        guard !lines.isEmpty else { return text }
        // The keymap text has no NUL (xkbcommon wrote it; a cached one with a NUL is refused).
        let offset: Int? = text.withCString { base in
            ("\n" + section + " ").withCString { header -> Int? in
                guard let found = strstr(base, header), let brace = strchr(found, Int32(UInt8(ascii: "{"))) else {
                    return nil
                }
                return base.distance(to: brace) + 1
            }
        }
        guard let offset, offset <= text.utf8.count else { return nil }
        let split = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return String(text[..<split]) + "\n" + lines + String(text[split...])
    }
}
