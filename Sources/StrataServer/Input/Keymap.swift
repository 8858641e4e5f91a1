import CStrataServerGlue
import CXKBCommon
import Glibc

/// The seat's xkbcommon keymap, compiled once from the default rule names (evdev, pc105, us,
/// overridden by XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS), its text in a sealed memfd
/// shared by every wl_keyboard, and the xkb_state that tracks the modifiers.
final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// A sealed (no write, grow or shrink) memfd with the keymap text and its final NUL.
    let fd: Int32
    let size: UInt32

    /// The keymap XKB's default names give (XKB_DEFAULT_* honoured; the text they gave last time
    /// when `cache` has it, see `KeymapCache`), or, with `text`, the keymap that text describes
    /// (a nested backend's parent keymap); nil when it does not compile.
    init?(text: String? = nil, cache: KeymapCache = .standard) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        // The text clients get: the cached text as it is (it is what xkbcommon wrote for these
        // names), else xkbcommon's text of the compiled keymap.
        var served: String?
        var fromNames = false
        let compiled: OpaquePointer?
        if let text {
            compiled = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        } else if let cached = cache.load(),
                  let keymap = xkb_keymap_new_from_string(context, cached, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) {
            compiled = keymap
            served = cached
        } else {
            compiled = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS)
            fromNames = true
        }
        guard let keymap = compiled else {
            xkb_context_unref(context)
            return nil
        }
        if served == nil, let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) {
            served = String(cString: text)
            free(text)
        }
        guard let served, let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        if fromNames { cache.store(served) }
        var bytes = Array(served.utf8)
        bytes.append(0)
        let length = bytes.count
        let fd = bytes.withUnsafeBytes { strata_create_sealed_memfd("strata-keymap", $0.baseAddress, length) }
        guard fd >= 0, length <= Int(UInt32.max) else {
            if fd >= 0 { close(fd) }
            xkb_state_unref(state)
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        self.context = context
        self.keymap = keymap
        self.state = state
        self.fd = fd
        self.size = UInt32(length)
    }

    deinit {
        close(fd)
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Feeds a key (evdev code) to the state; true when the serialized modifiers or group changed.
    func update(evdevKey: UInt32, pressed: Bool) -> Bool {
        let (keycode, overflow) = evdevKey.addingReportingOverflow(8)
        guard !overflow else { return false }
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

    var modifiers: Modifiers {
        Modifiers(depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
                  latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
                  locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
                  group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    /// The first key (lowest keycode) that produces `keysym` in the first layout without
    /// modifiers or with Shift alone, preferring the unshifted level. nil when no key does.
    func keyStroke(for keysym: UInt32) -> KeyStroke? {
        guard keysym != 0 else { return nil }
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
