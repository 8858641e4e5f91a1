import CXCB
@testable import StrataServer
import Testing

/// The XWM's translation of X events, fed synthetic xcb events without an X server: what X
/// reports is taken from the server only, client messages decode into typed requests, and the
/// requests' decisions (the states a `_NET_WM_STATE` message leaves, the geometry a
/// ConfigureRequest asks) follow EWMH and ICCCM.
@Suite struct XWMEventTests {
    static let atoms = XAtoms(
        values: Dictionary(uniqueKeysWithValues: XAtoms.names.enumerated().map { ($1, UInt32(100 + $0)) }))

    static func decode<Event>(_ event: Event, synthetic: Bool = false) -> XWMEvent? {
        var bytes = withUnsafeBytes(of: event) { Array($0) } + [UInt8](repeating: 0, count: 32)
        if synthetic { bytes[0] |= 0x80 }
        return bytes.withUnsafeBytes { XWMEvent($0, atoms: atoms) }
    }

    static func message(
        _ type: String, _ data: [UInt32], window: UInt32 = 0x40_0001, format: UInt8 = 32,
        synthetic: Bool = true
    ) -> XWMEvent? {
        var e = xcb_client_message_event_t()
        e.response_type = UInt8(XCB_CLIENT_MESSAGE)
        e.format = format
        e.window = window
        e.type = atoms[type]
        e.data.data32 = (data[0], data[1], data[2], data[3], data[4])
        return decode(e, synthetic: synthetic)
    }

    @Test func theServersWindowReportsDecode() {
        var map = xcb_map_request_event_t()
        map.response_type = UInt8(XCB_MAP_REQUEST)
        map.window = 0x40_0001
        #expect(Self.decode(map) == .mapRequest(window: 0x40_0001))
        var create = xcb_create_notify_event_t()
        create.response_type = UInt8(XCB_CREATE_NOTIFY)
        create.parent = 7
        create.window = 0x40_0002
        create.x = -5
        create.width = 300
        create.height = 200
        create.override_redirect = 1
        #expect(
            Self.decode(create)
                == .create(
                    window: 0x40_0002, parent: 7, overrideRedirect: true,
                    geometry: XGeometry(x: -5, y: 0, width: 300, height: 200)))
        var property = xcb_property_notify_event_t()
        property.response_type = UInt8(XCB_PROPERTY_NOTIFY)
        property.window = 0x40_0001
        property.atom = Self.atoms["_NET_WM_NAME"]
        #expect(Self.decode(property) == .propertyNotify(window: 0x40_0001, atom: Self.atoms["_NET_WM_NAME"]))
        var configure = xcb_configure_notify_event_t()
        configure.response_type = UInt8(XCB_CONFIGURE_NOTIFY)
        configure.window = 0x40_0001
        configure.x = 10
        configure.y = 20
        configure.width = 30
        configure.height = 40
        #expect(
            Self.decode(configure)
                == .configureNotify(window: 0x40_0001, geometry: XGeometry(x: 10, y: 20, width: 30, height: 40)))
    }

    @Test func forgedReportsOfTheServerAreNoEvents() {
        var map = xcb_map_request_event_t()
        map.response_type = UInt8(XCB_MAP_REQUEST)
        map.window = 0x40_0001
        #expect(Self.decode(map, synthetic: true) == nil)
        var destroy = xcb_destroy_notify_event_t()
        destroy.response_type = UInt8(XCB_DESTROY_NOTIFY)
        destroy.window = 0x40_0001
        #expect(Self.decode(destroy) == .destroy(window: 0x40_0001))
        #expect(Self.decode(destroy, synthetic: true) == nil)
        var request = xcb_configure_request_event_t()
        request.response_type = UInt8(XCB_CONFIGURE_REQUEST)
        #expect(Self.decode(request, synthetic: true) == nil)
        // Too few bytes, and events the XWM does not read.
        #expect(
            [UInt8](repeating: UInt8(XCB_MAP_REQUEST), count: 31).withUnsafeBytes { XWMEvent($0, atoms: Self.atoms) }
                == nil)
        var motion = xcb_motion_notify_event_t()
        motion.response_type = UInt8(XCB_MOTION_NOTIFY)
        #expect(Self.decode(motion) == nil)
    }

    @Test func aConfigureRequestAsksForTheFieldsItsMaskNames() throws {
        var e = xcb_configure_request_event_t()
        e.response_type = UInt8(XCB_CONFIGURE_REQUEST)
        e.window = 0x40_0001
        e.x = 50
        e.y = 60
        e.width = 0
        e.height = 9000
        e.value_mask = UInt16(
            XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue)
        guard case .configureRequest(let request) = Self.decode(e) else {
            Issue.record("not a configure request"); return
        }
        #expect(request == XConfigureRequest(window: 0x40_0001, x: 50, width: 0, height: 9000))
        // Y from the window; the size clamped to 1…8192.
        let current = XGeometry(x: 1, y: 2, width: 3, height: 4)
        #expect(request.geometry(over: current) == XGeometry(x: 50, y: 2, width: 1, height: 8192))
        #expect(XConfigureRequest(window: 1).geometry(over: current) == current)
    }

    @Test func clientMessagesDecodeIntoRequests() {
        #expect(
            Self.message("_NET_ACTIVE_WINDOW", [1, 1234, 0, 0, 0])
                == .clientMessage(
                    window: 0x40_0001, message: .activate(timestamp: 1234), isSynthetic: true))
        #expect(
            Self.message("_NET_WM_MOVERESIZE", [10, 20, 8, 1, 1])
                == .clientMessage(
                    window: 0x40_0001, message: .moveResize(direction: 8), isSynthetic: true))
        #expect(
            Self.message("WM_CHANGE_STATE", [3, 0, 0, 0, 0])
                == .clientMessage(
                    window: 0x40_0001, message: .iconify, isSynthetic: true))
        #expect(Self.message("WM_CHANGE_STATE", [1, 0, 0, 0, 0]) == nil)
        #expect(
            Self.message("WL_SURFACE_ID", [42, 0, 0, 0, 0], synthetic: false)
                == .clientMessage(
                    window: 0x40_0001, message: .surfaceID(42), isSynthetic: false))
        #expect(
            Self.message("WL_SURFACE_SERIAL", [2, 1, 0, 0, 0], synthetic: false)
                == .clientMessage(
                    window: 0x40_0001, message: .surfaceSerial(1 << 32 | 2), isSynthetic: false))
        // A client's WL_SURFACE_ID keeps its synthetic bit, for the XWM to refuse it.
        guard case .clientMessage(_, let forged, true) = Self.message("WL_SURFACE_ID", [42, 0, 0, 0, 0]) else {
            Issue.record("a sent WL_SURFACE_ID is not decoded as sent")
            return
        }
        #expect(forged.isFromXServerOnly && !XClientMessage.activate(timestamp: 0).isFromXServerOnly)
        // Another format, an unknown type, an action past toggle.
        #expect(Self.message("_NET_ACTIVE_WINDOW", [1, 1234, 0, 0, 0], format: 8) == nil)
        #expect(Self.message("TARGETS", [1, 0, 0, 0, 0]) == nil)
        #expect(Self.message("_NET_WM_STATE", [3, Self.atoms["_NET_WM_STATE_FULLSCREEN"], 0, 0, 0]) == nil)
    }

    @Test func stateMessagesAddRemoveAndToggleOnce() throws {
        let vertical = Self.atoms["_NET_WM_STATE_MAXIMIZED_VERT"],
            horizontal = Self.atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]
        let fullscreen = Self.atoms["_NET_WM_STATE_FULLSCREEN"], above = Self.atoms["_NET_WM_STATE_ABOVE"]
        func request(_ action: UInt32, _ first: UInt32, _ second: UInt32) throws -> NetWMStateRequest {
            guard
                case .clientMessage(_, .state(let request), _) = Self.message(
                    "_NET_WM_STATE", [action, first, second, 1, 0])
            else {
                throw DecodeFailure()
            }
            return request
        }
        let none = NetWMStates()
        let maximized = try request(1, vertical, horizontal).applied(to: none)
        #expect(maximized == NetWMStates(maximizedVertically: true, maximizedHorizontally: true))
        #expect(try request(0, horizontal, 0).applied(to: maximized) == NetWMStates(maximizedVertically: true))
        #expect(
            try request(2, fullscreen, above).applied(to: maximized)
                == NetWMStates(maximizedVertically: true, maximizedHorizontally: true, fullscreen: true, above: true))
        // The same atom twice toggles once; unknown atoms change nothing.
        #expect(try request(2, fullscreen, fullscreen).applied(to: none) == NetWMStates(fullscreen: true))
        #expect(try request(1, Self.atoms["TARGETS"], 12345).applied(to: maximized) == maximized)
    }

    struct DecodeFailure: Error {}
}

/// The EWMH messages of X tools (`wmctrl`, `xdotool`) decoded: only format 32, the fields
/// `_NET_MOVERESIZE_WINDOW`'s flags name, sizes past Int32 clamped, pongs by the window they name.
@Suite struct XWMEWMHMessageTests {
    private typealias E = XWMEventTests

    @Test func toolMessagesDecodeIntoRequests() {
        let window: UInt32 = 0x40_0001
        #expect(
            E.message("_NET_CLOSE_WINDOW", [0, 2, 0, 0, 0])
                == .clientMessage(window: window, message: .close, isSynthetic: true))
        #expect(E.message("_NET_CLOSE_WINDOW", [0, 2, 0, 0, 0], format: 8) == nil)
        #expect(E.message("_NET_CLOSE_WINDOW", [0, 2, 0, 0, 0], format: 16) == nil)
        #expect(
            E.message("_NET_WM_DESKTOP", [7, 2, 0, 0, 0])
                == .clientMessage(window: window, message: .desktop(7), isSynthetic: true))
        #expect(
            E.message("_NET_CURRENT_DESKTOP", [3, 0, 0, 0, 0])
                == .clientMessage(window: window, message: .currentDesktop(3), isSynthetic: true))
        #expect(
            E.message("_NET_REQUEST_FRAME_EXTENTS", [0, 0, 0, 0, 0])
                == .clientMessage(window: window, message: .requestFrameExtents, isSynthetic: true))
        #expect(
            E.message("_NET_MOVERESIZE_WINDOW", [0xF00 | 2 << 12, 0xFFFF_FFF6, 20, 300, 200])
                == .clientMessage(
                    window: window, message: .moveResizeWindow(x: -10, y: 20, width: 300, height: 200),
                    isSynthetic: true))
        #expect(
            E.message("_NET_MOVERESIZE_WINDOW", [0x500, 1, 2, 3, 4])
                == .clientMessage(
                    window: window, message: .moveResizeWindow(x: 1, y: nil, width: 3, height: nil), isSynthetic: true))
        #expect(
            E.message("_NET_MOVERESIZE_WINDOW", [0xC00, 1, 2, 0xFFFF_FFFF, 0x8000_0000])
                == .clientMessage(
                    window: window, message: .moveResizeWindow(x: nil, y: nil, width: .max, height: .max),
                    isSynthetic: true))
        let ping = E.atoms["_NET_WM_PING"]
        #expect(
            E.message("WM_PROTOCOLS", [ping, 0, window, 0, 0])
                == .clientMessage(window: window, message: .pong(window: window), isSynthetic: true))
        // Another protocol sent to the root is no pong.
        #expect(E.message("WM_PROTOCOLS", [E.atoms["WM_DELETE_WINDOW"], 0, window, 0, 0]) == nil)
        // The request decoded as a ConfigureRequest's: sizes clamped to 8192.
        let request = XConfigureRequest(window: window, x: nil, y: nil, width: .max, height: 0)
        #expect(
            request.geometry(over: XGeometry(x: 5, y: 6, width: 7, height: 8))
                == XGeometry(x: 5, y: 6, width: 8192, height: 1))
    }
}
