import CStrataServerGlue
import CWaylandServer
import CXKBCommon
import Glibc

/// zwp_virtual_keyboard_manager_v1 v1 (privileged): keys a client (wtype) sends, typed into the
/// seat as if from a keyboard.
///
/// The client sends its own keymap and keycodes of that keymap; the seat keeps its one keymap.
/// Each key is translated by keysym: the keysym the client's keymap gives the key at its first
/// level, then the seat's key that types it (with the modifiers of its level pressed around it:
/// Shift, AltGr), through the seat keymap's extension when no key has it (docs/seat.md,
/// "Typing"). Keysyms that cannot be typed even so are dropped; the client's `modifiers` request is ignored
/// (a modifier is typed as its key, e.g. Shift_L).
enum VirtualKeyboardManager {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_zwp_virtual_keyboard_manager_v1_interface(), version: version
        ) { [unowned compositor] client, version, id in
            _ = VirtualKeyboardManagerBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class VirtualKeyboardManagerBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zwp_virtual_keyboard_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_virtual_keyboard_manager_v1_interface(
            create_virtual_keyboard: { _, resource, _, id in
                handle(resource, as: VirtualKeyboardManagerBinding.self) { manager in
                    _ = VirtualKeyboard(
                        compositor: manager.compositor, client: manager.client, version: manager.version, id: id)
                }
            }))
}

/// zwp_virtual_keyboard_v1: one client keyboard; keys still held when it dies are released.
final class VirtualKeyboard: ResourceObject {
    unowned let compositor: Compositor
    private var context: OpaquePointer?
    private var keymap: OpaquePointer?
    /// Client keycode (evdev) → the seat's stroke it pressed.
    private var held: [UInt32: KeyStroke] = [:]

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zwp_virtual_keyboard_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    deinit {
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
    }

    static let implementation = makeImplementation(
        zwp_virtual_keyboard_v1_interface(
            keymap: { _, resource, format, fd, size in
                defer { Descriptors.close(fd) }
                handle(resource, as: VirtualKeyboard.self) { keyboard in
                    try keyboard.keymapRequest(format: format, fd: fd, size: size)
                }
            },
            key: { _, resource, time, key, state in
                handle(resource, as: VirtualKeyboard.self) { keyboard in
                    try keyboard.keyRequest(key, pressed: state != 0, time: time)
                }
            },
            modifiers: { _, resource, _, _, _, _ in
                handle(resource, as: VirtualKeyboard.self) { keyboard in
                    guard keyboard.keymap != nil else { throw VirtualKeyboard.noKeymap }
                }
            },
            destroy: destroyRequest))

    static let noKeymap = ProtocolError(code: ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue, "no keymap was set")

    /// The largest keymap accepted (real ones are tens of kB).
    static let maximumKeymapBytes = 16 << 20

    private func keymapRequest(format: UInt32, fd: Int32, size: UInt32) throws {
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0 else {
            throw ProtocolError.invalidMethod("the keymap must be xkb_v1 text")
        }
        guard Int(size) <= Self.maximumKeymapBytes else {
            throw ProtocolError.invalidMethod("the keymap is larger than \(Self.maximumKeymapBytes) bytes")
        }
        // Read, not mapped: a client can shrink its file under a mapping, and reading a mapped
        // page past the end of the file is a SIGBUS in the compositor (found by the fuzzer).
        var text = [CChar](repeating: 0, count: Int(size) + 1)
        var filled = 0
        while filled < Int(size) {
            let got = text.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + filled }, Int(size) - filled, off_t(filled))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        guard filled > 0 else { throw ProtocolError.invalidMethod("cannot read the keymap") }
        if context == nil { context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
        let length = strnlen(text, filled)
        guard let context,
            let compiled = xkb_keymap_new_from_buffer(
                context, text, length, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            throw ProtocolError.invalidMethod("the keymap does not compile")
        }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = compiled
    }

    private func keyRequest(_ key: UInt32, pressed: Bool, time: UInt32) throws {
        guard let keymap else { throw Self.noKeymap }
        let seat = compositor.seat!
        if !pressed {
            guard let stroke = held.removeValue(forKey: key) else { return }
            seat.key(stroke.keycode, pressed: false, time: time, virtualKeyboardOf: client)
            for modifier in stroke.modifiers.reversed() {
                seat.key(modifier, pressed: false, time: time, virtualKeyboardOf: client)
            }
            return
        }
        guard held[key] == nil else { return }
        let (xkbKeycode, overflow) = key.addingReportingOverflow(8)
        guard !overflow else { return }
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, xkbKeycode, 0, 0, &syms)
        guard count > 0, let syms, let stroke = seat.keyStrokeExtendingKeymap(forKeysym: syms[0]) else { return }
        held[key] = stroke
        for modifier in stroke.modifiers { seat.key(modifier, pressed: true, time: time, virtualKeyboardOf: client) }
        seat.key(stroke.keycode, pressed: true, time: time, virtualKeyboardOf: client)
    }

    override func resourceDidDestroy() {
        let time = compositor.clock.milliseconds
        for (key, _) in held { try? keyRequest(key, pressed: false, time: time) }
    }
}
