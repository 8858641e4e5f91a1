import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's wl_seat with its wl_pointer, wl_keyboard and wl_touch, recording every event
/// in order. Surfaces are named by their object id (`TestClient.id(of:)`).
public final class TestSeat {
    public enum Event: Equatable, CustomStringConvertible {
        case pointerEnter(surface: UInt32, x: Double, y: Double)
        case pointerLeave(surface: UInt32)
        case pointerMotion(x: Double, y: Double)
        case pointerButton(button: UInt32, pressed: Bool)
        case pointerAxis(axis: UInt32, value: Double)
        case pointerFrame
        case pointerAxisSource(UInt32)
        case pointerAxisStop(axis: UInt32)
        case pointerAxisDiscrete(axis: UInt32, discrete: Int32)
        case pointerAxisValue120(axis: UInt32, value120: Int32)
        case keymap(format: UInt32, size: UInt32)
        case repeatInfo(rate: Int32, delay: Int32)
        case keyboardEnter(surface: UInt32, keys: [UInt32])
        case keyboardLeave(surface: UInt32)
        case key(key: UInt32, pressed: Bool)
        case modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32)
        case touchDown(surface: UInt32, id: Int32, x: Double, y: Double)
        case touchUp(id: Int32)
        case touchMotion(id: Int32, x: Double, y: Double)
        case touchFrame
        case touchCancel

        public var description: String {
            switch self {
            case .pointerEnter(let s, let x, let y): return "pointer.enter(\(s), \(x), \(y))"
            case .pointerLeave(let s): return "pointer.leave(\(s))"
            case .pointerMotion(let x, let y): return "pointer.motion(\(x), \(y))"
            case .pointerButton(let b, let p): return "pointer.button(\(b), \(p ? "pressed" : "released"))"
            case .pointerAxis(let a, let v): return "pointer.axis(\(a), \(v))"
            case .pointerFrame: return "pointer.frame"
            case .pointerAxisSource(let s): return "pointer.axis_source(\(s))"
            case .pointerAxisStop(let a): return "pointer.axis_stop(\(a))"
            case .pointerAxisDiscrete(let a, let d): return "pointer.axis_discrete(\(a), \(d))"
            case .pointerAxisValue120(let a, let v): return "pointer.axis_value120(\(a), \(v))"
            case .keymap(let f, let s): return "keyboard.keymap(\(f), \(s))"
            case .repeatInfo(let r, let d): return "keyboard.repeat_info(\(r), \(d))"
            case .keyboardEnter(let s, let k): return "keyboard.enter(\(s), \(k))"
            case .keyboardLeave(let s): return "keyboard.leave(\(s))"
            case .key(let k, let p): return "keyboard.key(\(k), \(p ? "pressed" : "released"))"
            case .modifiers(let d, let l, let k, let g): return "keyboard.modifiers(\(d), \(l), \(k), \(g))"
            case .touchDown(let s, let id, let x, let y): return "touch.down(\(s), \(id), \(x), \(y))"
            case .touchUp(let id): return "touch.up(\(id))"
            case .touchMotion(let id, let x, let y): return "touch.motion(\(id), \(x), \(y))"
            case .touchFrame: return "touch.frame"
            case .touchCancel: return "touch.cancel"
            }
        }
    }

    public let client: TestClient
    public let seat: OpaquePointer
    public private(set) var pointer: OpaquePointer?
    public private(set) var keyboard: OpaquePointer?
    public private(set) var touch: OpaquePointer?
    public private(set) var capabilities: UInt32?
    public private(set) var name: String?
    /// Every input event, in order.
    public private(set) var events: [Event] = []
    /// The serial of the last pointer enter, button, key or touch down/up event.
    public private(set) var lastSerial: UInt32 = 0
    public private(set) var pointerEnterSerial: UInt32 = 0
    /// The serials of the last wl_keyboard.enter and wl_keyboard.modifiers events.
    public private(set) var keyboardEnterSerial: UInt32 = 0
    public private(set) var modifiersSerial: UInt32 = 0
    /// The serial of the last button press, key press or touch down (what grabs quote).
    public private(set) var lastPressSerial: UInt32 = 0
    /// The keymap fd the keyboard received (owned here, closed on deinit).
    public private(set) var keymapFD: Int32 = -1
    /// The text of every keymap received, in order (empty when it could not be read).
    public private(set) var keymapTexts: [String] = []

    public init(client: TestClient, version: UInt32 = 8) throws {
        self.client = client
        seat = try client.bind(wl_seat_interface_ptr(), version: version)
        wl_seat_add_listener(seat, &Self.seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if keymapFD >= 0 { close(keymapFD) }
    }

    @discardableResult
    public func getPointer() -> OpaquePointer? {
        pointer = wl_seat_get_pointer(seat)
        if let pointer { wl_pointer_add_listener(pointer, &Self.pointerListener, me) }
        return pointer
    }

    @discardableResult
    public func getKeyboard() -> OpaquePointer? {
        keyboard = wl_seat_get_keyboard(seat)
        if let keyboard { wl_keyboard_add_listener(keyboard, &Self.keyboardListener, me) }
        return keyboard
    }

    @discardableResult
    public func getTouch() -> OpaquePointer? {
        touch = wl_seat_get_touch(seat)
        if let touch { wl_touch_add_listener(touch, &Self.touchListener, me) }
        return touch
    }

    /// Returns the events recorded so far and forgets them.
    public func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestSeat? {
        data.map { Unmanaged<TestSeat>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func id(_ proxy: OpaquePointer?) -> UInt32 { proxy.map { wl_proxy_get_id($0) } ?? 0 }

    private static var seatListener = wl_seat_listener(
        capabilities: { data, _, caps in from(data)?.capabilities = caps },
        name: { data, _, name in from(data)?.name = name.map { String(cString: $0) } })

    private static var pointerListener = wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            seat.pointerEnterSerial = serial
            seat.events.append(.pointerEnter(surface: id(surface), x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        leave: { data, _, _, surface in from(data)?.events.append(.pointerLeave(surface: id(surface))) },
        motion: { data, _, _, x, y in
            from(data)?.events.append(.pointerMotion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        button: { data, _, serial, _, button, state in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            if state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue { seat.lastPressSerial = serial }
            seat.events.append(
                .pointerButton(button: button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        },
        axis: { data, _, _, axis, value in
            from(data)?.events.append(.pointerAxis(axis: axis, value: wl_fixed_to_double(value)))
        },
        frame: { data, _ in from(data)?.events.append(.pointerFrame) },
        axis_source: { data, _, source in from(data)?.events.append(.pointerAxisSource(source)) },
        axis_stop: { data, _, _, axis in from(data)?.events.append(.pointerAxisStop(axis: axis)) },
        axis_discrete: { data, _, axis, discrete in
            from(data)?.events.append(.pointerAxisDiscrete(axis: axis, discrete: discrete))
        },
        axis_value120: { data, _, axis, value in
            from(data)?.events.append(.pointerAxisValue120(axis: axis, value120: value))
        })

    private static var keyboardListener = wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            guard let seat = from(data) else {
                close(fd)
                return
            }
            if seat.keymapFD >= 0 { close(seat.keymapFD) }
            seat.keymapFD = fd
            var text = ""
            if size > 1, let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED {
                text = String(decoding: UnsafeRawBufferPointer(start: map, count: Int(size) - 1), as: UTF8.self)
                munmap(map, Int(size))
            }
            seat.keymapTexts.append(text)
            seat.events.append(.keymap(format: format, size: size))
        },
        enter: { data, _, serial, surface, keys in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            seat.keyboardEnterSerial = serial
            var list: [UInt32] = []
            if let keys, let base = keys.pointee.data {
                let count = keys.pointee.size / MemoryLayout<UInt32>.size
                list = (0..<count).map { base.load(fromByteOffset: $0 * 4, as: UInt32.self) }
            }
            seat.events.append(.keyboardEnter(surface: id(surface), keys: list))
        },
        leave: { data, _, _, surface in from(data)?.events.append(.keyboardLeave(surface: id(surface))) },
        key: { data, _, serial, _, key, state in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            if state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue { seat.lastPressSerial = serial }
            seat.events.append(.key(key: key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
        },
        modifiers: { data, _, serial, depressed, latched, locked, group in
            guard let seat = from(data) else { return }
            seat.modifiersSerial = serial
            seat.events.append(.modifiers(depressed: depressed, latched: latched, locked: locked, group: group))
        },
        repeat_info: { data, _, rate, delay in from(data)?.events.append(.repeatInfo(rate: rate, delay: delay)) })

    private static var touchListener = wl_touch_listener(
        down: { data, _, serial, _, surface, touchID, x, y in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            seat.lastPressSerial = serial
            seat.events.append(
                .touchDown(surface: id(surface), id: touchID, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        up: { data, _, serial, _, touchID in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            seat.events.append(.touchUp(id: touchID))
        },
        motion: { data, _, _, touchID, x, y in
            from(data)?.events.append(.touchMotion(id: touchID, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        frame: { data, _ in from(data)?.events.append(.touchFrame) },
        cancel: { data, _ in from(data)?.events.append(.touchCancel) },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in })
}
