import CXKBCommon

/// Finding the key that types a keysym (docs/seat.md, "Typing").
extension Keymap {
    /// The keys tried first for each modifier (xkb keycodes): left Shift, left Control, left
    /// Alt, left Super, right Alt (AltGr on layouts with a third level), then every other key.
    private static let preferredModifierKeys: [UInt32] = [50, 37, 64, 133, 108]

    /// For each modifier bit, a key that sets that modifier alone while held and leaves nothing
    /// latched or locked behind (Shift_L for Shift, ISO_Level3_Shift for Mod5 under `de`…).
    func modifierKeyTable(_ compiled: Compiled) -> [UInt32: UInt32] {
        if let modifierKeys { return modifierKeys }
        var table: [UInt32: UInt32] = [:]
        let low = xkb_keymap_min_keycode(compiled.keymap), high = xkb_keymap_max_keycode(compiled.keymap)
        // Keycodes below 8 have no evdev code; a keymap may start above 255 (a parent's text).
        let all = max(low, 8) <= min(high, 255) ? Array(max(low, 8)...min(high, 255)) : []
        for keycode in Self.preferredModifierKeys + all where (low...max(low, high)).contains(keycode) {
            let scratch = compiled.scratch
            _ = xkb_state_update_mask(scratch, 0, 0, 0, 0, 0, 0)
            _ = xkb_state_update_key(scratch, keycode, XKB_KEY_DOWN)
            let held = xkb_state_serialize_mods(scratch, XKB_STATE_MODS_DEPRESSED)
            _ = xkb_state_update_key(scratch, keycode, XKB_KEY_UP)
            let after = xkb_state_serialize_mods(scratch, XKB_STATE_MODS_EFFECTIVE)
            _ = xkb_state_update_mask(scratch, 0, 0, 0, 0, 0, 0)
            guard after == 0, held != 0, held & (held - 1) == 0 else { continue }
            let bit = UInt32(held.trailingZeroBitCount)
            if table[bit] == nil { table[bit] = keycode }
        }
        modifierKeys = table
        return table
    }

    /// The key that types `keysym` now: a key of the extension, else on the keymap's own keys
    /// (those X can carry, up to keycode 255, unless `anyKeycode`), any level of the effective
    /// layout whose modifiers can be pressed and give exactly that keysym with the modifiers
    /// held, locked or latched now (fewest modifier keys first, then the lowest keycode and
    /// level). nil when none has it.
    func keyStroke(for keysym: UInt32, anyKeycode: Bool = false) -> KeyStroke? {
        guard keysym != 0, let compiled = compile() else { return nil }
        if let keycode = extraKeys[keysym] { return KeyStroke(keycode: keycode - 8) }
        return baseKeyStroke(for: keysym, compiled, anyKeycode: anyKeycode)
    }

    /// Whether some key, level and layout of the base keymap has `keysym`.
    func baseHas(_ keysym: UInt32, _ compiled: Compiled) -> Bool {
        if let baseKeysyms { return baseKeysyms.contains(keysym) }
        var all: Set<UInt32> = []
        let keymap = compiled.keymap
        let low = xkb_keymap_min_keycode(keymap), high = xkb_keymap_max_keycode(keymap)
        if low <= high {
            for keycode in low...high {
                for layout in 0..<xkb_keymap_num_layouts_for_key(keymap, keycode) {
                    for level in 0..<xkb_keymap_num_levels_for_key(keymap, keycode, layout) {
                        var syms: UnsafePointer<xkb_keysym_t>?
                        let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &syms)
                        if count > 0, let syms { for i in 0..<Int(count) { all.insert(syms[i]) } }
                    }
                }
            }
        }
        baseKeysyms = all
        return all.contains(keysym)
    }

    /// The keymap's own key for `keysym` (see `keyStroke(for:)`), without the extension.
    func baseKeyStroke(for keysym: UInt32, _ compiled: Compiled, anyKeycode: Bool = false) -> KeyStroke? {
        guard baseHas(keysym, compiled) else { return nil }
        let keymap = compiled.keymap, state = compiled.state, scratch = compiled.scratch
        let now = modifiers
        let active = now.depressed | now.latched | now.locked
        let modifierKeys = modifierKeyTable(compiled)
        let low = xkb_keymap_min_keycode(keymap),
            high = anyKeycode ? xkb_keymap_max_keycode(keymap) : min(xkb_keymap_max_keycode(keymap), 255)
        guard low >= 8, low <= high else { return nil }
        defer { _ = xkb_state_update_mask(scratch, 0, 0, 0, 0, 0, 0) }
        var best: KeyStroke?
        var masks = [xkb_mod_mask_t](repeating: 0, count: 16)
        let shiftIndex = xkb_keymap_mod_get_index(keymap, XKB_MOD_NAME_SHIFT)
        let shift: xkb_mod_mask_t? = shiftIndex < 32 && now.locked != 0 ? 1 << shiftIndex : nil
        for keycode in low...high {
            let layout = xkb_state_key_get_layout(state, keycode)
            guard layout != XKB_LAYOUT_INVALID else { continue }
            let levels = xkb_keymap_num_levels_for_key(keymap, keycode, layout)
            for level in 0..<levels {
                var syms: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &syms)
                guard count == 1, let syms, syms[0] == keysym else { continue }
                let maskCount = xkb_keymap_key_get_mods_for_level(keymap, keycode, layout, level, &masks, masks.count)
                // Each mask, and each with Shift too: with Caps Lock locked, Shift gives the
                // first level of a letter back (Shift+Lock, which the type does not list).
                let candidates =
                    masks.prefix(maskCount) + (shift.map { bit in masks.prefix(maskCount).map { $0 | bit } } ?? [])
                for mask in candidates {
                    let missing = mask & ~active
                    var keys: [UInt32] = []
                    var pressable = true
                    for bit in 0..<UInt32(32) where missing & (1 << bit) != 0 {
                        guard let key = modifierKeys[bit] else {
                            pressable = false
                            break
                        }
                        keys.append(key - 8)
                    }
                    guard pressable, best.map({ keys.count < $0.modifiers.count }) ?? true else { continue }
                    // With those keys held too, does the key give exactly this keysym?
                    _ = xkb_state_update_mask(
                        scratch, now.depressed | missing, now.latched, now.locked, 0, 0, now.group)
                    guard xkb_state_key_get_one_sym(scratch, keycode) == keysym else { continue }
                    let stroke = KeyStroke(keycode: keycode - 8, modifiers: keys)
                    if keys.isEmpty { return stroke }
                    best = stroke
                }
            }
        }
        return best
    }
}
