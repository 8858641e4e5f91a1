import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's zwp_text_input_v3, recording its events in order (surfaces by object id).
public final class TestTextInput {
    public enum Event: Equatable, CustomStringConvertible {
        case enter(surface: UInt32)
        case leave(surface: UInt32)
        case preeditString(String?, cursorBegin: Int32, cursorEnd: Int32)
        case commitString(String?)
        case deleteSurroundingText(before: UInt32, after: UInt32)
        case done(serial: UInt32)

        public var description: String {
            switch self {
            case .enter(let s): return "enter(\(s))"
            case .leave(let s): return "leave(\(s))"
            case .preeditString(let t, let b, let e): return "preedit_string(\(t ?? "nil"), \(b), \(e))"
            case .commitString(let t): return "commit_string(\(t ?? "nil"))"
            case .deleteSurroundingText(let b, let a): return "delete_surrounding_text(\(b), \(a))"
            case .done(let s): return "done(\(s))"
            }
        }
    }

    public let textInput: OpaquePointer
    public private(set) var events: [Event] = []
    /// Commits sent: the serial the compositor's done should carry.
    public private(set) var commits: UInt32 = 0

    public init(manager: OpaquePointer, seat: OpaquePointer) throws {
        guard let textInput = zwp_text_input_manager_v3_get_text_input(manager, seat) else {
            throw TestClient.Failure.connect("get_text_input failed")
        }
        self.textInput = textInput
        zwp_text_input_v3_add_listener(textInput, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Returns the events recorded so far and forgets them.
    public func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    public func enable() { zwp_text_input_v3_enable(textInput) }
    public func disable() { zwp_text_input_v3_disable(textInput) }
    public func commit() {
        commits += 1
        zwp_text_input_v3_commit(textInput)
    }
    public func destroy() { zwp_text_input_v3_destroy(textInput) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestTextInput? {
        data.map { Unmanaged<TestTextInput>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func id(_ proxy: OpaquePointer?) -> UInt32 { proxy.map { wl_proxy_get_id($0) } ?? 0 }
    private static func string(_ text: UnsafePointer<CChar>?) -> String? { text.map { String(cString: $0) } }

    private static var listener = zwp_text_input_v3_listener(
        enter: { data, _, surface in from(data)?.events.append(.enter(surface: id(surface))) },
        leave: { data, _, surface in from(data)?.events.append(.leave(surface: id(surface))) },
        preedit_string: { data, _, text, begin, end in
            from(data)?.events.append(.preeditString(string(text), cursorBegin: begin, cursorEnd: end))
        },
        commit_string: { data, _, text in from(data)?.events.append(.commitString(string(text))) },
        delete_surrounding_text: { data, _, before, after in
            from(data)?.events.append(.deleteSurroundingText(before: before, after: after))
        },
        done: { data, _, serial in from(data)?.events.append(.done(serial: serial)) })
}

/// A test client's zwp_input_method_v2, recording its events in order, with its keyboard grab
/// and popup surfaces.
public final class TestInputMethod {
    public enum Event: Equatable, CustomStringConvertible {
        case activate
        case deactivate
        case surroundingText(String, cursor: UInt32, anchor: UInt32)
        case textChangeCause(UInt32)
        case contentType(hint: UInt32, purpose: UInt32)
        case done
        case unavailable

        public var description: String {
            switch self {
            case .activate: return "activate"
            case .deactivate: return "deactivate"
            case .surroundingText(let t, let c, let a): return "surrounding_text(\(t), \(c), \(a))"
            case .textChangeCause(let c): return "text_change_cause(\(c))"
            case .contentType(let h, let p): return "content_type(\(h), \(p))"
            case .done: return "done"
            case .unavailable: return "unavailable"
            }
        }
    }

    public let inputMethod: OpaquePointer
    public private(set) var events: [Event] = []
    /// done events received: what commit quotes.
    public private(set) var doneCount: UInt32 = 0

    public init(manager: OpaquePointer, seat: OpaquePointer) throws {
        guard let inputMethod = zwp_input_method_manager_v2_get_input_method(manager, seat) else {
            throw TestClient.Failure.connect("get_input_method failed")
        }
        self.inputMethod = inputMethod
        zwp_input_method_v2_add_listener(inputMethod, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    public func commitString(_ text: String) { zwp_input_method_v2_commit_string(inputMethod, text) }
    public func setPreedit(_ text: String, cursorBegin: Int32, cursorEnd: Int32) {
        zwp_input_method_v2_set_preedit_string(inputMethod, text, cursorBegin, cursorEnd)
    }
    public func deleteSurroundingText(before: UInt32, after: UInt32) {
        zwp_input_method_v2_delete_surrounding_text(inputMethod, before, after)
    }
    public func commit() { zwp_input_method_v2_commit(inputMethod, doneCount) }
    public func destroy() { zwp_input_method_v2_destroy(inputMethod) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestInputMethod? {
        data.map { Unmanaged<TestInputMethod>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = zwp_input_method_v2_listener(
        activate: { data, _ in from(data)?.events.append(.activate) },
        deactivate: { data, _ in from(data)?.events.append(.deactivate) },
        surrounding_text: { data, _, text, cursor, anchor in
            from(data)?.events.append(
                .surroundingText(text.map { String(cString: $0) } ?? "", cursor: cursor, anchor: anchor))
        },
        text_change_cause: { data, _, cause in from(data)?.events.append(.textChangeCause(cause)) },
        content_type: { data, _, hint, purpose in from(data)?.events.append(.contentType(hint: hint, purpose: purpose))
        },
        done: { data, _ in
            guard let im = from(data) else { return }
            im.doneCount += 1
            im.events.append(.done)
        },
        unavailable: { data, _ in from(data)?.events.append(.unavailable) })
}

/// A test client's zwp_input_method_keyboard_grab_v2, recording keys (evdev codes) and whether
/// a keymap arrived.
public final class TestInputMethodKeyboardGrab {
    public let grab: OpaquePointer
    public private(set) var keys: [(key: UInt32, pressed: Bool)] = []
    public private(set) var keymapSize: UInt32?
    public private(set) var modifiersEvents = 0
    public private(set) var repeatInfo: (rate: Int32, delay: Int32)?

    public init(inputMethod: TestInputMethod) throws {
        guard let grab = zwp_input_method_v2_grab_keyboard(inputMethod.inputMethod) else {
            throw TestClient.Failure.connect("grab_keyboard failed")
        }
        self.grab = grab
        zwp_input_method_keyboard_grab_v2_add_listener(grab, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public func release() { zwp_input_method_keyboard_grab_v2_release(grab) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestInputMethodKeyboardGrab? {
        data.map { Unmanaged<TestInputMethodKeyboardGrab>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = zwp_input_method_keyboard_grab_v2_listener(
        keymap: { data, _, _, fd, size in
            close(fd)
            from(data)?.keymapSize = size
        },
        key: { data, _, _, _, key, state in
            from(data)?.keys.append((key, state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
        },
        modifiers: { data, _, _, _, _, _, _ in from(data)?.modifiersEvents += 1 },
        repeat_info: { data, _, rate, delay in from(data)?.repeatInfo = (rate, delay) })
}

/// A test client's zwp_input_popup_surface_v2, recording the text input rectangles it is told.
public final class TestInputPopupSurface {
    public let popup: OpaquePointer
    public private(set) var rectangles: [(x: Int32, y: Int32, width: Int32, height: Int32)] = []

    public init(inputMethod: TestInputMethod, surface: OpaquePointer) throws {
        guard let popup = zwp_input_method_v2_get_input_popup_surface(inputMethod.inputMethod, surface) else {
            throw TestClient.Failure.connect("get_input_popup_surface failed")
        }
        self.popup = popup
        zwp_input_popup_surface_v2_add_listener(popup, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public func destroy() { zwp_input_popup_surface_v2_destroy(popup) }

    private static var listener = zwp_input_popup_surface_v2_listener(
        text_input_rectangle: { data, _, x, y, width, height in
            guard let data else { return }
            Unmanaged<TestInputPopupSurface>.fromOpaque(data).takeUnretainedValue().rectangles.append(
                (x, y, width, height))
        })
}
