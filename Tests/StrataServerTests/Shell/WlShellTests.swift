import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// wl_shell: shell surfaces as model windows (toplevel, transient, maximized, fullscreen) and
/// popups with grabs.
@Suite struct WlShellTests {
    private func makeFixture() throws -> (server: TestServer, shells: TestLegacyShells) {
        let server = try TestServer()
        let shells = try TestLegacyShells(client: try TestClient(server: server))
        #expect(shells.client.roundtrip())
        return (server, shells)
    }

    @Test func toplevelMapsAtItsFirstBufferAndUnmapsWithANullOne() throws {
        let (server, shells) = try makeFixture()
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        wl_shell_surface_set_title(shellSurface.shellSurface, "Old client")
        wl_shell_surface_set_class(shellSurface.shellSurface, "org.example.old")
        #expect(shellSurface.commit(width: 120, height: 90, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.isVisible && window.isKeyWindow)
        #expect(window.title == "Old client" && window.appID == "org.example.old")
        #expect(window.frame == Rect(x: 0, y: 0, width: 120, height: 90))
        #expect(server.pixel(x: 119, y: 89) == Colour.red)
        #expect(server.pixel(x: 120, y: 10) == Colour.background)
        #expect(shellSurface.commit(argb: nil))
        #expect(window.isHidden && !window.isKeyWindow)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
    }

    @Test func aBufferWithoutAModeShowsNothing() throws {
        let (server, shells) = try makeFixture()
        let shellSurface = try #require(shells.makeShellSurface())
        #expect(shellSurface.commit(argb: Colour.red))
        #expect(server.windows.windows.isEmpty)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        // The mode comes later: the surface maps at once with the buffer it has.
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shells.client.roundtrip())
        #expect(server.windows.windows.first?.isVisible == true)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    @Test func keyFollowsThePolicyAndTheKeyWindowIsPinged() throws {
        let (server, shells) = try makeFixture()
        let first = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(first.shellSurface)
        #expect(first.commit(argb: Colour.red))
        #expect(first.pings.count == 1)
        let second = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(second.shellSurface)
        #expect(second.commit(argb: Colour.green))
        let windows = server.windows.windows
        #expect(windows.count == 2 && windows[1].isKeyWindow && !windows[0].isKeyWindow)
        #expect(second.pings.count == 1)
        #expect(windows[0].makeKey())
        #expect(shells.client.roundtrip())
        #expect(first.pings.count == 2)
        let seat = try TestSeat(client: shells.client)
        _ = seat.getKeyboard()
        #expect(shells.client.roundtrip())
        #expect(
            server.compositor.seat.keyboardFocus
                === server.compositor.surface(of: shells.client.serverClient, id: shells.client.id(of: first.surface)))
    }

    @Test func levelRuleForTheClassApplies() throws {
        let (server, shells) = try makeFixture()
        server.compositor.levelRules = LevelRules(levels: ["org.example.panel": .statusBar])
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_class(shellSurface.shellSurface, "org.example.panel")
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(argb: Colour.red))
        #expect(server.windows.windows.first?.level == .statusBar)
    }

    @Test func inactiveTransientShowsAboveItsParentWithoutTakingKey() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 200, height: 200, argb: Colour.red))
        let parentWindow = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(parentWindow, Rect(x: 100, y: 50, width: 200, height: 200))
        let transient = try #require(shells.makeShellSurface())
        wl_shell_surface_set_transient(
            transient.shellSurface, parent.surface, 20, 30, WL_SHELL_SURFACE_TRANSIENT_INACTIVE.rawValue)
        #expect(transient.commit(width: 50, height: 40, argb: Colour.blue))
        let transientWindow = try #require(server.windows.windows.first { $0 !== parentWindow })
        #expect(transientWindow.frame == Rect(x: 120, y: 80, width: 50, height: 40))
        #expect(transientWindow.isVisible && !transientWindow.isKeyWindow && parentWindow.isKeyWindow)
        #expect(server.pixel(x: 120, y: 80) == Colour.blue)
        // Another window covers them; when the parent becomes key again its transient comes front.
        let other = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(other.shellSurface)
        #expect(other.commit(width: 400, height: 400, argb: Colour.green))
        let otherWindow = try #require(server.windows.windows.first { $0 !== parentWindow && $0 !== transientWindow })
        server.compositor.windows.setFrame(otherWindow, Rect(x: 0, y: 0, width: 400, height: 400))
        #expect(server.pixel(x: 120, y: 80) == Colour.green)
        #expect(parentWindow.makeKey())
        #expect(shells.client.roundtrip())
        let order = server.windows.windows.filter(\.isVisible).map(\.id)
        #expect(order.firstIndex(of: transientWindow.id)! > order.firstIndex(of: parentWindow.id)!)
        #expect(server.pixel(x: 120, y: 80) == Colour.blue)
    }

    @Test func maximizedIsConfiguredToTheUsableAreaAndPlacedAtItsOrigin() throws {
        let (server, shells) = try makeFixture()
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_maximized(shellSurface.shellSurface, nil)
        #expect(shells.client.roundtrip())
        let configure = try #require(shellSurface.configures.last)
        #expect((configure.width, configure.height) == (640, 480))
        #expect(shellSurface.commit(width: configure.width, height: configure.height, argb: Colour.red))
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 640, height: 480))
    }

    @Test func fullscreenAfterToplevelRestoresThePlaceWhenToplevelAgain() throws {
        let (server, shells) = try makeFixture()
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(window, Rect(x: 50, y: 60, width: 100, height: 100))
        wl_shell_surface_set_fullscreen(shellSurface.shellSurface, 0, 0, nil)
        #expect(shells.client.roundtrip())
        #expect(shellSurface.configures.last.map { ($0.width, $0.height) == (640, 480) } == true)
        #expect(shellSurface.commit(width: 640, height: 480, argb: Colour.green))
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(argb: Colour.red))
        #expect(window.frame == Rect(x: 50, y: 60, width: 100, height: 100))
    }

    @Test func popupWithAPressSerialIsShownAndAClickOutsideSendsPopupDone() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 200, height: 200, argb: Colour.red))
        let seat = try TestSeat(client: shells.client)
        _ = seat.getPointer()
        #expect(shells.client.roundtrip())
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 10, y: 10, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(shells.client.roundtrip())
        let popup = try #require(shells.makeShellSurface())
        wl_shell_surface_set_popup(popup.shellSurface, seat.seat, seat.lastPressSerial, parent.surface, 30, 40, 0)
        #expect(popup.commit(width: 50, height: 50, argb: Colour.blue))
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(server.pixel(x: 30, y: 40) == Colour.blue)
        #expect(server.pixel(x: 79, y: 89) == Colour.blue)
        #expect(server.pixel(x: 29, y: 40) == Colour.red)
        #expect(server.windows.windows.count == 1)
        server.compositor.seat.pointerMotion(on: output, x: 400, y: 400, time: 4)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 5)
        #expect(shells.client.roundtrip())
        #expect(popup.doneCount == 1)
        #expect(server.pixel(x: 30, y: 40) == Colour.red)
    }

    /// wl_shell has no error for it: a popup past the chain's depth limit (16, `TreeLimits`) is
    /// dismissed at once, and the chain above it stays shown.
    @Test func aPopupChainPastTheDepthLimitDismissesOnlyTheNewPopup() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 200, height: 200, argb: Colour.red))
        let seat = try TestSeat(client: shells.client)
        _ = seat.getPointer()
        #expect(shells.client.roundtrip())
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 10, y: 10, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(shells.client.roundtrip())
        var chain: [TestShellSurface] = []
        var above = parent
        for _ in 0..<17 {
            let popup = try #require(shells.makeShellSurface())
            wl_shell_surface_set_popup(popup.shellSurface, seat.seat, seat.lastPressSerial, above.surface, 1, 1, 0)
            #expect(popup.commit(width: 20, height: 20, argb: Colour.blue))
            chain.append(popup)
            above = popup
        }
        #expect(shells.client.roundtrip())
        #expect(chain.prefix(16).allSatisfy { $0.doneCount == 0 })
        #expect(chain[16].doneCount == 1)
        // The 16th popup is drawn 16 pixels in (to 35, 35); the 17th would have been one further.
        #expect(server.pixel(x: 35, y: 35) == Colour.blue)
        #expect(server.pixel(x: 36, y: 36) == Colour.red)
    }

    @Test func popupWithoutAValidSerialGetsPopupDoneAtOnce() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 200, height: 200, argb: Colour.red))
        let seat = try TestSeat(client: shells.client)
        let popup = try #require(shells.makeShellSurface())
        wl_shell_surface_set_popup(popup.shellSurface, seat.seat, 4242, parent.surface, 0, 0, 0)
        #expect(popup.commit(width: 50, height: 50, argb: Colour.blue))
        #expect(popup.doneCount == 1)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    @Test func popupsNamingEachOtherAsParentsAreRefusedNotLooped() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 200, height: 200, argb: Colour.red))
        let seat = try TestSeat(client: shells.client)
        let a = try #require(shells.makeShellSurface()), b = try #require(shells.makeShellSurface())
        wl_shell_surface_set_popup(a.shellSurface, seat.seat, 1, parent.surface, 0, 0, 0)
        wl_shell_surface_set_popup(b.shellSurface, seat.seat, 1, a.surface, 0, 0, 0)
        wl_shell_surface_set_popup(a.shellSurface, seat.seat, 1, b.surface, 0, 0, 0)
        #expect(a.commit(argb: Colour.blue) && b.commit(argb: Colour.green))
        server.repaint()
        #expect(a.doneCount >= 1 && b.doneCount >= 1)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    @Test func aSurfaceWithAnotherRoleIsARoleError() throws {
        let (_, shells) = try makeFixture()
        let toplevel = try #require(shells.xdg.makeToplevel())
        _ = wl_shell_get_shell_surface(shells.wlShell, toplevel.surface)
        expectXdgProtocolError(shells.client, code: WL_SHELL_ERROR_ROLE.rawValue, interface: "wl_shell")
    }

    @Test func aShellSurfaceCannotBecomeAnXdgSurface() throws {
        let (_, shells) = try makeFixture()
        let shellSurface = try #require(shells.makeShellSurface())
        _ = xdg_wm_base_get_xdg_surface(shells.xdg.wmBase, shellSurface.surface)
        expectXdgProtocolError(shells.client, code: XDG_WM_BASE_ERROR_ROLE.rawValue, interface: "xdg_wm_base")
    }

    @Test func surfaceDestroyedFirstClosesTheWindowAndLeavesTheShellSurfaceInert() throws {
        let (server, shells) = try makeFixture()
        let baseline = server.liveCounts
        do {
            let parent = try #require(shells.makeShellSurface())
            wl_shell_surface_set_toplevel(parent.shellSurface)
            #expect(parent.commit(argb: Colour.red))
            let popup = try #require(shells.makeShellSurface())
            let seat = try TestSeat(client: shells.client)
            wl_shell_surface_set_popup(popup.shellSurface, seat.seat, 1, parent.surface, 0, 0, 0)
            let window = try #require(server.windows.windows.first)
            wl_surface_destroy(parent.surface)
            #expect(shells.client.roundtrip())
            #expect(window.isClosed && server.windows.windows.isEmpty)
            // Requests on the inert wl_shell_surface do nothing.
            wl_shell_surface_set_toplevel(parent.shellSurface)
            wl_shell_surface_set_title(parent.shellSurface, "gone")
            wl_shell_surface_pong(parent.shellSurface, 1)
            wl_surface_destroy(popup.surface)
            wl_shell_surface_set_maximized(popup.shellSurface, nil)
            #expect(shells.client.roundtrip())
            #expect(server.windows.windows.isEmpty)
        }
        #expect(shells.client.roundtrip())
        // wl_shell_surface has no destructor: its resources live until the client disconnects.
        #expect(server.liveCounts.resources == baseline.resources + 2 + 1)
    }
}
