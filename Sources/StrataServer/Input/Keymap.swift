import CStrataServerGlue
import CXKBCommon
import Glibc

/// The seat's xkbcommon keymap, compiled from rule names (`KeymapNames`: `us` unless strata's
/// --keyboard-* options say otherwise; the host's XKB_DEFAULT_* are never read), its text in a
/// sealed memfd shared by every wl_keyboard, and the xkb_state that tracks the modifiers.
///
/// When the text comes from `KeymapCache` (checksummed: it is what the names compiled to on an
/// earlier run), clients get it at once and the keymap is compiled only when a key is fed or
/// looked up: parsing its 64 KB took 40 % of a start's instructions, and a client that never
/// gets a key never needs it (docs/performance.md, "Start-up").
///
/// Typing looks keysyms up on every level of the effective layout (`Keymap+Lookup.swift`);
/// keysyms no key has are bound to spare keycodes in an extended text that clients get instead
/// (`Keymap+Extension.swift`). The compiled keymap and its state stay the base ones: the extra
/// keys carry no modifiers, so the state is the same for both.
final class Keymap {
    /// The compiled keymap and its state; nil until first needed (a keymap from the cache).
    struct Compiled {
        let context: OpaquePointer
        let keymap: OpaquePointer
        let state: OpaquePointer
        /// A state for trying a key under other modifiers without touching `state`.
        let scratch: OpaquePointer
    }
    private(set) var compiled: Compiled?
    /// The text did not compile when it was first needed: keys are then ignored.
    private var compileFailed = false
    /// A sealed (no write, grow or shrink) memfd with the base keymap's text and its final NUL.
    let baseFD: Int32
    let baseSize: UInt32
    /// The memfd clients get: the base one, or the extended one (`extend(with:)`).
    private(set) var fd: Int32
    private(set) var size: UInt32
    /// Keysyms bound to spare keycodes by the extension clients have now (xkb keycodes).
    var extraKeys: [UInt32: UInt32] = [:]
    /// Spare keycodes (no symbols in the base keymap) and their names; computed when first needed.
    var spareKeycodes: [(keycode: UInt32, name: String?)]?
    /// Every keysym on some key, level and layout of the base keymap; computed when first needed.
    var baseKeysyms: Set<UInt32>?
    /// For each modifier bit, the key (xkb keycode) that sets it alone; computed when first needed.
    var modifierKeys: [UInt32: UInt32]?

    /// The keymap `names` give (the text they gave last time when `cache` has it, compiled when
    /// first needed), or nil when they do not compile (an unknown layout or variant).
    init?(names: KeymapNames = .standard, cache: KeymapCache = .standard) {
        let cache = cache.forNames(names)
        if let cached = cache.load() {
            guard let fd = Self.memfd(cached) else { return nil }
            (baseFD, baseSize) = fd
            (self.fd, size) = fd
            return
        }
        guard let context = Self.newContext() else { return nil }
        // Names that do not compile are reported in words by the caller (`compileProblem`).
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let keymap = names.rules.withCString { rules in
            names.model.withCString { model in
                names.layout.withCString { layout in
                    names.variant.withCString { variant in
                        names.options.withCString { options in
                            var rmlvo = xkb_rule_names(
                                rules: rules, model: model, layout: layout, variant: variant, options: options)
                            return xkb_keymap_new_from_names(context, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
        guard let made = Self.finish(context: context, keymap: keymap) else { return nil }
        cache.store(made.text)
        (baseFD, baseSize) = made.fd
        (fd, size) = made.fd
        compiled = made.compiled
    }

    /// The keymap `text` describes (xkb text format v1: a nested backend's parent keymap), nil
    /// when it does not compile.
    init?(text: String) {
        guard let context = Self.newContext() else { return nil }
        let keymap = xkb_keymap_new_from_string(context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        guard let made = Self.finish(context: context, keymap: keymap) else { return nil }
        (baseFD, baseSize) = made.fd
        (fd, size) = made.fd
        compiled = made.compiled
    }

    /// A context that reads no XKB_DEFAULT_* (names are always given in full).
    static func newContext() -> OpaquePointer? {
        xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES)
    }

    /// The compiled keymap's text, memfd and states; everything released when one fails.
    private static func finish(context: OpaquePointer, keymap: OpaquePointer?) -> (
        compiled: Compiled, text: String, fd: (Int32, UInt32)
    )? {
        guard let keymap else {
            xkb_context_unref(context)
            return nil
        }
        var served: String?
        if let raw = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) {
            served = String(cString: raw)
            free(raw)
        }
        guard let served, let compiled = states(context: context, keymap: keymap) else { return nil }
        guard let fd = memfd(served) else {
            release(compiled)
            return nil
        }
        return (compiled, served, fd)
    }

    /// The keymap's two states; everything released when one fails.
    private static func states(context: OpaquePointer, keymap: OpaquePointer) -> Compiled? {
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        guard let scratch = xkb_state_new(keymap) else {
            xkb_state_unref(state)
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        return Compiled(context: context, keymap: keymap, state: state, scratch: scratch)
    }

    private static func release(_ compiled: Compiled) {
        xkb_state_unref(compiled.scratch)
        xkb_state_unref(compiled.state)
        xkb_keymap_unref(compiled.keymap)
        xkb_context_unref(compiled.context)
    }

    /// A sealed memfd holding `text` and a NUL, and its size.
    static func memfd(_ text: String) -> (Int32, UInt32)? {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let length = bytes.count
        guard length <= Int(UInt32.max) else { return nil }
        let fd = bytes.withUnsafeBytes { strata_create_sealed_memfd("strata-keymap", $0.baseAddress, length) }
        return fd >= 0 ? (fd, UInt32(length)) : nil
    }

    /// Serves `fd` (an extended keymap's memfd) instead of the current one.
    func serve(fd newFD: Int32, size newSize: UInt32) {
        if fd != baseFD { close(fd) }
        (fd, size) = (newFD, newSize)
    }

    deinit {
        if fd != baseFD { close(fd) }
        close(baseFD)
        if let compiled { Self.release(compiled) }
    }

    /// The base keymap's text (without its NUL), read back from its memfd.
    func baseText() -> String? {
        guard baseSize > 1, let map = mmap(nil, Int(baseSize), PROT_READ, MAP_PRIVATE, baseFD, 0), map != MAP_FAILED
        else { return nil }
        defer { munmap(map, Int(baseSize)) }
        return String(decoding: UnsafeRawBufferPointer(start: map, count: Int(baseSize) - 1), as: UTF8.self)
    }

    /// The compiled keymap, compiled now from the memfd's text if it was not yet.
    func compile() -> Compiled? {
        if let compiled { return compiled }
        guard !compileFailed else { return nil }
        compileFailed = true
        guard baseSize > 1, let map = mmap(nil, Int(baseSize), PROT_READ, MAP_PRIVATE, baseFD, 0), map != MAP_FAILED
        else { return nil }
        defer { munmap(map, Int(baseSize)) }
        guard let context = Self.newContext() else { return nil }
        guard
            let keymap = xkb_keymap_new_from_buffer(
                context, map.assumingMemoryBound(to: CChar.self), Int(baseSize) - 1,
                XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            xkb_context_unref(context)
            return nil
        }
        guard let made = Self.states(context: context, keymap: keymap) else { return nil }
        compileFailed = false
        compiled = made
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
        return Modifiers(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
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
