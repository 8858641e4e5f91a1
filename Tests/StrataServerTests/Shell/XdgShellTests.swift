import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// The xdg_surface handshake and the protocol errors of xdg-shell.
@Suite struct XdgShellTests {
    @Test func initialCommitGetsCapabilitiesBoundsThenConfigure() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(toplevel.events == ["wm_capabilities", "configure_bounds", "configure", "xdg_surface.configure"])
        let capabilities = try #require(toplevel.capabilities)
        #expect(capabilities.contains(XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE.rawValue))
        #expect(capabilities.contains(XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN.rawValue))
        // set_minimized is honoured (the window is hidden), so minimize is offered.
        #expect(capabilities.contains(XDG_TOPLEVEL_WM_CAPABILITIES_MINIMIZE.rawValue))
        #expect(!capabilities.contains(XDG_TOPLEVEL_WM_CAPABILITIES_WINDOW_MENU.rawValue))
        #expect(toplevel.bounds?.width == 640 && toplevel.bounds?.height == 480)
        let configure = try #require(toplevel.lastConfigure)
        #expect(configure.width == 0 && configure.height == 0)
        #expect(configure.states.isEmpty)
        // Not mapped yet: the model window exists, hidden.
        #expect(server.windows.windows.count == 1)
        #expect(server.windows.windows.first?.isHidden == true)
    }

    @Test func capabilitiesAreSentOnceBeforeTheFirstConfigureOnly() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(toplevel.events.filter { $0 == "wm_capabilities" }.count == 1)
        #expect(toplevel.events.first == "wm_capabilities")
        // The initial configure, activated on becoming key, maximized: capabilities only before the first.
        #expect(toplevel.events.filter { $0 == "configure" }.count == 3)
    }

    @Test func noConfigureIsSentBeforeTheInitialCommitOnlyTheCapabilities() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(toplevel.toplevel, "early")
        #expect(shell.client.roundtrip())
        // wm_capabilities comes with get_toplevel (WLCS 1.8.1's wm_capabilities_are_sent).
        #expect(toplevel.events == ["wm_capabilities"])
    }

    @Test func ackWithAnUnknownSerialIsAnInvalidSerialError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        let serial = try #require(toplevel.lastConfigure?.serial)
        toplevel.ack(serial &+ 1000)
        expectXdgProtocolError(shell.client, code: XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, interface: "xdg_surface")
    }

    @Test func ackingTheSameSerialTwiceIsAnInvalidSerialError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        toplevel.ack()
        #expect(shell.client.roundtrip())
        toplevel.ack()
        expectXdgProtocolError(shell.client, code: XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, interface: "xdg_surface")
    }

    @Test func bufferCommittedBeforeTheInitialConfigureIsAnUnconfiguredBufferError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        toplevel.attach(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        toplevel.commit()
        expectXdgProtocolError(
            shell.client, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, interface: "xdg_surface")
    }

    @Test func bufferCommittedBeforeTheAckIsAnUnconfiguredBufferError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        toplevel.attach(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        toplevel.commit()
        expectXdgProtocolError(
            shell.client, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, interface: "xdg_surface")
    }

    @Test func bufferAttachedToAnXdgSurfaceWithoutARoleIsAnErrorAtOnce() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(shell.makeSurface())
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        let buffer = try #require(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        expectXdgProtocolError(
            shell.client, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, interface: "xdg_surface")
    }

    @Test func lenientHandshakeMapsABufferCommittedBeforeTheInitialConfigure() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.xdgHandshake = .lenient
        let toplevel = try #require(shell.makeToplevel())
        toplevel.attach(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(toplevel.events.contains("xdg_surface.configure"))
        #expect(server.windows.windows.first?.isHidden == false)
    }

    @Test func lenientHandshakeMapsABufferCommittedBeforeTheAck() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.xdgHandshake = .lenient
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        toplevel.attach(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.first?.isHidden == false)
    }

    @Test func lenientHandshakeStillRefusesABufferOnAnXdgSurfaceWithoutARole() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.xdgHandshake = .lenient
        let surface = try #require(shell.makeSurface())
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        let buffer = try #require(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        expectXdgProtocolError(
            shell.client, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, interface: "xdg_surface")
    }

    @Test func xdgSurfaceForASurfaceWithABufferIsAnError() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(shell.makeSurface())
        let buffer = try #require(shell.makeBuffer(width: 10, height: 10, argb: Colour.red))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        expectXdgProtocolError(
            shell.client, code: XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE.rawValue, interface: "xdg_wm_base")
    }

    @Test func negativeMinimumSizeIsAnInvalidSizeError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_min_size(toplevel.toplevel, -1, 10)
        expectXdgProtocolError(shell.client, code: XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, interface: "xdg_toplevel")
    }

    @Test func minimumSizeAboveMaximumSizeIsAnInvalidSizeErrorAtCommit() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_min_size(toplevel.toplevel, 300, 10)
        xdg_toplevel_set_max_size(toplevel.toplevel, 200, 0)
        #expect(shell.client.roundtrip())
        toplevel.commit()
        expectXdgProtocolError(shell.client, code: XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue, interface: "xdg_toplevel")
    }

    @Test func nonPositiveWindowGeometryIsAnInvalidSizeError() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        xdg_surface_set_window_geometry(toplevel.xdgSurface, 0, 0, 0, 10)
        expectXdgProtocolError(shell.client, code: XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, interface: "xdg_surface")
    }

    @Test func subsurfaceCannotAlsoBeAnXdgSurface() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeSurface())
        let child = try #require(shell.makeSurface())
        _ = wl_subcompositor_get_subsurface(shell.subcompositor, child, parent)
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, child)
        expectXdgProtocolError(shell.client, code: XDG_WM_BASE_ERROR_ROLE.rawValue, interface: "xdg_wm_base")
    }

    @Test func toplevelSurfaceCannotAlsoBeASubsurface() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        let parent = try #require(shell.makeSurface())
        _ = wl_subcompositor_get_subsurface(shell.subcompositor, toplevel.surface, parent)
        expectXdgProtocolError(
            shell.client, code: WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue, interface: "wl_subcompositor")
    }

    @Test func secondXdgSurfaceForOneSurfaceIsARoleError() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(shell.makeSurface())
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        expectXdgProtocolError(shell.client, code: XDG_WM_BASE_ERROR_ROLE.rawValue, interface: "xdg_wm_base")
    }

    @Test func secondToplevelForOneXdgSurfaceIsAlreadyConstructed() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        _ = xdg_surface_get_toplevel(toplevel.xdgSurface)
        expectXdgProtocolError(
            shell.client, code: XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, interface: "xdg_surface")
    }

    @Test func commitOfAnXdgSurfaceWithoutARoleIsNotConstructed() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(shell.makeSurface())
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        wl_surface_commit(surface)
        expectXdgProtocolError(shell.client, code: XDG_SURFACE_ERROR_NOT_CONSTRUCTED.rawValue, interface: "xdg_surface")
    }

    @Test func destroyingTheXdgSurfaceBeforeItsToplevelIsDefunctRoleObject() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        toplevel.destroyXdgSurface()
        expectXdgProtocolError(shell.client, code: XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue, interface: nil)
    }

    @Test func destroyingTheWmBaseWithLiveSurfacesIsDefunctSurfaces() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(shell.makeSurface())
        _ = xdg_wm_base_get_xdg_surface(shell.wmBase, surface)
        xdg_wm_base_destroy(shell.wmBase)
        expectXdgProtocolError(shell.client, code: XDG_WM_BASE_ERROR_DEFUNCT_SURFACES.rawValue, interface: nil)
    }

    @Test func toplevelAndXdgSurfaceDestroyedInOrderLeaveTheSurfaceReusable() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        toplevel.destroyToplevel()
        toplevel.destroyXdgSurface()
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.isEmpty)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        // The wl_surface keeps its xdg role: emptied, it can get a new xdg_surface and toplevel.
        toplevel.attach(nil)
        toplevel.commit()
        let xdgSurface = try #require(xdg_wm_base_get_xdg_surface(shell.wmBase, toplevel.surface))
        _ = xdg_surface_get_toplevel(xdgSurface)
        #expect(shell.client.roundtrip())
        #expect(server.windows.windows.count == 1)
    }

    @Test func zeroPositionerSizeIsAnInvalidInputError() throws {
        let (_, shell) = try makeXdgFixture()
        let positioner = try #require(xdg_wm_base_create_positioner(shell.wmBase))
        xdg_positioner_set_size(positioner, 0, 10)
        expectXdgProtocolError(
            shell.client, code: XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue, interface: "xdg_positioner")
    }

    @Test func popupWithAnIncompletePositionerIsAnInvalidPositionerError() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeToplevel())
        #expect(parent.map(argb: Colour.red))
        let positioner = try #require(xdg_wm_base_create_positioner(shell.wmBase))
        xdg_positioner_set_size(positioner, 10, 10)
        let surface = try #require(shell.makeSurface())
        let xdgSurface = try #require(xdg_wm_base_get_xdg_surface(shell.wmBase, surface))
        _ = xdg_surface_get_popup(xdgSurface, parent.xdgSurface, positioner)
        expectXdgProtocolError(
            shell.client, code: XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, interface: "xdg_wm_base")
    }

    @Test func pongWithAnyGoodOrStaleSerialKeepsTheClientConnected() throws {
        let (_, shell) = try makeXdgFixture()
        xdg_wm_base_pong(shell.wmBase, 12345)
        #expect(shell.client.roundtrip())
        #expect(shell.client.connectionError == 0)
    }
}
