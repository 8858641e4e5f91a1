import CXCB
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// The EWMH that X tools read and send (`wmctrl`, `xdotool`, `xprop`): one desktop and its work
/// area, `_NET_WM_DESKTOP` and `_NET_FRAME_EXTENTS` on managed windows, the stacking list in the
/// model's order, `_NET_CLOSE_WINDOW` with `_NET_WM_PING`, `_NET_MOVERESIZE_WINDOW` through the
/// placement policy; and the same messages forged, malformed or flooded.
@Suite("The XWM's EWMH for X tools", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMEWMHTests {
    private typealias H = XTestHarness

    /// A round trip: the X server has handled everything `c` sent.
    private static func sync(_ c: OpaquePointer) {
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))
    }

    /// Maps a window of class `name` (with `protocols` in WM_PROTOCOLS, `type` as its window
    /// type) and waits for its model window to show.
    private static func map(
        _ server: TestServer, _ c: OpaquePointer, name: String, protocols: [String] = [], type: String? = nil,
        x: Int16 = 10, y: Int16 = 20
    ) throws -> (xcb_window_t, Window) {
        let window = H.createWindow(c, x: x, y: y, width: 120, height: 90)
        H.setClass(c, window, name)
        if !protocols.isEmpty {
            H.set(
                c, window, H.atom(c, "WM_PROTOCOLS"), type: XCB_ATOM_ATOM.rawValue, format: 32,
                H.bytes(protocols.map { H.atom(c, $0) }))
        }
        if let type {
            H.set(
                c, window, H.atom(c, "_NET_WM_WINDOW_TYPE"), type: XCB_ATOM_ATOM.rawValue, format: 32,
                H.bytes([H.atom(c, type)]))
        }
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == name && $0.isVisible } })
        return (window, try #require(H.x11Windows(server).first { $0.appID == name }))
    }

    /// The `WM_PROTOCOLS` messages `c` received so far (their first word's atom), with the
    /// window each named in its third word.
    private static func protocolMessages(_ c: OpaquePointer) -> [(atom: UInt32, third: UInt32)] {
        var found: [(UInt32, UInt32)] = []
        while let event = xcb_poll_for_event(c) {
            defer { free(event) }
            guard event.pointee.response_type & 0x7f == XCB_CLIENT_MESSAGE else { continue }
            let message = UnsafeRawPointer(event).loadUnaligned(as: xcb_client_message_event_t.self)
            found.append((message.data.data32.0, message.data.data32.2))
        }
        return found
    }

    @Test func theRootHasOneDesktopWhoseWorkAreaFollowsTheMainScreensUsableArea() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let root = H.root(c)
        #expect(H.words(c, root, H.atom(c, "_NET_NUMBER_OF_DESKTOPS")) == [1])
        #expect(H.words(c, root, H.atom(c, "_NET_CURRENT_DESKTOP")) == [0])
        #expect(H.words(c, root, H.atom(c, "_NET_DESKTOP_VIEWPORT")) == [0, 0])
        #expect(H.words(c, root, H.atom(c, "_NET_DESKTOP_GEOMETRY")) == [640, 480])
        #expect(H.words(c, root, H.atom(c, "_NET_WORKAREA")) == [0, 0, 640, 480])
        let supported = H.words(c, root, H.atom(c, "_NET_SUPPORTED"))
        for name in XWMDesktop.supported { #expect(supported.contains(H.atom(c, name)), "\(name) supported") }
        // A panel takes 30 pixels at the top: the work area follows.
        let screen = try #require(server.windows.mainScreen)
        server.windows.setUsableArea(Rect(x: 0, y: 30, width: 640, height: 450), for: screen)
        #expect(server.run(seconds: 20) { H.words(c, root, H.atom(c, "_NET_WORKAREA")) == [0, 30, 640, 450] })
        server.windows.setUsableArea(nil, for: screen)
        #expect(server.run(seconds: 20) { H.words(c, root, H.atom(c, "_NET_WORKAREA")) == [0, 0, 640, 480] })
        // Asking for another desktop changes nothing.
        H.sendToRoot(c, window: root, type: H.atom(c, "_NET_CURRENT_DESKTOP"), [3, 0])
        Self.sync(c)
        _ = server.run(seconds: 0.05)
        #expect(H.words(c, root, H.atom(c, "_NET_CURRENT_DESKTOP")) == [0])
    }

    @Test func managedWindowsAreOnDesktopZeroWithoutFrameAndRequestsSayItAgain() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let desktop = H.atom(c, "_NET_WM_DESKTOP"), extents = H.atom(c, "_NET_FRAME_EXTENTS")
        // Before mapping: `_NET_REQUEST_FRAME_EXTENTS` is answered.
        let unmapped = H.createWindow(c, x: 0, y: 0, width: 50, height: 50)
        H.sendToRoot(c, window: unmapped, type: H.atom(c, "_NET_REQUEST_FRAME_EXTENTS"), [])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.words(c, unmapped, extents) == [0, 0, 0, 0] })
        let (window, _) = try Self.map(server, c, name: "desk")
        #expect(server.run(seconds: 20) { H.words(c, window, desktop) == [0] })
        #expect(H.words(c, window, extents) == [0, 0, 0, 0])
        // The client writes desktop 5 itself, then asks for desktop 5: the answer is 0 again.
        H.set(c, window, desktop, type: XCB_ATOM_CARDINAL.rawValue, format: 32, H.bytes([5]))
        H.sendToRoot(c, window: window, type: desktop, [5, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.words(c, window, desktop) == [0] })
    }

    @Test func theStackingListIsTheModelsOrderWithLevelsAndFollowsIt() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let stacking = H.atom(c, "_NET_CLIENT_LIST_STACKING")
        let (dock, _) = try Self.map(server, c, name: "dock", type: "_NET_WM_WINDOW_TYPE_DOCK")
        let (first, firstModel) = try Self.map(server, c, name: "first")
        let (second, _) = try Self.map(server, c, name: "second")
        // The dock is at the status bar level, above both normal windows though mapped first.
        #expect(server.run(seconds: 20) { H.words(c, H.root(c), stacking) == [first, second, dock] })
        server.windows.orderFront(firstModel)
        #expect(server.run(seconds: 20) { H.words(c, H.root(c), stacking) == [second, first, dock] })
        // Minimized (iconic, unmapped in X): still listed, in the model's place.
        let secondModel = try #require(H.x11Windows(server).first { $0.appID == "second" })
        server.windows.minimize(secondModel)
        #expect(secondModel.isHidden)
        #expect(server.run(seconds: 20) { H.words(c, second, H.atom(c, "WM_STATE")).first == 3 })
        let ids = server.windows.windows.compactMap { ($0.content as? X11Window)?.id }
        #expect(server.run(seconds: 20) { H.words(c, H.root(c), stacking) == ids })
        #expect(H.words(c, H.root(c), H.atom(c, "_NET_CLIENT_LIST")).contains(second))
        xcb_destroy_window(c, second)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.words(c, H.root(c), stacking) == [first, dock] })
        // A model order matching X's order of ids is no proof: compare with the model's.
        let after = server.windows.windows.compactMap { ($0.content as? X11Window)?.id }
        #expect(H.words(c, H.root(c), stacking) == after)
    }

    @Test func netCloseWindowAsksAWindowThatTakesWMDeleteWindowAndKillsOneThatDoesNot() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let close = H.atom(c, "_NET_CLOSE_WINDOW"), delete = H.atom(c, "WM_DELETE_WINDOW")
        let (polite, politeModel) = try Self.map(server, c, name: "polite", protocols: ["WM_DELETE_WINDOW"])
        H.sendToRoot(c, window: polite, type: close, [0, 2])
        xcb_flush(c)
        var received: [(atom: UInt32, third: UInt32)] = []
        #expect(
            server.run(seconds: 20) {
                received += Self.protocolMessages(c)
                return received.contains { $0.atom == delete }
            })
        #expect(!politeModel.isClosed, "asked, not killed")
        // Another X client's window without WM_DELETE_WINDOW: its client is killed.
        let victim = try #require(H.connect(xwayland))
        defer { xcb_disconnect(victim) }
        let (plain, plainModel) = try Self.map(server, victim, name: "plain")
        H.sendToRoot(c, window: plain, type: close, [0, 2])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { plainModel.isClosed })
        #expect(server.run(seconds: 20) { xcb_connection_has_error(victim) != 0 || Self.pollFails(victim) })
        #expect(!politeModel.isClosed)
    }

    /// Whether the connection failed (a killed client's next request).
    private static func pollFails(_ c: OpaquePointer) -> Bool {
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))
        return xcb_connection_has_error(c) != 0
    }

    @Test func aWindowThatDoesNotAnswerThePingIsUnresponsiveAndTheNextCloseKillsItsClient() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let wm = try #require(xwayland.wm)
        wm.ping.timeoutMilliseconds = 100
        var lines: [String] = []
        xwayland.log = { lines.append($0) }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let close = H.atom(c, "_NET_CLOSE_WINDOW"), ping = H.atom(c, "_NET_WM_PING")
        let delete = H.atom(c, "WM_DELETE_WINDOW")
        let (window, model) = try Self.map(
            server, c, name: "hung", protocols: ["WM_DELETE_WINDOW", "_NET_WM_PING"])
        H.sendToRoot(c, window: window, type: close, [0, 2])
        xcb_flush(c)
        var received: [(atom: UInt32, third: UInt32)] = []
        #expect(
            server.run(seconds: 20) {
                received += Self.protocolMessages(c)
                return received.contains { $0.atom == ping } && received.contains { $0.atom == delete }
            })
        #expect(received.first { $0.atom == ping }?.third == window, "the ping names the window")
        // No answer: unresponsive after the deadline (the loop's timer), logged once.
        #expect(server.run(seconds: 20) { wm.ping.unresponsive.contains(window) })
        #expect(lines.filter { $0.contains("did not answer _NET_WM_PING") }.count == 1)
        #expect(!model.isClosed)
        // The second close kills the client.
        H.sendToRoot(c, window: window, type: close, [0, 2])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isClosed })
        #expect(wm.ping.pingsInFlight == 0)
    }

    @Test func aWindowThatAnswersThePingIsAskedAgainAtTheNextClose() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let wm = try #require(xwayland.wm)
        wm.ping.timeoutMilliseconds = 100
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let close = H.atom(c, "_NET_CLOSE_WINDOW"), ping = H.atom(c, "_NET_WM_PING")
        let protocols = H.atom(c, "WM_PROTOCOLS")
        let (window, model) = try Self.map(server, c, name: "alive", protocols: ["WM_DELETE_WINDOW", "_NET_WM_PING"])
        for round in 0..<2 {
            H.sendToRoot(c, window: window, type: close, [0, 2])
            xcb_flush(c)
            var received: [(atom: UInt32, third: UInt32)] = []
            #expect(
                server.run(seconds: 20) {
                    received += Self.protocolMessages(c)
                    return received.contains { $0.atom == ping }
                }, "ping \(round)")
            // The answer: the same message back to the root.
            H.sendToRoot(c, window: H.root(c), type: protocols, [ping, 0, window])
            xcb_flush(c)
            #expect(server.run(seconds: 20) { wm.ping.pingsInFlight == 0 })
        }
        // Past the deadline nothing is marked.
        let deadline = Clock.monotonicNanoseconds() / 1_000_000 + 10_000
        wm.ping.checkDeadlines(now: deadline)
        #expect(wm.ping.unresponsive.isEmpty)
        #expect(!model.isClosed)
        #expect(wm.ping.pingsSent == 2)
    }

    @Test func netMoveResizeWindowGoesThroughThePlacementPolicyAsAConfigureRequest() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.map(server, c, name: "moved")
        let moveResize = H.atom(c, "_NET_MOVERESIZE_WINDOW")
        // Gravity 0, x y w h given (bits 8–11), source 2 (a pager, as wmctrl's).
        H.sendToRoot(c, window: window, type: moveResize, [0xF00 | 2 << 12, 200, 150, 300, 200])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 200, y: 150, width: 300, height: 200) })
        #expect(H.geometry(c, window) == Rect(x: 200, y: 150, width: 300, height: 200))
        // Only x given: the size stays.
        H.sendToRoot(c, window: window, type: moveResize, [0x100, 20, 9999, 1, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 20, y: 150, width: 300, height: 200) })
        // Larger than the screen: the policy's constrained size, within the work area.
        H.sendToRoot(c, window: window, type: moveResize, [0xF00, 0xFFFF_FFF0, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x8000_0000])
        xcb_flush(c)
        #expect(
            server.run(seconds: 20) { model.frame.width <= 640 && model.frame.height <= 480 && model.frame.x != 20 })
        #expect(xwayland.wm != nil)
    }

    @Test func malformedForgedAndFloodedMessagesHarmNothingAndStayBounded() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let wm = try #require(xwayland.wm)
        // However long the flood takes, the client is not taken for hung (it never answers).
        wm.ping.timeoutMilliseconds = 600_000
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let hostile = try #require(H.connect(xwayland))
        defer { xcb_disconnect(hostile) }
        let close = H.atom(c, "_NET_CLOSE_WINDOW"), desktop = H.atom(c, "_NET_WM_DESKTOP")
        let extents = H.atom(c, "_NET_REQUEST_FRAME_EXTENTS"), moveResize = H.atom(c, "_NET_MOVERESIZE_WINDOW")
        let (window, model) = try Self.map(server, c, name: "target", protocols: ["WM_DELETE_WINDOW", "_NET_WM_PING"])
        let frame = model.frame
        // Wrong formats (8 and 16) and windows that do not exist (or are the root): nothing.
        for format: UInt8 in [8, 16] {
            H.sendToRoot(hostile, window: window, type: close, format: format, [0, 2])
            H.sendToRoot(hostile, window: window, type: moveResize, format: format, [0xF00, 1, 1, 1, 1])
        }
        for bogus: UInt32 in [0, 1, 0xFFFF_FFFF, H.root(hostile), window &+ 12345] {
            H.sendToRoot(hostile, window: bogus, type: close, [0, 2])
            H.sendToRoot(hostile, window: bogus, type: desktop, [0xFFFF_FFFE, 2])
            H.sendToRoot(hostile, window: bogus, type: extents, [])
            H.sendToRoot(hostile, window: bogus, type: moveResize, [0xF00, 1, 1, 1, 1])
            // A pong for a window never pinged.
            H.sendToRoot(
                hostile, window: H.root(hostile), type: H.atom(hostile, "WM_PROTOCOLS"),
                [H.atom(hostile, "_NET_WM_PING"), 0, bogus])
        }
        Self.sync(hostile)
        H.set(c, window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("barrier".utf8))
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.title == "barrier" })
        #expect(!model.isClosed)
        #expect(model.frame == frame)
        #expect(Self.protocolMessages(c).isEmpty, "no close reached the client")
        // Floods: 2,000 desktop requests, 2,000 frame extent requests, 500 closes.
        let writesBefore = wm.desktop.windowWrites
        for index in 0..<2000 {
            H.sendToRoot(hostile, window: window, type: desktop, [UInt32(index), 2])
            H.sendToRoot(hostile, window: window, type: extents, [])
            if index % 4 == 0 { H.sendToRoot(hostile, window: window, type: close, [0, 2]) }
        }
        Self.sync(hostile)
        H.set(c, window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array("after".utf8))
        xcb_flush(c)
        #expect(server.run(seconds: 60) { model.title == "after" })
        let writes = wm.desktop.windowWrites - writesBefore
        #expect(writes >= 1 && writes <= 4500 / XWM.maxEventsPerTurn + 2, "coalesced per turn: \(writes) writes")
        #expect(wm.ping.pingsSent == 1, "one ping in flight at most")
        #expect(H.words(c, window, H.atom(c, "_NET_WM_DESKTOP")) == [0])
        #expect(H.words(c, window, H.atom(c, "_NET_FRAME_EXTENTS")) == [0, 0, 0, 0])
        #expect(!model.isClosed, "the client was asked, not killed")
        #expect(xwayland.wm != nil && xcb_connection_has_error(c) == 0)
    }
}
