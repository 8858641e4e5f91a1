import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataServer

/// The parent compositor's wl_seat, turned into calls on Strata's seat (`NestedInput`):
/// pointer and touch positions are surface-local in the parent; times the buffer scale the
/// window is committed with they are canvas pixels, divided by the screen's scale logical ones
/// (`WaylandScreen.parentToLogical`); keys are evdev codes on both sides.
///
/// Held keys and touch points are released when the parent takes the keyboard focus or the
/// touch sequence away, so nothing stays pressed inside Strata.
final class ParentSeat {
    unowned let backend: WaylandBackend
    let seat: OpaquePointer
    let globalName: UInt32
    private(set) var pointer: OpaquePointer?
    /// The serial of the parent's last wl_pointer.enter (set_cursor quotes it).
    private(set) var pointerEnterSerial: UInt32?
    /// The serial of the parent's latest enter, key, button or touch down (set_selection quotes it).
    private(set) var latestSerial: UInt32 = 0
    private var keyboard: OpaquePointer?
    private var touch: OpaquePointer?
    /// The screen under the parent's pointer.
    private var pointerScreen: WaylandScreen?
    private var pressedKeys: Set<UInt32> = []
    /// Touch points down, with the scale of the screen each went down on.
    private var touchPoints: [Int32: Double] = [:]
    /// The version bound: 5 has every event handled below and none newer (axis_value120 is 8).
    static let maximumVersion: UInt32 = 5

    init(backend: WaylandBackend, seat: OpaquePointer, globalName: UInt32) {
        self.backend = backend
        self.seat = seat
        self.globalName = globalName
        wl_seat_add_listener(seat, &ParentSeat.seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    private var input: NestedInput? { backend.input }

    private func capabilitiesChanged(_ caps: UInt32) {
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if hasPointer, pointer == nil, let p = wl_seat_get_pointer(seat) {
            pointer = p
            wl_pointer_add_listener(p, &ParentSeat.pointerListener, me)
        } else if !hasPointer, let p = pointer {
            release(pointer: p)
        }
        if hasKeyboard, keyboard == nil, let k = wl_seat_get_keyboard(seat) {
            keyboard = k
            wl_keyboard_add_listener(k, &ParentSeat.keyboardListener, me)
        } else if !hasKeyboard, let k = keyboard {
            releaseKeys(time: Compositor.nestedNowMilliseconds)
            release(keyboard: k)
        }
        if hasTouch, touch == nil, let t = wl_seat_get_touch(seat) {
            touch = t
            wl_touch_add_listener(t, &ParentSeat.touchListener, me)
        } else if !hasTouch, let t = touch {
            releaseTouches(time: Compositor.nestedNowMilliseconds)
            release(touch: t)
        }
        backend.flush()
    }

    private func release(pointer p: OpaquePointer) {
        backend.parentPointerWillGo()
        if wl_proxy_get_version(p) >= 3 { wl_pointer_release(p) } else { wl_pointer_destroy(p) }
        pointer = nil
        pointerScreen = nil
        pointerEnterSerial = nil
    }

    private func release(keyboard k: OpaquePointer) {
        if wl_proxy_get_version(k) >= 3 { wl_keyboard_release(k) } else { wl_keyboard_destroy(k) }
        keyboard = nil
    }

    private func release(touch t: OpaquePointer) {
        if wl_proxy_get_version(t) >= 3 { wl_touch_release(t) } else { wl_touch_destroy(t) }
        touch = nil
    }

    /// Releases the devices and the seat (the seat went away, or Strata stops).
    func destroy() {
        releaseKeys(time: Compositor.nestedNowMilliseconds)
        releaseTouches(time: Compositor.nestedNowMilliseconds)
        if let pointer { release(pointer: pointer) }
        if let keyboard { release(keyboard: keyboard) }
        if let touch { release(touch: touch) }
        if wl_proxy_get_version(seat) >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    }

    /// A screen is going away: forget it as the pointer's screen.
    func screenWillClose(_ screen: WaylandScreen) {
        if pointerScreen === screen { pointerScreen = nil }
    }

    private func releaseKeys(time: UInt32) {
        let keys = pressedKeys
        pressedKeys.removeAll()
        for key in keys.sorted() { input?.key(key, pressed: false, time: time) }
    }

    private func releaseTouches(time: UInt32) {
        let points = touchPoints
        touchPoints.removeAll()
        for id in points.keys.sorted() { input?.touchUp(id: id, time: time) }
    }

    // MARK: Listeners (user data: the ParentSeat, alive while its proxies are)

    private static func from(_ data: UnsafeMutableRawPointer?) -> ParentSeat? {
        data.map { Unmanaged<ParentSeat>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var seatListener = wl_seat_listener(
        capabilities: { data, _, caps in from(data)?.capabilitiesChanged(caps) },
        name: { _, _, _ in })

    private static var pointerListener: wl_pointer_listener = {
        var l = wl_pointer_listener()
        l.enter = { data, _, serial, surface, x, y in
            guard let seat = from(data), let surface else { return }
            seat.pointerScreen = seat.backend.screen(for: surface)
            guard let screen = seat.pointerScreen else { return }
            seat.pointerEnterSerial = serial
            seat.latestSerial = serial
            let scale = 1 / screen.parentToLogical
            seat.input?.pointerMotion(
                on: screen.output, x: wl_fixed_to_double(x) / scale, y: wl_fixed_to_double(y) / scale,
                time: Compositor.nestedNowMilliseconds)
            // Each enter needs the cursor set again.
            seat.backend.parentPointerDidEnter()
        }
        l.leave = { data, _, _, _ in
            guard let seat = from(data) else { return }
            seat.pointerScreen = nil
            seat.pointerEnterSerial = nil  // the cursor is set again on the next enter
        }
        l.motion = { data, _, time, x, y in
            guard let seat = from(data), let screen = seat.pointerScreen else { return }
            let scale = 1 / screen.parentToLogical
            seat.input?.pointerMotion(
                on: screen.output, x: wl_fixed_to_double(x) / scale, y: wl_fixed_to_double(y) / scale, time: time)
        }
        l.button = { data, _, serial, time, button, state in
            from(data)?.latestSerial = serial
            from(data)?.input?.pointerButton(
                button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue, time: time)
        }
        l.axis = { data, _, time, axis, value in
            let amount = wl_fixed_to_double(value)
            if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue {
                from(data)?.input?.pointerAxis(vertical: amount, horizontal: 0, time: time)
            } else {
                from(data)?.input?.pointerAxis(vertical: 0, horizontal: amount, time: time)
            }
        }
        l.frame = { _, _ in }
        l.axis_source = { _, _, _ in }
        l.axis_stop = { _, _, _, _ in }
        l.axis_discrete = { _, _, _, _ in }
        l.axis_value120 = { _, _, _, _ in }
        return l
    }()

    private static var keyboardListener: wl_keyboard_listener = {
        var l = wl_keyboard_listener()
        l.keymap = { data, _, format, fd, size in
            defer { close(fd) }
            guard let seat = from(data), format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0, size < 16 << 20
            else { return }
            // Read, not mapped: a file shrunk under a mapping makes reading past its end a
            // SIGBUS in Strata (the virtual keyboard reads for the same reason).
            var bytes = [UInt8](repeating: 0, count: Int(size))
            var filled = 0
            while filled < bytes.count {
                let got = bytes.withUnsafeMutableBytes { raw in
                    pread(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled, off_t(filled))
                }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                filled += got
            }
            guard filled > 0 else { return }
            let text = String(decoding: bytes[..<filled].prefix { $0 != 0 }, as: UTF8.self)
            seat.backend.parentKeymapDidChange(text)
        }
        l.enter = { data, _, serial, _, _ in from(data)?.latestSerial = serial }
        l.leave = { data, _, _, _ in from(data)?.releaseKeys(time: Compositor.nestedNowMilliseconds) }
        l.key = { data, _, serial, time, key, state in
            guard let seat = from(data) else { return }
            seat.latestSerial = serial
            let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
            if pressed {
                seat.pressedKeys.insert(key)
            } else if seat.pressedKeys.remove(key) == nil {
                return  // a release of a key pressed before Strata had the focus
            }
            seat.input?.key(key, pressed: pressed, time: time)
        }
        l.modifiers = { _, _, _, _, _, _, _ in }
        l.repeat_info = { _, _, _, _ in }
        return l
    }()

    private static var touchListener: wl_touch_listener = {
        var l = wl_touch_listener()
        l.down = { data, _, serial, time, surface, id, x, y in
            guard let seat = from(data), let surface, let screen = seat.backend.screen(for: surface) else { return }
            seat.latestSerial = serial
            let scale = 1 / screen.parentToLogical
            seat.touchPoints[id] = scale
            seat.input?.touchDown(
                id: id, on: screen.output, x: wl_fixed_to_double(x) / scale, y: wl_fixed_to_double(y) / scale,
                time: time)
        }
        l.up = { data, _, _, time, id in
            guard let seat = from(data), seat.touchPoints.removeValue(forKey: id) != nil else { return }
            seat.input?.touchUp(id: id, time: time)
        }
        l.motion = { data, _, time, id, x, y in
            guard let seat = from(data), let scale = seat.touchPoints[id] else { return }
            seat.input?.touchMotion(
                id: id, x: wl_fixed_to_double(x) / scale, y: wl_fixed_to_double(y) / scale, time: time)
        }
        l.frame = { _, _ in }
        l.cancel = { data, _ in from(data)?.releaseTouches(time: Compositor.nestedNowMilliseconds) }
        l.shape = { _, _, _, _, _ in }
        l.orientation = { _, _, _, _ in }
        return l
    }()
}
