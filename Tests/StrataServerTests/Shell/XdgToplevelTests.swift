import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Toplevels as model windows: mapping, pixels, activation, states, unmapping, closing.
@Suite struct XdgToplevelTests {
    @Test func mappedToplevelIsDrawnAtItsPlacedPosition() throws {
        let (server, shell) = try makeXdgFixture()
        let first = try #require(shell.makeToplevel())
        let second = try #require(shell.makeToplevel())
        #expect(first.map(width: 100, height: 80, argb: Colour.blue))
        #expect(second.map(width: 100, height: 80, argb: Colour.red))
        let windows = server.windows.windows
        #expect(windows.count == 2)
        let frame = try #require(windows.last?.frame)
        #expect(frame.width == 100 && frame.height == 80)
        #expect(frame.x == 32 && frame.y == 32)  // cascaded from the first at (0, 0)
        #expect(server.pixel(x: 0, y: 0) == Colour.blue)
        #expect(server.pixel(x: 31, y: 31) == Colour.blue)
        #expect(server.pixel(x: 32, y: 32) == Colour.red)
        #expect(server.pixel(x: 131, y: 111) == Colour.red)
        #expect(server.pixel(x: 132, y: 40) == Colour.background)
        #expect(server.pixel(x: 40, y: 112) == Colour.background)
    }

    @Test func windowGeometryOffsetsTheSurfaceFromTheFrame() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_surface_set_window_geometry(toplevel.xdgSurface, 10, 10, 80, 60)
        #expect(toplevel.map(width: 100, height: 80, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.frame == Rect(x: 0, y: 0, width: 80, height: 60))
        // The surface's origin is 10 pixels up and left of the frame; the rest of the buffer shows.
        #expect(server.pixel(x: 0, y: 0) == Colour.red)
        #expect(server.pixel(x: 89, y: 69) == Colour.red)
        #expect(server.pixel(x: 90, y: 40) == Colour.background)
        #expect(server.pixel(x: 40, y: 70) == Colour.background)
    }

    @Test func titleAppIDAndPidReachTheModelWindow() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(toplevel.toplevel, "Notes")
        xdg_toplevel_set_app_id(toplevel.toplevel, "org.example.notes")
        #expect(shell.client.roundtrip())
        let window = try #require(server.windows.windows.first)
        #expect(window.title == "Notes")
        #expect(window.appID == "org.example.notes")
        #expect(window.pid == getpid())
    }

    @Test func newestMappedToplevelIsActivatedAndThePreviousOneIsNot() throws {
        let (server, shell) = try makeXdgFixture()
        let first = try #require(shell.makeToplevel())
        #expect(first.map(argb: Colour.red))
        #expect(first.isActivated)
        let second = try #require(shell.makeToplevel())
        #expect(second.map(argb: Colour.green))
        #expect(shell.client.roundtrip())
        #expect(second.isActivated)
        #expect(!first.isActivated)
        // Key moves back: activation follows it, and nothing else changes the state.
        let firstWindow = try #require(server.windows.windows.first { $0.frame.x == 0 })
        #expect(firstWindow.makeKey())
        #expect(shell.client.roundtrip())
        #expect(first.isActivated)
        #expect(!second.isActivated)
    }

    /// WLCS's XdgToplevelStableConfigurationTest.defaults: the configure that activates a
    /// freshly mapped 200×320 window leaves its size to the client (0×0), as does the one that
    /// deactivates it.
    @Test func activationConfiguresOfAFloatingWindowLeaveTheSizeToTheClient() throws {
        let (_, shell) = try makeXdgFixture()
        let first = try #require(shell.makeToplevel())
        #expect(first.map(width: 200, height: 320, argb: Colour.red))
        let activated = try #require(first.lastConfigure)
        #expect(activated.has(XDG_TOPLEVEL_STATE_ACTIVATED) && activated.width == 0 && activated.height == 0)
        #expect(activated.states == [XDG_TOPLEVEL_STATE_ACTIVATED.rawValue])
        let second = try #require(shell.makeToplevel())
        #expect(second.map(argb: Colour.green))
        let deactivated = try #require(first.lastConfigure)
        #expect(deactivated.states.isEmpty && deactivated.width == 0 && deactivated.height == 0)
    }

    @Test func unactivatedConfigureBeforeMapCarriesNoActivatedState() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        #expect(toplevel.lastConfigure?.has(XDG_TOPLEVEL_STATE_ACTIVATED) == false)
    }

    @Test func nullBufferUnmapsAndTheToplevelCanMapAgain() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
        #expect(toplevel.unmap())
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        let window = try #require(server.windows.windows.first)
        #expect(window.isHidden)
        #expect(!window.isKeyWindow)
        // Mapping again takes the initial configure dance again, and places the window anew.
        #expect(toplevel.map(argb: Colour.green))
        #expect(!window.isHidden)
        #expect(window.isKeyWindow)
        #expect(server.pixel(x: Int32(window.frame.x) + 10, y: Int32(window.frame.y) + 10) == Colour.green)
    }

    @Test func closeRequestSendsClose() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        let content = try #require(window.content)
        content.closeRequest()
        #expect(shell.client.roundtrip())
        #expect(toplevel.closeRequests == 1)
        // Only a request: the window stays until the client destroys the toplevel.
        #expect(!window.isClosed)
        toplevel.destroyToplevel()
        #expect(shell.client.roundtrip())
        #expect(window.isClosed)
    }

    @Test func maximizeConfiguresTheUsableAreaAndRestoresTheSize() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 120, height: 90, argb: Colour.red))
        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        let maximized = try #require(toplevel.lastConfigure)
        #expect(maximized.has(XDG_TOPLEVEL_STATE_MAXIMIZED))
        #expect(maximized.has(XDG_TOPLEVEL_STATE_ACTIVATED))
        #expect(maximized.width == 640 && maximized.height == 480)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        xdg_toplevel_unset_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        let restored = try #require(toplevel.lastConfigure)
        #expect(!restored.has(XDG_TOPLEVEL_STATE_MAXIMIZED))
        #expect(restored.width == 120 && restored.height == 90)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(window.frame == Rect(x: 0, y: 0, width: 120, height: 90))
    }

    @Test func maximizedConfigureSizeIsClampedToTheMaximumSize() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_max_size(toplevel.toplevel, 200, 150)
        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(toplevel.commitInitial())
        let configure = try #require(toplevel.lastConfigure)
        #expect(configure.has(XDG_TOPLEVEL_STATE_MAXIMIZED))
        #expect(configure.width == 200 && configure.height == 150)
    }

    @Test func fullscreenConfiguresTheScreenBounds() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        xdg_toplevel_set_fullscreen(toplevel.toplevel, nil)
        #expect(shell.client.roundtrip())
        let configure = try #require(toplevel.lastConfigure)
        #expect(configure.has(XDG_TOPLEVEL_STATE_FULLSCREEN))
        #expect(configure.width == 640 && configure.height == 480)
        #expect(toplevel.ackAndRedraw(argb: Colour.blue))
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(server.pixel(x: 639, y: 479) == Colour.blue)
    }

    @Test func minimizeHidesTheWindow() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        xdg_toplevel_set_minimized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.first?.isHidden == true)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
    }

    @Test func transientChildStaysAboveItsParent() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeToplevel())
        let child = try #require(shell.makeToplevel())
        let other = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(parent.toplevel, "parent")
        xdg_toplevel_set_title(child.toplevel, "child")
        xdg_toplevel_set_title(other.toplevel, "other")
        xdg_toplevel_set_parent(child.toplevel, parent.toplevel)
        #expect(parent.map(argb: Colour.red))
        #expect(child.map(argb: Colour.green))
        #expect(other.map(argb: Colour.blue))
        #expect(server.windows.windows.map(\.title) == ["parent", "child", "other"])
        // The parent comes back to the front and becomes key: its child follows it.
        let parentWindow = try #require(server.windows.windows.first { $0.title == "parent" })
        server.windows.show(parentWindow)
        #expect(server.windows.windows.map(\.title) == ["other", "parent", "child"])
        #expect(parentWindow.isKeyWindow)
    }

    @Test func toplevelCannotBeItsOwnParent() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_parent(toplevel.toplevel, toplevel.toplevel)
        expectXdgProtocolError(
            shell.client, code: XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue, interface: "xdg_toplevel")
    }

    @Test func moveAndResizeRequestsRefusedByTheSeatAreHarmless() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let seat = try shell.client.bind(wl_seat_interface_ptr())
        xdg_toplevel_move(toplevel.toplevel, seat, 0)
        xdg_toplevel_resize(toplevel.toplevel, seat, 0, XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT.rawValue)
        xdg_toplevel_show_window_menu(toplevel.toplevel, seat, 0, 5, 5)
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    }

    /// WLCS's XdgToplevelStableTest.surface_can_be_resized_interactively, with a client that
    /// answers: a 420×390 window at (100, 100) dragged by its top-left corner by (60, -40).
    @Test func resizingFromTheTopLeftKeepsTheBottomRightEdgesStillAsTheClientCommits() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 420, height: 390, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        server.windows.setFrame(window, Rect(x: 100, y: 100, width: 420, height: 390))
        let seat = try TestSeat(client: shell.client)
        seat.getPointer()
        #expect(shell.client.roundtrip())
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 105, y: 105, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(shell.client.roundtrip())
        xdg_toplevel_resize(
            toplevel.toplevel, seat.seat, seat.lastPressSerial, XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT.rawValue)
        #expect(shell.client.roundtrip())
        input.pointerMotion(on: output, x: 165, y: 65, time: 3)
        #expect(shell.client.roundtrip())
        let resizing = try #require(toplevel.lastConfigure)
        #expect(resizing.has(XDG_TOPLEVEL_STATE_RESIZING) && resizing.width == 360 && resizing.height == 430)
        // Nothing moves before the client draws the new size.
        #expect(window.frame == Rect(x: 100, y: 100, width: 420, height: 390))
        #expect(toplevel.ackAndRedraw(argb: Colour.green))
        #expect(window.frame == Rect(x: 160, y: 60, width: 360, height: 430))
        #expect(server.pixel(x: 160, y: 60) == Colour.green && server.pixel(x: 519, y: 479) == Colour.green)
        #expect(server.pixel(x: 150, y: 200) == Colour.background)
        // The release ends the resize; its last configure keeps the size, and committing it
        // again moves nothing. Later commits of another size are not anchored.
        input.pointerButton(BTN_LEFT, pressed: false, time: 4)
        #expect(shell.client.roundtrip())
        let ended = try #require(toplevel.lastConfigure)
        #expect(!ended.has(XDG_TOPLEVEL_STATE_RESIZING) && ended.width == 360 && ended.height == 430)
        #expect(toplevel.ackAndRedraw(argb: Colour.green))
        #expect(window.frame == Rect(x: 160, y: 60, width: 360, height: 430))
        toplevel.attach(shell.makeBuffer(width: 200, height: 200, argb: Colour.blue))
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(window.frame == Rect(x: 160, y: 60, width: 200, height: 200))
    }

    @Test func resizingFromTheBottomRightKeepsTheOrigin() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        server.windows.setFrame(window, Rect(x: 50, y: 50, width: 100, height: 100))
        let seat = try TestSeat(client: shell.client)
        seat.getPointer()
        #expect(shell.client.roundtrip())
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 140, y: 140, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(shell.client.roundtrip())
        xdg_toplevel_resize(
            toplevel.toplevel, seat.seat, seat.lastPressSerial, XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT.rawValue)
        #expect(shell.client.roundtrip())
        input.pointerMotion(on: output, x: 170, y: 150, time: 3)
        #expect(shell.client.roundtrip())
        #expect(toplevel.ackAndRedraw(argb: Colour.green))
        #expect(window.frame == Rect(x: 50, y: 50, width: 130, height: 110))
    }

    @Test func invalidResizeEdgeIsAnError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        let seat = try shell.client.bind(wl_seat_interface_ptr())
        xdg_toplevel_resize(toplevel.toplevel, seat, 0, 3)
        expectXdgProtocolError(
            shell.client, code: XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue, interface: "xdg_toplevel")
    }

    @Test func clientDisconnectingWithMappedWindowsLeavesOthersWorking() throws {
        let server = try TestServer()
        do {
            let shell = try TestXdgShell(client: TestClient(server: server))
            let a = try #require(shell.makeToplevel())
            let b = try #require(shell.makeToplevel())
            #expect(a.map(argb: Colour.red))
            #expect(b.map(argb: Colour.green))
            let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
            let popup = try #require(shell.makePopup(parent: b.xdgSurface, positioner: positioner))
            #expect(popup.map(argb: Colour.blue))
            #expect(server.windows.windows.count == 2)
        }
        server.step()
        #expect(server.windows.windows.isEmpty)
        #expect(server.windows.keyWindow == nil)
        #expect(server.pixel(x: 40, y: 40) == Colour.background)

        let shell = try TestXdgShell(client: TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.yellow))
        let frame = try #require(server.windows.windows.first?.frame)
        #expect(server.pixel(x: Int32(frame.x) + 5, y: Int32(frame.y) + 5) == Colour.yellow)
        #expect(toplevel.isActivated)
    }

    @Test func clientDyingOfAnErrorClosesItsWindows() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        xdg_toplevel_set_min_size(toplevel.toplevel, -5, -5)
        #expect(!shell.client.roundtrip())
        #expect(shell.client.protocolError?.code == XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue)
        #expect(shell.client.protocolError?.interface == "xdg_toplevel")
        server.step()
        #expect(server.windows.windows.isEmpty)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
    }

    @Test func destroyingTheSurfaceFirstClosesTheWindowAndLeavesTheRoleObjectsInert() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        toplevel.destroySurface()
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.isEmpty)
        xdg_toplevel_set_title(toplevel.toplevel, "still here")
        xdg_toplevel_set_maximized(toplevel.toplevel)
        xdg_surface_ack_configure(toplevel.xdgSurface, 1)
        toplevel.destroyToplevel()
        toplevel.destroyXdgSurface()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
    }
}
