import CXCB

/// An X event about windows as the XWM reads it, decoded from the event's bytes. What the X
/// server reports (creation, mapping, configuration, properties) is taken from the server only:
/// a client can send any event to the root (SendEvent, which sets the synthetic bit), naming
/// another client's window, so a synthetic report is no event (nil). Client messages are
/// requests by design (EWMH and ICCCM send them to the root) and keep their synthetic bit.
enum XWMEvent: Equatable {
    case create(window: UInt32, parent: UInt32, overrideRedirect: Bool, geometry: XGeometry)
    case destroy(window: UInt32)
    case mapRequest(window: UInt32)
    case mapNotify(window: UInt32)
    case unmapNotify(window: UInt32)
    case configureRequest(XConfigureRequest)
    case configureNotify(window: UInt32, geometry: XGeometry)
    case propertyNotify(window: UInt32, atom: UInt32)
    case clientMessage(window: UInt32, message: XClientMessage, isSynthetic: Bool)

    /// Decodes the event in `bytes` (an X event is 32 bytes); nil for an event of another kind,
    /// a synthetic report, a client message the XWM does not read, or too few bytes.
    init?(_ bytes: UnsafeRawBufferPointer, atoms: XAtoms) {
        guard bytes.count >= 32 else { return nil }
        let isSynthetic = bytes[0] & 0x80 != 0
        let type = Int32(bytes[0] & 0x7f)
        if type == XCB_CLIENT_MESSAGE {
            let e = bytes.loadUnaligned(as: xcb_client_message_event_t.self)
            let d = e.data.data32
            guard
                let message = XClientMessage(
                    type: e.type, format: e.format, data: [d.0, d.1, d.2, d.3, d.4], atoms: atoms)
            else { return nil }
            self = .clientMessage(window: e.window, message: message, isSynthetic: isSynthetic)
            return
        }
        guard !isSynthetic else { return nil }
        switch type {
        case XCB_CREATE_NOTIFY:
            let e = bytes.loadUnaligned(as: xcb_create_notify_event_t.self)
            self = .create(
                window: e.window, parent: e.parent, overrideRedirect: e.override_redirect != 0,
                geometry: XGeometry(x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height)))
        case XCB_DESTROY_NOTIFY:
            self = .destroy(window: bytes.loadUnaligned(as: xcb_destroy_notify_event_t.self).window)
        case XCB_MAP_REQUEST:
            self = .mapRequest(window: bytes.loadUnaligned(as: xcb_map_request_event_t.self).window)
        case XCB_MAP_NOTIFY:
            self = .mapNotify(window: bytes.loadUnaligned(as: xcb_map_notify_event_t.self).window)
        case XCB_UNMAP_NOTIFY:
            self = .unmapNotify(window: bytes.loadUnaligned(as: xcb_unmap_notify_event_t.self).window)
        case XCB_CONFIGURE_REQUEST:
            self = .configureRequest(XConfigureRequest(bytes.loadUnaligned(as: xcb_configure_request_event_t.self)))
        case XCB_CONFIGURE_NOTIFY:
            let e = bytes.loadUnaligned(as: xcb_configure_notify_event_t.self)
            self = .configureNotify(
                window: e.window,
                geometry: XGeometry(x: Int32(e.x), y: Int32(e.y), width: Int32(e.width), height: Int32(e.height)))
        case XCB_PROPERTY_NOTIFY:
            let e = bytes.loadUnaligned(as: xcb_property_notify_event_t.self)
            self = .propertyNotify(window: e.window, atom: e.atom)
        default:
            return nil
        }
    }
}

/// An X window's geometry in root coordinates.
struct XGeometry: Equatable {
    var x: Int32, y: Int32, width: Int32, height: Int32
}

/// A ConfigureRequest: the fields its mask names.
struct XConfigureRequest: Equatable {
    let window: UInt32
    var x: Int32?, y: Int32?, width: Int32?, height: Int32?

    init(window: UInt32, x: Int32? = nil, y: Int32? = nil, width: Int32? = nil, height: Int32? = nil) {
        self.window = window
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(_ e: xcb_configure_request_event_t) {
        let mask = UInt32(e.value_mask)
        func has(_ field: xcb_config_window_t) -> Bool { mask & field.rawValue != 0 }
        self.init(
            window: e.window, x: has(XCB_CONFIG_WINDOW_X) ? Int32(e.x) : nil,
            y: has(XCB_CONFIG_WINDOW_Y) ? Int32(e.y) : nil,
            width: has(XCB_CONFIG_WINDOW_WIDTH) ? Int32(e.width) : nil,
            height: has(XCB_CONFIG_WINDOW_HEIGHT) ? Int32(e.height) : nil)
    }

    /// The geometry asked for: the named fields over `current`, the size clamped to 1…8192.
    func geometry(over current: XGeometry) -> XGeometry {
        XGeometry(
            x: x ?? current.x, y: y ?? current.y, width: min(max(width ?? current.width, 1), 8192),
            height: min(max(height ?? current.height, 1), 8192))
    }
}

/// The client messages the XWM reads, decoded (the format must be 32).
enum XClientMessage: Equatable {
    /// Xwayland 22's `WL_SURFACE_ID`: the window's wl_surface id.
    case surfaceID(UInt32)
    /// `WL_SURFACE_SERIAL` (xwayland_shell_v1): the serial of the window's surface (low word
    /// first; 0 is none).
    case surfaceSerial(UInt64)
    /// `_NET_ACTIVE_WINDOW`: activate, with the requester's user time.
    case activate(timestamp: UInt32)
    /// `_NET_WM_STATE`: add, remove or toggle one or two states.
    case state(NetWMStateRequest)
    /// `_NET_WM_MOVERESIZE`: the direction (0–7 edges, 8 move, 9–11 keyboard and cancel).
    case moveResize(direction: UInt32)
    /// `WM_CHANGE_STATE` with IconicState: iconify.
    case iconify
    /// `_NET_CLOSE_WINDOW`: close the window (a pager or a script's request).
    case close
    /// `_NET_WM_DESKTOP`: move the window to that desktop (0xFFFFFFFF: all).
    case desktop(UInt32)
    /// `_NET_CURRENT_DESKTOP` (to the root): show that desktop.
    case currentDesktop(UInt32)
    /// `_NET_REQUEST_FRAME_EXTENTS`: set `_NET_FRAME_EXTENTS` (before mapping).
    case requestFrameExtents
    /// `_NET_MOVERESIZE_WINDOW`: the fields its flags (bits 8–11 of `l[0]`) name; the gravity is
    /// not read (Strata draws no frames: every gravity places the client area the same).
    case moveResizeWindow(x: Int32?, y: Int32?, width: Int32?, height: Int32?)
    /// `WM_PROTOCOLS` `_NET_WM_PING` sent back to the root: the client of `window` answers.
    case pong(window: UInt32)

    init?(type: UInt32, format: UInt8, data: [UInt32], atoms: XAtoms) {
        guard format == 32, data.count >= 5, type != 0 else { return nil }
        switch type {
        case atoms["WL_SURFACE_ID"]: self = .surfaceID(data[0])
        case atoms["WL_SURFACE_SERIAL"]: self = .surfaceSerial(UInt64(data[1]) << 32 | UInt64(data[0]))
        case atoms["_NET_ACTIVE_WINDOW"]: self = .activate(timestamp: data[1])
        case atoms["_NET_WM_STATE"]:
            guard let request = NetWMStateRequest(action: data[0], first: data[1], second: data[2], atoms: atoms) else {
                return nil
            }
            self = .state(request)
        case atoms["_NET_WM_MOVERESIZE"]: self = .moveResize(direction: data[2])
        case atoms["WM_CHANGE_STATE"]:
            guard data[0] == 3 else { return nil }
            self = .iconify
        case atoms["_NET_CLOSE_WINDOW"]: self = .close
        case atoms["_NET_WM_DESKTOP"]: self = .desktop(data[0])
        case atoms["_NET_CURRENT_DESKTOP"]: self = .currentDesktop(data[0])
        case atoms["_NET_REQUEST_FRAME_EXTENTS"]: self = .requestFrameExtents
        case atoms["_NET_MOVERESIZE_WINDOW"]:
            func field(_ bit: UInt32, _ value: UInt32, size: Bool) -> Int32? {
                guard data[0] & 1 << bit != 0 else { return nil }
                // Sizes are unsigned (clamped later to 1…8192); positions are signed.
                return size ? Int32(clamping: value) : Int32(bitPattern: value)
            }
            self = .moveResizeWindow(
                x: field(8, data[1], size: false), y: field(9, data[2], size: false),
                width: field(10, data[3], size: true), height: field(11, data[4], size: true))
        case atoms["WM_PROTOCOLS"]:
            guard data[0] == atoms["_NET_WM_PING"], data[0] != 0 else { return nil }
            self = .pong(window: data[2])
        default: return nil
        }
    }

    /// Whether only the X server may send it (Xwayland's surface association).
    var isFromXServerOnly: Bool {
        switch self {
        case .surfaceID, .surfaceSerial: return true
        default: return false
        }
    }
}

/// The `_NET_WM_STATE` states the XWM keeps of a window.
struct NetWMStates: Equatable {
    var maximizedVertically = false
    var maximizedHorizontally = false
    var fullscreen = false
    var above = false
    var modal = false
}

/// A `_NET_WM_STATE` client message: action 0 removes, 1 adds, 2 toggles the one or two states
/// named. Another action is no request; unknown atoms change nothing; the same atom twice
/// changes once.
struct NetWMStateRequest: Equatable {
    enum Action: UInt32 { case remove = 0, add = 1, toggle = 2 }
    enum State: Equatable { case maximizedVertically, maximizedHorizontally, fullscreen, above, modal }
    let action: Action
    let states: [State]

    init(action: Action, states: [State]) {
        self.action = action
        self.states = states
    }

    init?(action: UInt32, first: UInt32, second: UInt32, atoms: XAtoms) {
        guard let action = Action(rawValue: action) else { return nil }
        func state(_ atom: UInt32) -> State? {
            switch atom {
            case 0: return nil
            case atoms["_NET_WM_STATE_MAXIMIZED_VERT"]: return .maximizedVertically
            case atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]: return .maximizedHorizontally
            case atoms["_NET_WM_STATE_FULLSCREEN"]: return .fullscreen
            case atoms["_NET_WM_STATE_ABOVE"]: return .above
            case atoms["_NET_WM_STATE_MODAL"]: return .modal
            default: return nil
            }
        }
        let named = first == second ? [first] : [first, second]
        self.init(action: action, states: named.compactMap(state))
    }

    /// `current` with the request applied.
    func applied(to current: NetWMStates) -> NetWMStates {
        var result = current
        func changed(_ value: Bool) -> Bool { action == .toggle ? !value : action == .add }
        for state in states {
            switch state {
            case .maximizedVertically: result.maximizedVertically = changed(result.maximizedVertically)
            case .maximizedHorizontally: result.maximizedHorizontally = changed(result.maximizedHorizontally)
            case .fullscreen: result.fullscreen = changed(result.fullscreen)
            case .above: result.above = changed(result.above)
            case .modal: result.modal = changed(result.modal)
            }
        }
        return result
    }
}
