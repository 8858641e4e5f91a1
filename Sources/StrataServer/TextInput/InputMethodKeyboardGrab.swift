import CStrataServerGlue
import CWaylandServer

/// zwp_input_method_keyboard_grab_v2: the input method's hold on the hardware keyboard. While it
/// lasts and a text input is active, the seat's keys and modifiers go here instead of to the
/// focused client (`Keyboard.key`); keys the input method types back through its own virtual
/// keyboard pass the grab. It gets the seat's keymap, repeat info and modifiers when it starts
/// and the keymap again when the seat's changes. Released by `release`, or inert when its input
/// method dies or is unavailable.
final class InputMethodKeyboardGrab: ResourceObject {
    unowned let keyboard: Keyboard
    /// False once released, or once its input method ended.
    private(set) var isLive = false

    init?(keyboard: Keyboard, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.keyboard = keyboard
        super.init(
            client: client, interface: strata_zwp_input_method_keyboard_grab_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        isLive = false
    }

    func start() {
        guard !isDestroyed else { return }
        isLive = true
        sendKeymap()
        zwp_input_method_keyboard_grab_v2_send_repeat_info(resource, Keyboard.repeatRate, Keyboard.repeatDelay)
        sendModifiers(serial: keyboard.seat.nextSerial())
    }

    /// The input method died or became unavailable: the grab receives nothing more.
    func inputMethodDidEnd() {
        isLive = false
    }

    func sendKeymap() {
        guard isLive, !isDestroyed, let keymap = keyboard.keymap else { return }
        zwp_input_method_keyboard_grab_v2_send_keymap(
            resource, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, keymap.fd, keymap.size)
    }

    func sendKey(serial: UInt32, time: UInt32, key: UInt32, state: UInt32) {
        guard isLive, !isDestroyed else { return }
        zwp_input_method_keyboard_grab_v2_send_key(resource, serial, time, key, state)
    }

    func sendModifiers(serial: UInt32) {
        guard isLive, !isDestroyed, let m = keyboard.keymap?.modifiers else { return }
        zwp_input_method_keyboard_grab_v2_send_modifiers(resource, serial, m.depressed, m.latched, m.locked, m.group)
    }

    static let implementation = makeImplementation(zwp_input_method_keyboard_grab_v2_interface(release: destroyRequest))
}
