import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Hostile X clients against the XWM: events only the X server may send, forged by a client
/// with SendEvent (the synthetic bit), and `_NET_ACTIVE_WINDOW` from a client in the background.
@Suite(
    "The XWM against hostile X clients", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMHostileTests {
    private typealias H = XTestHarness

    /// Sends `event` (32 bytes) to the root with the substructure masks, as a client can.
    private static func sendToRoot<Event>(_ c: OpaquePointer, _ event: Event) {
        var event = event
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(
                    c, 0, H.root(c),
                    XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue,
                    chars.baseAddress)
            }
        }
    }

    /// A round trip: the X server has handled everything `c` sent (its SendEvents are queued to
    /// the XWM before anything another client sends afterwards).
    private static func sync(_ c: OpaquePointer) {
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))
    }

    private static func mapVictim(_ server: TestServer, _ c: OpaquePointer, name: String) -> xcb_window_t {
        let window = H.createWindow(c, x: 10, y: 10, width: 60, height: 40)
        H.setClass(c, window, name)
        xcb_map_window(c, window)
        xcb_flush(c)
        return window
    }

    /// The forger names every surface id Xwayland could give the next window (each on a window
    /// of its own, unmapped), before the victim maps: the victim's window still shows.
    @Test func forgedWLSurfaceIDMessagesBindNoSurfaceAndTheVictimsWindowShows() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        var lines: [String] = []
        xwayland.log = { lines.append($0) }
        let victim = try #require(H.connect(xwayland))
        defer { xcb_disconnect(victim) }
        let forger = try #require(H.connect(xwayland))
        defer { xcb_disconnect(forger) }
        let xwaylandClient = try #require(xwayland.client)
        let existing = (1...20_000).filter { server.compositor.surface(of: xwaylandClient, id: UInt32($0)) != nil }
        let highest = existing.max() ?? 0
        let candidates = (1...(highest + 48)).filter { !existing.contains($0) }
        let surfaceID = H.atom(forger, "WL_SURFACE_ID"), surfaceSerial = H.atom(forger, "WL_SURFACE_SERIAL")
        for id in candidates {
            let window = H.createWindow(forger, x: 0, y: 0, width: 1, height: 1)
            H.sendToRoot(forger, window: window, type: surfaceID, [UInt32(id)])
            H.sendToRoot(forger, window: window, type: surfaceSerial, [UInt32(id), 0])
        }
        Self.sync(forger)
        _ = Self.mapVictim(server, victim, name: "victim")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "victim" && $0.isVisible } })
        let forged = lines.filter { $0.contains("only the X server associates") }
        #expect(forged.count == 1, "one line for the forging client: \(forged)")
        #expect(forged.first?.contains("WL_SURFACE_ID") == true)
    }

    /// UnmapNotify and DestroyNotify forged for another client's window change nothing.
    @Test func forgedUnmapAndDestroyNotifiesLeaveTheVictimsWindowShown() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let victim = try #require(H.connect(xwayland))
        defer { xcb_disconnect(victim) }
        let forger = try #require(H.connect(xwayland))
        defer { xcb_disconnect(forger) }
        let window = Self.mapVictim(server, victim, name: "victim")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "victim" && $0.isVisible } })
        var unmap = xcb_unmap_notify_event_t()
        unmap.response_type = UInt8(XCB_UNMAP_NOTIFY)
        unmap.event = H.root(forger)
        unmap.window = window
        Self.sendToRoot(forger, unmap)
        var destroy = xcb_destroy_notify_event_t()
        destroy.response_type = UInt8(XCB_DESTROY_NOTIFY)
        destroy.event = H.root(forger)
        destroy.window = window
        Self.sendToRoot(forger, destroy)
        Self.sync(forger)
        // The victim's title after the forgeries: once the model has it, they were handled.
        H.set(victim, window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("after".utf8))
        xcb_flush(victim)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first { $0.appID == "victim" }?.title == "after" })
        let model = try #require(H.x11Windows(server).first { $0.appID == "victim" })
        #expect(model.isVisible && !model.isClosed)
    }

    /// A background X client asks for its window to be activated while a Wayland window is key
    /// (no timestamp, then a timestamp far ahead): refused, logged once, the Wayland window stays
    /// key, and the X window demands attention.
    @Test func netActiveWindowFromABackgroundXClientWhileAWaylandWindowIsKeyIsRefused() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        var lines: [String] = []
        server.compositor.log = { lines.append($0) }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.mapVictim(server, c, name: "xbackground")
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isKeyWindow == true })
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.green))
        let wayland = try #require(server.windows.keyWindow)
        #expect(wayland.content?.kind != "x11")
        var refusals: [PostedNotification] = []
        let token = server.windows.notifications.addObserver(phase: .recording) { posted in
            if case .keyRequestWasRefused = posted.notification { refusals.append(posted) }
        }
        defer { token.remove() }
        let active = H.atom(c, "_NET_ACTIVE_WINDOW")
        H.sendToRoot(c, window: window, type: active, [1, 0, 0])
        H.sendToRoot(c, window: window, type: active, [1, 0xffff_fff0, 0])
        xcb_flush(c)
        let attention = H.atom(c, "_NET_WM_STATE_DEMANDS_ATTENTION")
        #expect(server.run(seconds: 20) { H.words(c, window, H.atom(c, "_NET_WM_STATE")).contains(attention) })
        #expect(server.run(seconds: 20) { server.compositor.focusRequests.refused == 2 })
        #expect(server.windows.keyWindow === wayland)
        // Each refusal is the model's keyRequestWasRefused, with the request's cause.
        #expect(refusals.count == 2)
        #expect(refusals.allSatisfy { $0.cause?.kind == .focusRequest && $0.cause?.request == "_NET_ACTIVE_WINDOW" })
        #expect(refusals.allSatisfy { $0.cause?.requester.isEmpty == false })
        // One line a second per requester.
        #expect(lines.filter { $0.contains("focus request refused: _NET_ACTIVE_WINDOW") }.count == 1)
        withExtendedLifetime((toplevel, shell)) {}
    }

    /// Under the explicit policy a click does not make a window key: the X client whose window
    /// the user clicked quotes the press's time (from its ButtonPress) and is honoured; the same
    /// request with a time before the press is not.
    @Test func netActiveWindowWithTheTimeOfTheUsersLatestPressOnTheXWindowIsHonoured() throws {
        let (server, xwayland) = try H.start(policy: ExplicitKeyPolicy())
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = Self.mapVictim(server, c, name: "xclicked")
        var mask = XCB_EVENT_MASK_BUTTON_PRESS.rawValue
        xcb_change_window_attributes(c, window, XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isKeyWindow == true })
        let xModel = try #require(H.x11Windows(server).first)
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.green))
        let wayland = try #require(server.windows.keyWindow)
        #expect(wayland !== xModel)
        server.compositor.windows.setFrame(wayland, Rect(x: 400, y: 300, width: 100, height: 100))
        let frame = xModel.frame
        server.compositor.seat.pointerMotion(
            on: server.compositor.scene.outputs[0], x: Double(frame.x) + 5, y: Double(frame.y) + 5, time: 1)
        server.compositor.seat.pointerButton(0x110, pressed: true, time: 2)
        server.compositor.seat.pointerButton(0x110, pressed: false, time: 3)
        var pressTime: UInt32?
        #expect(
            server.run(seconds: 20) {
                while let event = xcb_poll_for_event(c) {
                    defer { free(event) }
                    if Int32(event.pointee.response_type & 0x7f) == XCB_BUTTON_PRESS {
                        pressTime =
                            UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_button_press_event_t.self)
                            .pointee.time
                    }
                }
                return pressTime != nil
            })
        let time = try #require(pressTime)
        #expect(server.windows.keyWindow === wayland, "the explicit policy: a click does not make key")
        let active = H.atom(c, "_NET_ACTIVE_WINDOW")
        H.sendToRoot(c, window: window, type: active, [1, time &- 1000, 0])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.compositor.focusRequests.refused == 1 })
        #expect(server.windows.keyWindow === wayland)
        H.sendToRoot(c, window: window, type: active, [1, time, 0])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { server.windows.keyWindow === xModel })
        withExtendedLifetime((toplevel, shell)) {}
    }
}
