import CStrataServerGlue
import CWaylandServer
import Glibc

/// The seat's keyboard: the keys held, the modifiers (through the `Keymap`'s xkb_state), and the
/// focus, which the seat sets to the key window's surface or the popup grab's.
final class Keyboard {
    unowned let seat: Seat
    private(set) var keymap: Keymap?
    var bindings: [KeyboardBinding] = []
    private(set) weak var focus: Surface?
    /// Evdev codes of the keys held, in press order (wl_keyboard.enter sends them).
    private(set) var pressedKeys: [UInt32] = []
    /// Held keys whose press went to the input method's keyboard grab (their release goes there
    /// too, or nowhere once the grab ended: the focused client never saw the press).
    private var grabbedKeys: Set<UInt32> = []

    static let repeatRate: Int32 = 25
    static let repeatDelay: Int32 = 600

    init(seat: Seat, keymap: Keymap?) {
        self.seat = seat
        self.keymap = keymap
    }

    func createBinding(client: OpaquePointer, version: UInt32, id: UInt32) {
        guard let binding = KeyboardBinding(keyboard: self, client: client, version: version, id: id) else { return }
        bindings.append(binding)
        sendKeymap(to: binding)
        if version >= 4 { wl_keyboard_send_repeat_info(binding.resource, Self.repeatRate, Self.repeatDelay) }
        // The focus client's new keyboard is entered at once (a key window whose client had no
        // keyboard yet).
        if let focus, !focus.isDestroyed, focus.client == client {
            sendEnter(to: binding, surface: focus, serial: seat.nextSerial())
            sendModifiers(to: binding, serial: seat.nextSerial())
        }
    }

    /// Uses another keymap (the nested backend's parent's): every wl_keyboard gets it, the
    /// focused client the modifiers again. Keys held stay held (by evdev code).
    func replaceKeymap(_ new: Keymap) {
        keymap = new
        keymapTextDidChange()
    }

    /// The keymap serves another text (its extension for typing, `Keymap.extend(with:)`):
    /// every wl_keyboard gets it (a client's xkb state starts again from it), then the focused
    /// client the modifiers again.
    func keymapTextDidChange() {
        for binding in bindings { sendKeymap(to: binding) }
        seat.textInputs.inputMethod?.keyboardGrab?.sendKeymap()
        if let focus, !focus.isDestroyed {
            let serial = seat.nextSerial()
            for binding in bindings(of: focus.client) { sendModifiers(to: binding, serial: serial) }
        }
    }

    private func sendKeymap(to binding: KeyboardBinding) {
        if let keymap {
            wl_keyboard_send_keymap(binding.resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size)
        } else {
            // No keymap could be compiled (missing xkeyboard-config): say so, with a valid fd.
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            wl_keyboard_send_keymap(binding.resource, WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue, fd, 0)
            close(fd)
        }
    }

    // MARK: Focus

    func setFocus(_ surface: Surface?) {
        guard surface !== focus else { return }
        if let old = focus, !old.isDestroyed {
            let serial = seat.nextSerial()
            for binding in bindings(of: old.client) { wl_keyboard_send_leave(binding.resource, serial, old.resource) }
        }
        focus = surface
        if let surface {
            let serial = seat.nextSerial()
            let targets = bindings(of: surface.client)
            for binding in targets { sendEnter(to: binding, surface: surface, serial: serial) }
            if !targets.isEmpty {
                let modifierSerial = seat.nextSerial()
                for binding in targets { sendModifiers(to: binding, serial: modifierSerial) }
            }
        }
        seat.keyboardFocusDidChange()
    }

    func surfaceWillDestroy(_ surface: Surface) {
        guard focus === surface else { return }
        focus = nil
        seat.keyboardFocusDidChange()
    }

    private func sendEnter(to binding: KeyboardBinding, surface: Surface, serial: UInt32) {
        var keys = wl_array()
        wl_array_init(&keys)
        defer { wl_array_release(&keys) }
        for key in pressedKeys {
            guard let slot = wl_array_add(&keys, MemoryLayout<UInt32>.size) else { break }
            slot.storeBytes(of: key, as: UInt32.self)
        }
        wl_keyboard_send_enter(binding.resource, serial, surface.resource, &keys)
    }

    private func sendModifiers(to binding: KeyboardBinding, serial: UInt32) {
        guard let m = keymap?.modifiers else { return }
        wl_keyboard_send_modifiers(binding.resource, serial, m.depressed, m.latched, m.locked, m.group)
    }

    private func bindings(of client: OpaquePointer) -> [KeyboardBinding] {
        bindings.filter { $0.client == client && !$0.isDestroyed }
    }

    // MARK: Input

    func key(_ keycode: UInt32, pressed: Bool, time: UInt32, passesInputMethodGrab: Bool = false) {
        if pressed {
            guard !pressedKeys.contains(keycode) else { return }
            pressedKeys.append(keycode)
        } else {
            guard let index = pressedKeys.firstIndex(of: keycode) else { return }
            pressedKeys.remove(at: index)
        }
        let modifiersChanged = keymap?.update(evdevKey: keycode, pressed: pressed) ?? false
        if pressed ? (!passesInputMethodGrab && seat.textInputs.keyboardGrab != nil) : grabbedKeys.contains(keycode) {
            sendToInputMethodGrab(keycode, pressed: pressed, time: time, modifiersChanged: modifiersChanged)
            return
        }
        guard let focus, !focus.isDestroyed else { return }
        let targets = bindings(of: focus.client)
        let serial = seat.nextSerial()
        if pressed {
            seat.recordInputSerial(serial, kind: .key, client: focus.client, surface: focus, window: nil)
        }
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue
        for binding in targets { wl_keyboard_send_key(binding.resource, serial, time, keycode, state) }
        if modifiersChanged, !targets.isEmpty {
            let modifierSerial = seat.nextSerial()
            for binding in targets { sendModifiers(to: binding, serial: modifierSerial) }
        }
    }
}

extension Keyboard {
    /// A key for the input method's grab (`TextInputRelay.keyboardGrab`); a release of a key
    /// pressed into a grab that ended goes nowhere.
    private func sendToInputMethodGrab(_ keycode: UInt32, pressed: Bool, time: UInt32, modifiersChanged: Bool) {
        if pressed { grabbedKeys.insert(keycode) } else { grabbedKeys.remove(keycode) }
        guard let grab = pressed ? seat.textInputs.keyboardGrab : seat.textInputs.inputMethod?.keyboardGrab else {
            return
        }
        let state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue
        grab.sendKey(serial: seat.nextSerial(), time: time, key: keycode, state: state)
        if modifiersChanged { grab.sendModifiers(serial: seat.nextSerial()) }
    }
}

/// One client's wl_keyboard.
final class KeyboardBinding: ResourceObject {
    unowned let keyboard: Keyboard

    init?(keyboard: Keyboard, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.keyboard = keyboard
        super.init(
            client: client, interface: strata_wl_keyboard_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        keyboard.bindings.removeAll { $0 === self }
        keyboard.seat.forgetClientIfUnused(client)
    }

    static let implementation = makeImplementation(wl_keyboard_interface(release: destroyRequest))
}
