import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Helpers of the XWM suites: a server with Xwayland started in process, and the test as an X
/// client over xcb (windows, atoms, properties, client messages to the root).
enum XTestHarness {
    /// Whether the Xwayland these suites start is there (`STRATA_XWAYLAND`, else `Xwayland` on
    /// PATH): a suite that needs it is `.enabled(if: XTestHarness.isInstalled, …)`, so a missing
    /// Xwayland is a skip, not a failure of every test.
    static var isInstalled: Bool {
        if let path = ProcessInfo.processInfo.environment["STRATA_XWAYLAND"] {
            return FileManager.default.isExecutableFile(atPath: path)
        }
        return TestProcess.isInstalled("Xwayland")
    }
    static let missingMessage: Comment = "Xwayland is not installed (Debian: apt-get install xwayland)"

    /// A server with Xwayland started and its window manager connected.
    static func start(
        width: Int = 640, height: Int = 480, policy: KeyWindowPolicy = UIKitKeyWindowPolicy(),
        budget: ClientBudget.Limits = .xwayland
    ) throws -> (TestServer, Xwayland) {
        let server = try TestServer(
            modes: [ScreenMode(width: width, height: height, refreshMilliHz: 60_000)], policy: policy)
        let xwayland = try Xwayland(
            compositor: server.compositor,
            executable: ProcessInfo.processInfo.environment["STRATA_XWAYLAND"] ?? "Xwayland")
        xwayland.budgetLimits = budget
        server.compositor.xwayland = xwayland
        if case .failure(let error) = xwayland.start() { throw error }
        guard server.run(seconds: 30, until: { xwayland.wm != nil }) else {
            xwayland.shutdown()
            throw XwaylandError.setup("the XWM did not connect")
        }
        return (server, xwayland)
    }

    /// `start()`, with the window manager itself.
    static func startWithWM() throws -> (TestServer, Xwayland, XWM) {
        let (server, xwayland) = try start()
        guard let wm = xwayland.wm else {
            xwayland.shutdown()
            throw XwaylandError.setup("the XWM did not connect")
        }
        return (server, xwayland, wm)
    }

    /// A selection test's X client (`TestXSelectionClient`) of `xwayland`'s display.
    static func selectionClient(_ xwayland: Xwayland) throws -> TestXSelectionClient {
        try #require(TestXSelectionClient(display: xwayland.displayName), "cannot connect to \(xwayland.displayName)")
    }

    static func connect(_ xwayland: Xwayland) -> OpaquePointer? {
        guard let c = xcb_connect(xwayland.displayName, nil) else { return nil }
        guard xcb_connection_has_error(c) == 0 else {
            xcb_disconnect(c)
            return nil
        }
        return c
    }

    static func root(_ c: OpaquePointer) -> xcb_window_t {
        xcb_setup_roots_iterator(xcb_get_setup(c)).data?.pointee.root ?? 0
    }

    /// A top-level X window with a solid background pixel (white unless given).
    static func createWindow(
        _ c: OpaquePointer, x: Int16, y: Int16, width: UInt16, height: UInt16,
        overrideRedirect: Bool = false, pixel: UInt32? = nil
    ) -> xcb_window_t {
        guard let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data else { return 0 }
        let window = xcb_generate_id(c)
        var values: [UInt32] = [pixel ?? screen.pointee.white_pixel, overrideRedirect ? 1 : 0]
        xcb_create_window(
            c, UInt8(XCB_COPY_FROM_PARENT), window, screen.pointee.root, x, y, width, height, 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual,
            XCB_CW_BACK_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue, &values)
        return window
    }

    static func atom(_ c: OpaquePointer, _ name: String) -> xcb_atom_t {
        let cookie = xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(c, cookie, nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.atom
    }

    static func bytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8 & 0xff), UInt8($0 >> 16 & 0xff), UInt8($0 >> 24)] }
    }

    static func set(
        _ c: OpaquePointer, _ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t,
        format: UInt8, _ bytes: [UInt8]
    ) {
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, format,
            UInt32(bytes.count / Int(format / 8)), bytes)
    }

    static func setClass(_ c: OpaquePointer, _ window: xcb_window_t, _ name: String) {
        set(
            c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("x\0\(name)\0".utf8)
        )
    }

    /// A property's 32-bit values (empty when unset).
    static func words(_ c: OpaquePointer, _ window: xcb_window_t, _ property: xcb_atom_t) -> [UInt32] {
        guard
            let reply = xcb_get_property_reply(
                c, xcb_get_property(c, 0, window, property, XCB_ATOM_ANY.rawValue, 0, 1024), nil)
        else { return [] }
        defer { free(reply) }
        let count = Int(xcb_get_property_value_length(reply)) / 4
        guard count > 0, let value = xcb_get_property_value(reply) else { return [] }
        return Array(UnsafeBufferPointer(start: value.assumingMemoryBound(to: UInt32.self), count: count))
    }

    /// A client message about `window` sent to the root (as EWMH asks: the window manager gets
    /// it); `format` other than EWMH's 32 for hostile tests.
    static func sendToRoot(
        _ c: OpaquePointer, window: xcb_window_t, type: xcb_atom_t, format: UInt8 = 32, _ data: [UInt32]
    ) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = format
        event.window = window
        event.type = type
        withUnsafeMutableBytes(of: &event.data) { raw in
            for (index, word) in data.prefix(5).enumerated() {
                raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self)
            }
        }
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(
                    c, 0, root(c),
                    XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue,
                    chars.baseAddress)
            }
        }
    }

    static func geometry(_ c: OpaquePointer, _ window: xcb_window_t) -> Rect? {
        guard let reply = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), nil) else { return nil }
        defer { free(reply) }
        return Rect(
            x: Int(reply.pointee.x), y: Int(reply.pointee.y), width: Int(reply.pointee.width),
            height: Int(reply.pointee.height))
    }

    static func x11Windows(_ server: TestServer) -> [Window] {
        server.windows.windows.filter { $0.content?.kind == "x11" }
    }
}
