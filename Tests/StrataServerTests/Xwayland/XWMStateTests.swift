import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `_NET_WM_STATE` (maximize, fullscreen, above) and ICCCM iconic state: the client's messages
/// and Strata's requests go through the model's placement policy and visibility, and the XWM
/// writes the state back on the window.
@Suite("The XWM's window states", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMStateTests {
    private typealias H = XTestHarness

    /// One mapped, key X window of class `states` (120×90 at 10,20), and its model window.
    private static func mapOne(_ server: TestServer, _ c: OpaquePointer, state: [String] = []) throws -> (
        xcb_window_t, Window
    ) {
        let window = H.createWindow(c, x: 10, y: 20, width: 120, height: 90)
        H.setClass(c, window, "states")
        if !state.isEmpty {
            H.set(
                c, window, H.atom(c, "_NET_WM_STATE"), type: XCB_ATOM_ATOM.rawValue, format: 32,
                H.bytes(state.map { H.atom(c, $0) }))
        }
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isKeyWindow == true })
        return (window, try #require(H.x11Windows(server).first))
    }

    private static func state(_ c: OpaquePointer, _ window: xcb_window_t) -> Set<String> {
        let names = [
            "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN",
            "_NET_WM_STATE_HIDDEN", "_NET_WM_STATE_ABOVE",
        ]
        let values = H.words(c, window, H.atom(c, "_NET_WM_STATE"))
        return Set(names.filter { values.contains(H.atom(c, $0)) })
    }

    private static let maximize = ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"]

    @Test func aNetWMStateMessageMaximizesTheXWindowToThePlacementPolicysFrameAndRemovingItRestoresTheFrame() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let before = model.frame
        let screen = try #require(model.screen)
        let maximized = server.windows.placement.maximizedFrame(for: model, on: screen)
        #expect(maximized != before)
        let type = H.atom(c, "_NET_WM_STATE")
        H.sendToRoot(c, window: window, type: type, [1, H.atom(c, Self.maximize[0]), H.atom(c, Self.maximize[1]), 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == maximized })
        #expect(H.geometry(c, window) == maximized)
        #expect(Self.state(c, window) == Set(Self.maximize))
        #expect(model.isMaximized == true)
        H.sendToRoot(c, window: window, type: type, [0, H.atom(c, Self.maximize[0]), H.atom(c, Self.maximize[1]), 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == before })
        #expect(H.geometry(c, window) == before)
        #expect(Self.state(c, window).isEmpty)
        #expect(model.isMaximized == false)
    }

    @Test func aToggledFullscreenStateFillsTheScreenAndTogglingAgainRestoresTheFrame() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let before = model.frame
        let type = H.atom(c, "_NET_WM_STATE")
        H.sendToRoot(c, window: window, type: type, [2, H.atom(c, "_NET_WM_STATE_FULLSCREEN"), 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 0, y: 0, width: 640, height: 480) })
        #expect(Self.state(c, window) == ["_NET_WM_STATE_FULLSCREEN"])
        #expect(model.isFullscreen == true)
        // A configure request while fullscreen keeps the fullscreen frame.
        var values: [UInt32] = [5, 5, 50, 50]
        xcb_configure_window(
            c, window,
            UInt16(
                XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue
                    | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), &values)
        // Then a title: the XWM handles the window's events in order, so once the model has the
        // title it has handled the request (a fixed 0.2 s could look before, and pass for nothing).
        H.set(
            c, window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
            Array("after the request".utf8))
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.title == "after the request" })
        #expect(H.geometry(c, window) == Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(model.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        H.sendToRoot(c, window: window, type: type, [2, H.atom(c, "_NET_WM_STATE_FULLSCREEN"), 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == before })
        #expect(Self.state(c, window).isEmpty)
    }

    @Test func aTaskbarsMaximizeAndFullscreenRequestsReachTheXWindowWithItsStateWritten() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let before = model.frame
        let screen = try #require(model.screen)
        model.content?.handleMaximizeRequest(true)
        let maximized = server.windows.placement.maximizedFrame(for: model, on: screen)
        #expect(server.run(seconds: 20) { model.frame == maximized })
        #expect(Self.state(c, window) == Set(Self.maximize))
        model.content?.handleFullscreenRequest(true, on: nil)
        #expect(server.run(seconds: 20) { Self.state(c, window) == Set(Self.maximize + ["_NET_WM_STATE_FULLSCREEN"]) })
        #expect(model.frame == server.windows.placement.fullscreenFrame(for: model, on: screen))
        model.content?.handleFullscreenRequest(false, on: nil)
        model.content?.handleMaximizeRequest(false)
        #expect(server.run(seconds: 20) { model.frame == before })
        #expect(server.run(seconds: 20) { Self.state(c, window).isEmpty })
    }

    @Test func aWindowMappedFullscreenShowsFullscreenAndRestoresToThePlacedFrame() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c, state: ["_NET_WM_STATE_FULLSCREEN"])
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 0, y: 0, width: 640, height: 480) })
        H.sendToRoot(
            c, window: window, type: H.atom(c, "_NET_WM_STATE"), [0, H.atom(c, "_NET_WM_STATE_FULLSCREEN"), 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.frame == Rect(x: 10, y: 20, width: 120, height: 90) })
    }

    @Test func iconifyingMinimizesTheWindowInTheModelAndAMapOrAnActivationShowsItAgain() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let wmState = H.atom(c, "WM_STATE")
        let change = H.atom(c, "WM_CHANGE_STATE")
        #expect(H.words(c, window, wmState) == [1, 0])
        // The client iconifies (ICCCM WM_CHANGE_STATE IconicState): hidden, Iconic, HIDDEN.
        H.sendToRoot(c, window: window, type: change, [3])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isHidden })
        #expect(model.isMinimized, "an X client's iconify is the model's minimize")
        #expect(server.windows.keyWindow == nil)
        #expect(server.run(seconds: 20) { H.words(c, window, wmState) == [3, 0] })
        #expect(Self.state(c, window) == ["_NET_WM_STATE_HIDDEN"])
        // The client maps it again (ICCCM's way back to Normal).
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isVisible })
        #expect(!model.isMinimized)
        #expect(H.words(c, window, wmState) == [1, 0])
        #expect(Self.state(c, window).isEmpty)
        // Iconified again, then activated (_NET_ACTIVE_WINDOW): shown and key.
        H.sendToRoot(c, window: window, type: change, [3])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isHidden })
        H.sendToRoot(c, window: window, type: H.atom(c, "_NET_ACTIVE_WINDOW"), [2])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.isVisible && model.isKeyWindow })
        #expect(!model.isMinimized)
        #expect(server.run(seconds: 20) { H.words(c, window, wmState) == [1, 0] })
    }

    @Test func theModelHidingAnXWindowMakesItIconicAndShowingItMapsItAgain() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let wmState = H.atom(c, "WM_STATE")
        let surface = model.rootSurface
        server.windows.hide(model)
        #expect(server.run(seconds: 20) { H.words(c, window, wmState) == [3, 0] })
        #expect(Self.state(c, window) == ["_NET_WM_STATE_HIDDEN"])
        // Unmapped in X while iconic.
        #expect(
            server.run(seconds: 20) {
                guard let reply = xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, window), nil) else {
                    return false
                }
                defer { free(reply) }
                return reply.pointee.map_state == UInt8(XCB_MAP_STATE_UNMAPPED.rawValue)
            })
        #expect(model.content?.hasContentToShow == true)
        server.windows.show(model)
        // Mapped again in X: Xwayland makes a new surface for it (the old one went with the unmap),
        // and the window shows it.
        #expect(
            server.run(seconds: 20) {
                H.words(c, window, wmState) == [1, 0] && model.isVisible && model.rootSurface != nil
                    && model.rootSurface !== surface && model.rootSurface?.hasContent == true
            })
        #expect(Self.state(c, window).isEmpty)
        #expect(H.x11Windows(server).count == 1)
    }

    @Test func netSupportedListsTheStatesTheXWMHandles() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let supported = H.words(c, H.root(c), H.atom(c, "_NET_SUPPORTED"))
        for name in [
            "_NET_WM_STATE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ",
            "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_HIDDEN", "_NET_WM_STATE_ABOVE", "_NET_ACTIVE_WINDOW",
            "_NET_WM_WINDOW_TYPE", "_NET_CLIENT_LIST",
        ] {
            #expect(supported.contains(H.atom(c, name)), "\(name)")
        }
        #expect(supported.count == XWM.supported.count)
        server.step()
    }

    @Test func theAboveStateByMessageMovesANormalWindowAboveNormalWindowsAndBack() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let type = H.atom(c, "_NET_WM_STATE")
        H.sendToRoot(c, window: window, type: type, [1, H.atom(c, "_NET_WM_STATE_ABOVE"), 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.level.rawValue == 500 })
        #expect(server.run(seconds: 20) { Self.state(c, window) == ["_NET_WM_STATE_ABOVE"] })
        H.sendToRoot(c, window: window, type: type, [0, H.atom(c, "_NET_WM_STATE_ABOVE"), 0, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.level == .normal })
    }

    @Test func absurdStateMessagesAndAnIconifyLoopLeaveTheWindowConsistent() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model) = try Self.mapOne(server, c)
        let before = model.frame
        let type = H.atom(c, "_NET_WM_STATE")
        let change = H.atom(c, "WM_CHANGE_STATE")
        let vertical = H.atom(c, Self.maximize[0])
        // Unknown actions, unknown and null atoms, the same atom twice (toggles once), a window
        // that does not exist, a WM_CHANGE_STATE to Normal or to junk.
        H.sendToRoot(c, window: window, type: type, [7, vertical, vertical, 1])
        H.sendToRoot(c, window: window, type: type, [UInt32.max, 0xffff_ffff, 0, 0])
        H.sendToRoot(c, window: window, type: type, [1, 0x7fff_ffff, 0xdead_beef, 1])
        H.sendToRoot(c, window: window, type: type, [2, vertical, vertical, 1])
        H.sendToRoot(c, window: 0x7fff_ffff, type: type, [1, vertical, H.atom(c, Self.maximize[1]), 1])
        H.sendToRoot(c, window: window, type: change, [1])
        H.sendToRoot(c, window: window, type: change, [0xffff_ffff])
        // 300 maximize toggles, then iconify loops.
        for _ in 0..<300 { H.sendToRoot(c, window: window, type: type, [2, vertical, H.atom(c, Self.maximize[1]), 1]) }
        for _ in 0..<100 {
            H.sendToRoot(c, window: window, type: change, [3])
            H.sendToRoot(c, window: window, type: H.atom(c, "_NET_ACTIVE_WINDOW"), [1])
        }
        // 100 iconify and map pairs, and 50 maps and unmaps of its own.
        for _ in 0..<100 {
            H.sendToRoot(c, window: window, type: change, [3])
            xcb_map_window(c, window)
        }
        for _ in 0..<50 {
            xcb_unmap_window(c, window)
            xcb_map_window(c, window)
        }
        // Last, an iconify and a map.
        H.sendToRoot(c, window: window, type: change, [3])
        xcb_map_window(c, window)
        xcb_flush(c)
        // Vertical alone toggled once (not maximized), 300 toggles of both leave it as it was.
        #expect(
            server.run(seconds: 30) {
                model.isVisible && H.words(c, window, H.atom(c, "WM_STATE")) == [1, 0]
                    && Self.state(c, window) == ["_NET_WM_STATE_MAXIMIZED_VERT"]
            })
        #expect(model.isMaximized == false)
        #expect(server.run(seconds: 20) { model.frame == before })
        #expect(H.x11Windows(server).count == 1)
    }
}
