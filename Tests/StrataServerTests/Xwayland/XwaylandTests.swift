import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Rootless Xwayland started in process (a real Xwayland, Debian's `xwayland`) with the test as
/// an X client over xcb: what the XWM makes of a well-behaved window, and of a hostile one.
@Suite("Xwayland and the XWM", .serialized)
struct XwaylandTests {
    /// A server with Xwayland started and its window manager connected.
    private static func start() throws -> (TestServer, Xwayland) {
        try XTestHarness.start()
    }

    /// A top-level X window with a white background (so Xwayland draws it).
    private static func createWindow(
        _ c: OpaquePointer, x: Int16, y: Int16, width: UInt16, height: UInt16,
        overrideRedirect: Bool = false
    ) -> xcb_window_t {
        let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data!
        let window = xcb_generate_id(c)
        var values: [UInt32] = [screen.pointee.white_pixel, overrideRedirect ? 1 : 0]
        xcb_create_window(
            c, UInt8(XCB_COPY_FROM_PARENT), window, screen.pointee.root, x, y, width, height, 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual,
            XCB_CW_BACK_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue, &values)
        return window
    }

    private static func connect(_ xwayland: Xwayland) -> OpaquePointer? {
        guard let c = xcb_connect(xwayland.displayName, nil) else { return nil }
        guard xcb_connection_has_error(c) == 0 else {
            xcb_disconnect(c)
            return nil
        }
        return c
    }

    private static func atom(_ c: OpaquePointer, _ name: String) -> xcb_atom_t {
        let cookie = xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(c, cookie, nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.atom
    }

    private static func set(
        _ c: OpaquePointer, _ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t,
        format: UInt8, _ bytes: [UInt8]
    ) {
        xcb_change_property(
            c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, format,
            UInt32(bytes.count / Int(format / 8)), bytes)
    }

    private static func x11Windows(_ server: TestServer) -> [Window] {
        server.windows.windows.filter { $0.content?.kind == "x11" }
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aMappedXWindowBecomesAKeyModelWindowWithItsClassTitleAndPid() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        guard let c = xcb_connect(xwayland.displayName, nil), xcb_connection_has_error(c) == 0 else {
            Issue.record("cannot connect to \(xwayland.displayName)")
            return
        }
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: 0, y: 0, width: 120, height: 90)
        Self.set(
            c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
            Array("inst\0Klass\0".utf8))
        Self.set(
            c, window, Self.atom(c, "_NET_WM_NAME"), type: Self.atom(c, "UTF8_STRING"), format: 8, Array("Hello X".utf8)
        )
        Self.set(
            c, window, Self.atom(c, "_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 32, [0x92, 0x10, 0, 0])
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isVisible == true })
        let model = try #require(Self.x11Windows(server).first)
        #expect(model.appID == "Klass")
        #expect(model.title == "Hello X")
        #expect(model.pid == 4242)
        #expect(model.isKeyWindow)
        #expect(model.frame.size == Size(width: 120, height: 90))
        // Close without WM_DELETE_WINDOW: the client is killed, its window closes.
        model.content?.closeRequest()
        #expect(server.run(seconds: 20) { Self.x11Windows(server).isEmpty })
        #expect(model.isClosed)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aHostileXClientWithAbsurdPropertiesAndAMapLoopDoesNotTakeStrataDown() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        guard let c = xcb_connect(xwayland.displayName, nil), xcb_connection_has_error(c) == 0 else {
            Issue.record("cannot connect to \(xwayland.displayName)")
            return
        }
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: -30000, y: 30000, width: 60, height: 40)
        // 200 kB titles (one invalid UTF-8), a class without NULs, a pid of 3 bytes, itself as
        // its transient parent, protocols and types of unknown atoms.
        Self.set(
            c, window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
            [UInt8](repeating: 0x41, count: 200_000))
        Self.set(
            c, window, Self.atom(c, "_NET_WM_NAME"), type: Self.atom(c, "UTF8_STRING"), format: 8,
            [UInt8](repeating: 0xff, count: 200_000))
        Self.set(
            c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
            [UInt8](repeating: 0x42, count: 100_000))
        Self.set(c, window, Self.atom(c, "_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 8, [1, 2, 3])
        let selfID = [UInt8(window & 0xff), UInt8(window >> 8 & 0xff), UInt8(window >> 16 & 0xff), UInt8(window >> 24)]
        Self.set(c, window, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32, selfID)
        Self.set(
            c, window, Self.atom(c, "WM_PROTOCOLS"), type: XCB_ATOM_ATOM.rawValue, format: 32,
            [UInt8](repeating: 0xee, count: 4000))
        Self.set(
            c, window, Self.atom(c, "_NET_WM_WINDOW_TYPE"), type: XCB_ATOM_ATOM.rawValue, format: 32,
            [UInt8](repeating: 0x7f, count: 4000))
        for _ in 0..<200 {
            xcb_map_window(c, window)
            xcb_unmap_window(c, window)
        }
        xcb_map_window(c, window)
        var absurd: [UInt32] = [UInt32(bitPattern: -32768), UInt32(bitPattern: -32768), 65535, 65535]
        xcb_configure_window(
            c, window,
            UInt16(
                XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue
                    | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), &absurd)
        xcb_flush(c)
        #expect(server.run(seconds: 30) { Self.x11Windows(server).first?.isVisible == true })
        let model = try #require(Self.x11Windows(server).first)
        #expect(Self.x11Windows(server).count == 1)
        // Each property is read up to 4 KiB: the title is that much of the invalid _NET_WM_NAME
        // (replacement characters), the class the whole 4 KiB instance with no class.
        #expect(model.title.unicodeScalars.count == 4096)
        #expect(model.appID.utf8.count == 4096)
        // The 3-byte _NET_WM_PID is no pid: X-Resource gives the client's (this process).
        #expect(server.run(seconds: 20) { model.pid == getpid() })
        #expect(model.frame.width <= 8192 && model.frame.height <= 8192)
        xcb_destroy_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).isEmpty })
        #expect(model.isClosed)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func shuttingXwaylandDownRemovesItsSocketAndLockFile() throws {
        let (server, xwayland) = try Self.start()
        let number = xwayland.sockets.number
        #expect(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"))
        let lock = try String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)
        #expect(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) == getpid())
        let process = try #require(xwayland.pid)
        xwayland.shutdown()
        #expect(xwayland.pid == nil)
        #expect(kill(process, 0) == -1 && errno == ESRCH)
        // Gone, or (a Strata of another test took the number since) someone else's.
        let after = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)) ?? ""
        #expect(Int32(after.trimmingCharacters(in: .whitespacesAndNewlines)) != getpid())
        server.step()
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func xwaylandStartsOnlyAtTheFirstConnectionToItsSocket() throws {
        let server = try TestServer(modes: [ScreenMode(width: 640, height: 480, refreshMilliHz: 60_000)])
        let xwayland = try Xwayland(compositor: server.compositor, executable: "Xwayland")
        server.compositor.xwayland = xwayland
        defer { xwayland.shutdown() }
        for _ in 0..<5 { server.step() }
        #expect(xwayland.starts == 0)
        #expect(xwayland.pid == nil)
        // A connection waiting on the socket file (connect returns at once: the backlog holds it).
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array("/tmp/.X11-unix/X\(xwayland.sockets.number)".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, byte) in path.enumerated() { raw[i] = byte } }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(connected == 0)
        #expect(server.run(seconds: 30) { xwayland.wm != nil })
        #expect(xwayland.starts == 1)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func anOverrideRedirectWindowShowsAtItsXPositionAboveItsClientsKeyWindowAndNeverTakesKey() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let normal = Self.createWindow(c, x: 0, y: 0, width: 100, height: 100)
        xcb_map_window(c, normal)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isKeyWindow == true })
        let menu = Self.createWindow(c, x: 200, y: 150, width: 50, height: 30, overrideRedirect: true)
        xcb_map_window(c, menu)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).filter(\.isVisible).count == 2 })
        let popup = try #require(Self.x11Windows(server).first { !$0.canBecomeKey })
        #expect(popup.frame == Rect(x: 200, y: 150, width: 50, height: 30))
        // It belongs to the client's key window: at its level, just above it.
        #expect(popup.level == .normal)
        #expect(server.windows.windows.last === popup)
        #expect(!popup.isKeyWindow)
        #expect(!popup.canBecomeKey)
        #expect(server.windows.keyWindow?.level == .normal)
        // The menu moves in X: the model follows.
        var values: [UInt32] = [220, 160]
        xcb_configure_window(c, menu, UInt16(XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue), &values)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { popup.frame.x == 220 && popup.frame.y == 160 })
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aDockWindowIsAtTheStatusBarLevelAndADialogAtTheNormalOne() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let type = Self.atom(c, "_NET_WM_WINDOW_TYPE")
        for (name, appID) in [("_NET_WM_WINDOW_TYPE_DOCK", "dock"), ("_NET_WM_WINDOW_TYPE_DIALOG", "dialog")] {
            let window = Self.createWindow(c, x: 0, y: 0, width: 40, height: 20)
            let atom = Self.atom(c, name)
            Self.set(
                c, window, type, type: XCB_ATOM_ATOM.rawValue, format: 32,
                [UInt8(atom & 0xff), UInt8(atom >> 8 & 0xff), UInt8(atom >> 16 & 0xff), UInt8(atom >> 24)])
            Self.set(
                c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
                Array("x\0\(appID)\0".utf8))
            xcb_map_window(c, window)
        }
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).filter(\.isVisible).count == 2 })
        let dock = try #require(Self.x11Windows(server).first { $0.appID == "dock" })
        let dialog = try #require(Self.x11Windows(server).first { $0.appID == "dialog" })
        #expect(dock.level == .statusBar)
        #expect(!dock.canBecomeKey)
        #expect(dialog.level == .normal)
        #expect(dialog.isKeyWindow)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aConfigureRequestOfAShownWindowMovesItThroughThePlacementPolicy() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: 0, y: 0, width: 80, height: 60)
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isVisible == true })
        let model = try #require(Self.x11Windows(server).first)
        var values: [UInt32] = [300, 200, 120, 90]
        xcb_configure_window(
            c, window,
            UInt16(
                XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue
                    | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), &values)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 300, y: 200, width: 120, height: 90) })
        // X has the same geometry.
        let reply = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), nil)
        defer { free(reply) }
        #expect(reply?.pointee.x == 300 && reply?.pointee.y == 200 && reply?.pointee.width == 120)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func theKeyWindowHasTheXInputFocusAndAWindowAskingForTakeFocusGetsTheMessage() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let first = Self.createWindow(c, x: 0, y: 0, width: 60, height: 40)
        let second = Self.createWindow(c, x: 100, y: 0, width: 60, height: 40)
        let protocols = Self.atom(c, "WM_PROTOCOLS")
        let takeFocus = Self.atom(c, "WM_TAKE_FOCUS")
        Self.set(
            c, first, protocols, type: XCB_ATOM_ATOM.rawValue, format: 32,
            [
                UInt8(takeFocus & 0xff), UInt8(takeFocus >> 8 & 0xff), UInt8(takeFocus >> 16 & 0xff),
                UInt8(takeFocus >> 24),
            ])
        Self.set(
            c, first, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("a\0first\0".utf8))
        Self.set(
            c, second, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("b\0second\0".utf8))
        xcb_map_window(c, first)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isKeyWindow == true })
        xcb_map_window(c, second)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow?.appID == "second" })
        func focus() -> xcb_window_t? {
            guard let reply = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil) else { return nil }
            defer { free(reply) }
            return reply.pointee.focus
        }
        // (The reply comes from Xwayland alone: the server need not run meanwhile.)
        #expect(server.run(seconds: 20) { focus() == second })
        // Drop what the first window got so far, then make it key through the model.
        while let event = xcb_poll_for_event(c) { free(event) }
        let firstModel = try #require(Self.x11Windows(server).first { $0.appID == "first" })
        #expect(server.windows.makeKey(firstModel))
        var gotTakeFocus = false
        #expect(
            server.run(seconds: 20) {
                while let event = xcb_poll_for_event(c) {
                    if event.pointee.response_type & 0x7f == XCB_CLIENT_MESSAGE {
                        let message = UnsafeMutableRawPointer(event).assumingMemoryBound(
                            to: xcb_client_message_event_t.self
                        ).pointee
                        if message.window == first, message.type == protocols, message.data.data32.0 == takeFocus {
                            gotTakeFocus = true
                        }
                    }
                    free(event)
                }
                return gotTakeFocus && focus() == first
            })
        let active = xcb_get_property_reply(
            c,
            xcb_get_property(
                c, 0, xcb_setup_roots_iterator(xcb_get_setup(c)).data!.pointee.root,
                Self.atom(c, "_NET_ACTIVE_WINDOW"), XCB_ATOM_WINDOW.rawValue, 0, 1), nil)
        defer { free(active) }
        let value = active.flatMap { xcb_get_property_value($0) }?.assumingMemoryBound(to: UInt32.self).pointee
        #expect(value == first)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aLevelRuleForTheWMClassAppliesToTheXWindow() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        server.compositor.levelRules.levels["Alerted"] = .alert
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: 0, y: 0, width: 30, height: 30)
        Self.set(
            c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("x\0Alerted\0".utf8)
        )
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isVisible == true })
        #expect(Self.x11Windows(server).first?.level == .alert)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func anXWindowTheModelHidStaysHiddenWhileItsClientDrawsAndShowsAgainAfterAnUnmapAndMap() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: 0, y: 0, width: 50, height: 50)
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isVisible == true })
        let model = try #require(Self.x11Windows(server).first)
        server.windows.hide(model)
        // The client resizes (granted: X has the new size; a hidden surface gets no frame
        // callbacks, so Xwayland may hold its next buffer back).
        var values: [UInt32] = [70, 60]
        xcb_configure_window(
            c, window, UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), &values)
        xcb_flush(c)
        #expect(
            server.run(seconds: 20) {
                guard let reply = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), nil) else { return false }
                defer { free(reply) }
                return reply.pointee.width == 70
            })
        // A barrier: a title set after the resize reaches the model only once the XWM has
        // handled what came before it (it handles an X client's events in order).
        Self.set(
            c, window, Self.atom(c, "_NET_WM_NAME"), type: Self.atom(c, "UTF8_STRING"), format: 8,
            Array("after the resize".utf8))
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.title == "after the resize" })
        #expect(model.isHidden)
        xcb_unmap_window(c, window)
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isVisible })
        #expect(!model.isClosed)
        #expect(Self.x11Windows(server).count == 1)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aWindowMappedWithNetWMStateAboveIsAboveNormalWindowsAndBelowAlerts() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.createWindow(c, x: 0, y: 0, width: 30, height: 30)
        let above = Self.atom(c, "_NET_WM_STATE_ABOVE")
        Self.set(
            c, window, Self.atom(c, "_NET_WM_STATE"), type: XCB_ATOM_ATOM.rawValue, format: 32,
            [UInt8(above & 0xff), UInt8(above >> 8 & 0xff), UInt8(above >> 16 & 0xff), UInt8(above >> 24)])
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).first?.isVisible == true })
        let level = try #require(Self.x11Windows(server).first?.level)
        #expect(level.rawValue == 500)
        #expect(level > .normal && level < .alert)
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aTransientStaysAboveItsParentWhenTheParentBecomesKeyOrIsOrderedFront() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let parent = Self.createWindow(c, x: 0, y: 0, width: 40, height: 40)
        let dialog = Self.createWindow(c, x: 0, y: 0, width: 20, height: 20)
        let other = Self.createWindow(c, x: 0, y: 0, width: 40, height: 40)
        for (window, name) in [(parent, "parent"), (dialog, "dialog"), (other, "other")] {
            Self.set(
                c, window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
                Array("x\0\(name)\0".utf8))
        }
        Self.set(
            c, dialog, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32,
            [UInt8(parent & 0xff), UInt8(parent >> 8 & 0xff), UInt8(parent >> 16 & 0xff), UInt8(parent >> 24)])
        xcb_map_window(c, parent)
        xcb_map_window(c, dialog)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { Self.x11Windows(server).filter(\.isVisible).count == 2 })
        xcb_map_window(c, other)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow?.appID == "other" })
        #expect(server.windows.windows.map(\.appID) == ["parent", "dialog", "other"])
        let parentModel = try #require(Self.x11Windows(server).first { $0.appID == "parent" })
        #expect(server.windows.makeKey(parentModel))
        // Back to front (making a window key does not order it, as in UIKit; its dialog is
        // above it already, its child in the model).
        #expect(server.windows.windows.map(\.appID) == ["parent", "dialog", "other"])
        server.windows.orderFront(parentModel)
        #expect(server.windows.windows.map(\.appID) == ["other", "parent", "dialog"])
    }

    @Test(.enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
    func aNetActiveWindowRequestMakesTheWindowKeyThroughTheModel() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(Self.connect(xwayland))
        defer { xcb_disconnect(c) }
        let first = Self.createWindow(c, x: 0, y: 0, width: 40, height: 40)
        let second = Self.createWindow(c, x: 50, y: 0, width: 40, height: 40)
        Self.set(
            c, first, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("x\0first\0".utf8))
        Self.set(
            c, second, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("x\0second\0".utf8))
        xcb_map_window(c, first)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow?.appID == "first" })
        xcb_map_window(c, second)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow?.appID == "second" })
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = first
        event.type = Self.atom(c, "_NET_ACTIVE_WINDOW")
        event.data.data32.0 = 2  // source: a pager
        let root = xcb_setup_roots_iterator(xcb_get_setup(c)).data!.pointee.root
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(
                    c, 0, root,
                    XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue,
                    chars.baseAddress)
            }
        }
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow?.appID == "first" })
    }

    /// A hundred Strata at once (one per test, each holding its display from its start) each
    /// get a display: numbers past weston's 32 and the 64 of before are taken.
    @Test func aHundredDisplaysHeldAtOnceAreAllGiven() throws {
        var held: [XDisplaySockets] = []
        defer { for sockets in held { sockets.remove() } }
        for _ in 0..<100 { held.append(try XDisplaySockets.open().get()) }
        #expect(Set(held.map(\.number)).count == 100)
        #expect(held.allSatisfy { XDisplaySockets.candidates.contains($0.number) })
    }

    @Test func aStaleLockFileIsTakenOverAndALiveOneIsSkipped() throws {
        // Two free numbers high in the range (the Strata of other tests take the lowest).
        let free = (48..<63).first { number in
            ![number, number + 1].contains { FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") }
        }
        let number = try #require(free)
        // :N locked by a live process (this one), :N+1 by a pid that does not exist.
        try "\(getpid())\n".write(toFile: "/tmp/.X\(number)-lock", atomically: false, encoding: .utf8)
        defer { unlink("/tmp/.X\(number)-lock") }
        try "2147483646\n".write(toFile: "/tmp/.X\(number + 1)-lock", atomically: false, encoding: .utf8)
        let sockets = try XDisplaySockets.open(from: number).get()
        defer { sockets.remove() }
        #expect(sockets.number == number + 1)
        let lock = try String(contentsOfFile: "/tmp/.X\(number + 1)-lock", encoding: .utf8)
        #expect(lock == String(repeating: " ", count: 10 - String(getpid()).count) + "\(getpid())\n")
    }
}
