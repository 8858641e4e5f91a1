import CStrataServerGlue
import CXKBCommon
import Glibc

/// The seat's xkbcommon keymap, from the default rule names (evdev, pc105, us, overridden by
/// XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS), its text in a sealed memfd shared by every
/// wl_keyboard, and the xkb_state that tracks the modifiers.
///
/// When the text comes from `KeymapCache` (checksummed: it is what the names compiled to on an
/// earlier run), clients get it at once and the keymap is compiled only when a key is fed or
/// looked up: parsing its 64 KB took 40 % of a start's instructions, and a client that never
/// gets a key never needs it (docs/performance.md, "Start-up").
final class Keymap {
    /// The compiled keymap and its state; nil until first needed (a keymap from the cache).
    private struct Compiled {
        let context: OpaquePointer
        let keymap: OpaquePointer
        let state: OpaquePointer
    }
    private var compiled: Compiled?
    /// The text did not compile when it was first needed: keys are then ignored.
    private var compileFailed = false
    /// A sealed (no write, grow or shrink) memfd with the keymap text and its final NUL.
    let fd: Int32
    let size: UInt32

    /// The keymap XKB's default names give (XKB_DEFAULT_* honoured; the text they gave last time
    /// when `cache` has it, compiled when first needed), or, with `text`, the keymap that text
    /// describes (a nested backend's parent keymap); nil when it does not compile.
    init?(text: String? = nil, cache: KeymapCache = .standard) {
        if text == nil, let cached = cache.load() {
            guard let fd = Self.memfd(cached) else { return nil }
            (self.fd, self.size) = fd
            return
        }
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        let keymap = text.map { xkb_keymap_new_from_string(context, $0, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) }
            ?? xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS)
        guard let keymap else {
            xkb_context_unref(context)
            return nil
        }
        var served: String?
        if let raw = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) {
            served = String(cString: raw)
            free(raw)
        }
        guard let served, let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        guard let fd = Self.memfd(served) else {
            xkb_state_unref(state)
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        if text == nil { cache.store(served) }
        compiled = Compiled(context: context, keymap: keymap, state: state)
        (self.fd, self.size) = fd
    }

    /// A sealed memfd holding `text` and a NUL, and its size.
    private static func memfd(_ text: String) -> (Int32, UInt32)? {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let length = bytes.count
        guard length <= Int(UInt32.max) else { return nil }
        let fd = bytes.withUnsafeBytes { strata_create_sealed_memfd("strata-keymap", $0.baseAddress, length) }
        return fd >= 0 ? (fd, UInt32(length)) : nil
    }

    deinit {
        close(fd)
        if let compiled {
            xkb_state_unref(compiled.state)
            xkb_keymap_unref(compiled.keymap)
            xkb_context_unref(compiled.context)
        }
    }

    /// The compiled keymap, compiled now from the memfd's text if it was not yet.
    private func compile() -> Compiled? {
        if let compiled { return compiled }
        guard !compileFailed else { return nil }
        compileFailed = true
        guard size > 1, let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, Int(size)) }
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let keymap = xkb_keymap_new_from_buffer(context, map.assumingMemoryBound(to: CChar.self), Int(size) - 1,
                                                      XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(context)
            return nil
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        compileFailed = false
        compiled = Compiled(context: context, keymap: keymap, state: state)
        return compiled
    }

    /// Feeds a key (evdev code) to the state; true when the serialized modifiers or group changed.
    func update(evdevKey: UInt32, pressed: Bool) -> Bool {
        let (keycode, overflow) = evdevKey.addingReportingOverflow(8)
        guard !overflow, let state = compile()?.state else { return false }
        let before = modifiers
        _ = xkb_state_update_key(state, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return modifiers != before
    }

    struct Modifiers: Equatable {
        var depressed: UInt32
        var latched: UInt32
        var locked: UInt32
        var group: UInt32
    }

    /// All zero until a key is fed (a fresh state's), which needs no compiled keymap.
    var modifiers: Modifiers {
        guard let state = compiled?.state else { return Modifiers(depressed: 0, latched: 0, locked: 0, group: 0) }
        return Modifiers(depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
                  latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
                  locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
                  group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    /// The first key (lowest keycode) that produces `keysym` in the first layout without
    /// modifiers or with Shift alone, preferring the unshifted level. nil when no key does.
    func keyStroke(for keysym: UInt32) -> KeyStroke? {
        guard keysym != 0, let keymap = compile()?.keymap else { return nil }
        let shiftIndex = xkb_keymap_mod_get_index(keymap, XKB_MOD_NAME_SHIFT)
        let shiftMask: UInt32 = shiftIndex == XKB_MOD_INVALID ? 0 : 1 << shiftIndex
        var best: KeyStroke?
        let low = xkb_keymap_min_keycode(keymap), high = xkb_keymap_max_keycode(keymap)
        guard low >= 8, low <= high else { return nil }
        for keycode in low...high {
            let levels = xkb_keymap_num_levels_for_key(keymap, keycode, 0)
            for level in 0..<min(levels, 2) {
                var syms: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, level, &syms)
                guard count > 0, let syms, (0..<Int(count)).contains(where: { syms[$0] == keysym }) else { continue }
                var masks = [xkb_mod_mask_t](repeating: 0, count: 8)
                let maskCount = xkb_keymap_key_get_mods_for_level(keymap, keycode, 0, level, &masks, 8)
                let usable = (0..<Int(maskCount)).map { masks[$0] }
                if usable.contains(0) {
                    return KeyStroke(keycode: keycode - 8, needsShift: false)
                }
                if shiftMask != 0, usable.contains(shiftMask), best == nil {
                    best = KeyStroke(keycode: keycode - 8, needsShift: true)
                }
            }
        }
        return best
    }
}

extension Keymap {
    /// Whether the xkb modifier `name` (`Mod4`, `Mod1`, `Control`) is held down now (depressed,
    /// not latched or locked). False before any key was fed.
    func isModifierHeld(named name: String) -> Bool {
        guard let state = compiled?.state else { return false }
        return xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_DEPRESSED) > 0
    }
}
