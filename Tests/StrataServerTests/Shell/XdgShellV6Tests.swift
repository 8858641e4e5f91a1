import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// zxdg_shell_v6: the stable xdg-shell's classes speaking v6 (`XdgShellFlavor`).
@Suite struct XdgShellV6Tests {
    private func makeFixture(handshake: XdgHandshake = .strict) throws -> (server: TestServer, shells: TestLegacyShells)
    {
        let server = try TestServer()
        server.compositor.xdgHandshake = handshake
        return (server, try TestLegacyShells(client: try TestClient(server: server)))
    }

    /// The stable request tables serve v6 resources: every v6 request must be the stable request
    /// of the same opcode, with the same arguments (nullability aside).
    @Test(arguments: ["wm_base", "positioner", "surface", "toplevel", "popup"])
    func v6RequestsAreAPrefixOfTheStableRequests(interface: String) throws {
        let pairs: [String: (UnsafePointer<wl_interface>, UnsafePointer<wl_interface>)] = [
            "wm_base": (xdg_wm_base_interface_ptr(), zxdg_shell_v6_interface_ptr()),
            "positioner": (xdg_positioner_interface_ptr(), zxdg_positioner_v6_interface_ptr()),
            "surface": (xdg_surface_interface_ptr(), zxdg_surface_v6_interface_ptr()),
            "toplevel": (xdg_toplevel_interface_ptr(), zxdg_toplevel_v6_interface_ptr()),
            "popup": (xdg_popup_interface_ptr(), zxdg_popup_v6_interface_ptr()),
        ]
        let (stable, v6) = try #require(pairs[interface])
        let s = stable.pointee, u = v6.pointee
        #expect(u.method_count <= s.method_count)
        for i in 0..<Int(u.method_count) {
            let a = s.methods[i], b = u.methods[i]
            let name = String(cString: b.name)
            #expect(String(cString: a.name) == name, "\(String(cString: u.name)) request \(i)")
            let strip = { (sig: UnsafePointer<CChar>) in String(cString: sig).filter { !$0.isNumber && $0 != "?" } }
            #expect(strip(a.signature) == strip(b.signature), "\(String(cString: u.name)).\(name)")
        }
    }

    @Test func v6ToplevelMapsAsAKeyModelWindowAndUnmapsHidden() throws {
        let (server, shells) = try makeFixture()
        let toplevel = try #require(shells.makeV6Toplevel())
        zxdg_toplevel_v6_set_title(toplevel.role, "Old GTK")
        zxdg_toplevel_v6_set_app_id(toplevel.role, "org.example.old")
        #expect(toplevel.map(width: 120, height: 90, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.isVisible && window.isKeyWindow)
        #expect(window.title == "Old GTK" && window.appID == "org.example.old")
        #expect(window.frame == Rect(x: 0, y: 0, width: 120, height: 90))
        #expect(server.pixel(x: 119, y: 89) == Colour.red)
        #expect(server.pixel(x: 120, y: 40) == Colour.background)
        #expect(toplevel.isActivated)
        #expect(toplevel.unmap())
        #expect(window.isHidden && !window.isKeyWindow)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
    }

    @Test func keyFollowsThePolicyBetweenV6AndStableToplevels() throws {
        let (server, shells) = try makeFixture()
        let old = try #require(shells.makeV6Toplevel())
        #expect(old.map(argb: Colour.red))
        let new = try #require(shells.xdg.makeToplevel())
        #expect(new.map(argb: Colour.green))
        #expect(shells.client.roundtrip())
        #expect(new.isActivated && !old.isActivated)
        let oldWindow = try #require(server.windows.windows.first { ($0.frame.x, $0.frame.y) == (0, 0) })
        #expect(oldWindow.makeKey())
        #expect(shells.client.roundtrip())
        #expect(old.isActivated && !new.isActivated)
    }

    @Test func levelRuleForTheAppIDAppliesToAV6Toplevel() throws {
        let (server, shells) = try makeFixture()
        server.compositor.levelRules = LevelRules(levels: ["org.example.dock": .statusBar])
        let toplevel = try #require(shells.makeV6Toplevel())
        zxdg_toplevel_v6_set_app_id(toplevel.role, "org.example.dock")
        #expect(toplevel.map(argb: Colour.red))
        #expect(server.windows.windows.first?.level == .statusBar)
    }

    @Test func v6PopupIsPlacedByBitMaskAnchorAndGravity() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeV6Toplevel())
        #expect(parent.map(width: 100, height: 100, argb: Colour.red))
        // anchor bottom|right (2|8), gravity bottom|right: the popup hangs off the rectangle's corner.
        let positioner = try #require(
            shells.makeV6Positioner(width: 30, height: 20, anchorRect: (10, 10, 40, 40), anchor: 10, gravity: 10))
        let popup = try #require(shells.makeV6Popup(parent: parent, positioner: positioner))
        #expect(popup.map(argb: Colour.blue))
        #expect(popup.popupConfigure.map { ($0.x, $0.y, $0.width, $0.height) == (50, 50, 30, 20) } == true)
        #expect(server.pixel(x: 50, y: 50) == Colour.blue)
        #expect(server.pixel(x: 79, y: 69) == Colour.blue)
        #expect(server.pixel(x: 49, y: 49) == Colour.red)
    }

    @Test func v6PopupGrabEndsWithPopupDoneOnAClickOutside() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeV6Toplevel())
        #expect(parent.map(width: 100, height: 100, argb: Colour.red))
        let seat = try TestSeat(client: shells.client)
        _ = seat.getPointer()
        #expect(shells.client.roundtrip())
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.cursor.isHidden = true  // the pixels checked are under the pointer
        server.compositor.seat.pointerMotion(on: output, x: 10, y: 10, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(shells.client.roundtrip())
        let positioner = try #require(
            shells.makeV6Positioner(width: 30, height: 30, anchorRect: (0, 0, 10, 10), anchor: 10, gravity: 10))
        let popup = try #require(shells.makeV6Popup(parent: parent, positioner: positioner))
        zxdg_popup_v6_grab(popup.role, seat.seat, seat.lastPressSerial)
        #expect(popup.map(argb: Colour.blue))
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(server.pixel(x: 15, y: 15) == Colour.blue)
        #expect(popup.doneCount == 0)
        // A press outside the client's surfaces dismisses the popup.
        server.compositor.seat.pointerMotion(on: output, x: 300, y: 300, time: 4)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 5)
        #expect(shells.client.roundtrip())
        #expect(popup.doneCount == 1)
        #expect(server.pixel(x: 15, y: 15) == Colour.red)
    }

    @Test func lenientHandshakeAppliesToV6() throws {
        let (server, shells) = try makeFixture(handshake: .lenient)
        let toplevel = try #require(shells.makeV6Toplevel())
        wl_surface_commit(toplevel.surface)
        toplevel.attach(shells.xdg.makeBuffer(width: 50, height: 50, argb: Colour.green))
        wl_surface_commit(toplevel.surface)
        #expect(shells.client.roundtrip())
        #expect(server.windows.windows.first?.isVisible == true)
        #expect(server.pixel(x: 10, y: 10) == Colour.green)
    }

    @Test func subsurfaceLeftOfAV6ParentTakesInputAfterTheParentIsRemapped() throws {
        let (server, shells) = try makeFixture(handshake: .lenient)
        let parent = try #require(shells.makeV6Toplevel())
        #expect(parent.map(width: 200, height: 100, argb: Colour.red))
        let childSurface = try #require(shells.xdg.makeSurface())
        let subsurface = try #require(
            wl_subcompositor_get_subsurface(shells.xdg.subcompositor, childSurface, parent.surface))
        wl_subsurface_set_position(subsurface, -100, 0)
        wl_subsurface_set_desync(subsurface)
        let green = try #require(shells.xdg.makeBuffer(width: 200, height: 100, argb: Colour.green))
        wl_surface_attach(childSurface, green.buffer, 0, 0)
        wl_surface_commit(childSurface)
        wl_surface_commit(parent.surface)
        #expect(shells.client.roundtrip())
        let window = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(
            window, Rect(x: 100, y: 50, width: window.frame.width, height: window.frame.height))
        #expect(parent.unmap())
        parent.attach(shells.xdg.makeBuffer(width: 200, height: 100, argb: Colour.red))
        wl_surface_commit(parent.surface)
        #expect(shells.client.roundtrip())
        let output = try #require(server.compositor.scene.outputs.first)
        let hit = server.compositor.scene.surface(at: 110, 60, on: output)
        #expect(
            hit?.surface
                === server.compositor.surface(of: shells.client.serverClient, id: shells.client.id(of: childSurface)))
    }

    @Test func aDisabledXdgWmBaseIsNeitherAnnouncedNorAdvertised() throws {
        let server = try TestServer()
        try server.compositor.disableGlobal(named: "xdg_wm_base")
        let client = try TestClient(server: server)
        #expect(client.globals["xdg_wm_base"] == nil)
        #expect(client.globals["zxdg_shell_v6"]?.version == 1 && client.globals["wl_shell"]?.version == 1)
        #expect(!server.compositor.advertisedGlobals.contains { $0.name == "xdg_wm_base" })
        #expect(server.compositor.advertisedGlobals.contains { $0.name == "zxdg_shell_v6" })
        #expect(throws: ServerError.self) { try server.compositor.disableGlobal(named: "xdg_wm_base") }
        #expect(throws: ServerError.self) { try server.compositor.disableGlobal(named: "wl_output") }
    }

    @Test func aTouchPointHeldOverASubsurfaceThatMovesGetsItsNewPosition() throws {
        let (server, shells) = try makeFixture()
        let parent = try #require(shells.makeV6Toplevel())
        #expect(parent.map(width: 200, height: 200, argb: Colour.red))
        let childSurface = try #require(shells.xdg.makeSurface())
        let subsurface = try #require(
            wl_subcompositor_get_subsurface(shells.xdg.subcompositor, childSurface, parent.surface))
        wl_subsurface_set_position(subsurface, 50, 50)
        let green = try #require(shells.xdg.makeBuffer(width: 100, height: 100, argb: Colour.green))
        wl_surface_attach(childSurface, green.buffer, 0, 0)
        wl_surface_commit(childSurface)
        wl_surface_commit(parent.surface)
        let seat = try TestSeat(client: shells.client)
        _ = seat.getTouch()
        #expect(shells.client.roundtrip())
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.touchDown(id: 3, on: output, x: 60, y: 55, time: 1)
        #expect(shells.client.roundtrip())
        #expect(seat.takeEvents().contains(.touchDown(surface: shells.client.id(of: childSurface), id: 3, x: 10, y: 5)))
        // The subsurface moves under the still finger: the point stays with it, at its new place.
        wl_subsurface_set_position(subsurface, 30, 40)
        wl_surface_commit(parent.surface)
        #expect(shells.client.roundtrip())
        #expect(seat.takeEvents().contains(.touchMotion(id: 3, x: 30, y: 15)))
        // Nothing moved: no motion.
        wl_surface_commit(parent.surface)
        #expect(shells.client.roundtrip())
        #expect(!seat.takeEvents().contains { if case .touchMotion = $0 { return true } else { return false } })
    }

    // MARK: Errors

    @Test func commitOfAV6SurfaceWithoutARoleIsNotConstructed() throws {
        let (_, shells) = try makeFixture()
        let surface = try #require(shells.xdg.makeSurface())
        _ = zxdg_shell_v6_get_xdg_surface(shells.v6Shell, surface)
        wl_surface_commit(surface)
        expectXdgProtocolError(
            shells.client, code: ZXDG_SURFACE_V6_ERROR_NOT_CONSTRUCTED.rawValue, interface: "zxdg_surface_v6")
    }

    @Test func destroyingTheV6ShellWithLiveSurfacesIsDefunctSurfaces() throws {
        let (_, shells) = try makeFixture()
        _ = try #require(shells.makeV6Toplevel())
        zxdg_shell_v6_destroy(shells.v6Shell)
        expectXdgProtocolError(shells.client, code: ZXDG_SHELL_V6_ERROR_DEFUNCT_SURFACES.rawValue, interface: nil)
    }

    @Test func popupOfASurfaceWithoutARoleIsInvalidPopupParent() throws {
        let (_, shells) = try makeFixture()
        let surface = try #require(shells.xdg.makeSurface())
        let roleless = try #require(zxdg_shell_v6_get_xdg_surface(shells.v6Shell, surface))
        let positioner = try #require(shells.makeV6Positioner(width: 10, height: 10, anchorRect: (0, 0, 1, 1)))
        let popupSurface = try #require(shells.xdg.makeSurface())
        let xdgSurface = try #require(zxdg_shell_v6_get_xdg_surface(shells.v6Shell, popupSurface))
        _ = zxdg_surface_v6_get_popup(xdgSurface, roleless, positioner)
        expectXdgProtocolError(
            shells.client, code: ZXDG_SHELL_V6_ERROR_INVALID_POPUP_PARENT.rawValue, interface: "zxdg_shell_v6")
    }

    @Test func destroyingAV6PopupBelowAnotherIsNotTheTopmostPopup() throws {
        let (_, shells) = try makeFixture()
        let parent = try #require(shells.makeV6Toplevel())
        #expect(parent.map(argb: Colour.red))
        let positioner = try #require(shells.makeV6Positioner(width: 10, height: 10, anchorRect: (0, 0, 1, 1)))
        let first = try #require(shells.makeV6Popup(parent: parent, positioner: positioner))
        #expect(first.map(argb: Colour.blue))
        let second = try #require(shells.makeV6Popup(parent: first, positioner: positioner))
        #expect(second.map(argb: Colour.green))
        first.destroyRole()
        expectXdgProtocolError(
            shells.client, code: ZXDG_SHELL_V6_ERROR_NOT_THE_TOPMOST_POPUP.rawValue, interface: "zxdg_shell_v6")
    }

    @Test func v6SurfaceForASurfaceWithABufferIsInvalidSurfaceState() throws {
        let (_, shells) = try makeFixture()
        let surface = try #require(shells.xdg.makeSurface())
        let buffer = try #require(shells.xdg.makeBuffer(width: 10, height: 10, argb: Colour.red))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_commit(surface)
        _ = zxdg_shell_v6_get_xdg_surface(shells.v6Shell, surface)
        expectXdgProtocolError(
            shells.client, code: ZXDG_SHELL_V6_ERROR_INVALID_SURFACE_STATE.rawValue, interface: "zxdg_shell_v6")
    }

    @Test func ackOfAnUnknownSerialIsInvalidSurfaceStateInV6() throws {
        let (_, shells) = try makeFixture()
        let toplevel = try #require(shells.makeV6Toplevel())
        wl_surface_commit(toplevel.surface)
        #expect(shells.client.roundtrip())
        zxdg_surface_v6_ack_configure(toplevel.xdgSurface, 0xdead)
        expectXdgProtocolError(
            shells.client, code: ZXDG_SHELL_V6_ERROR_INVALID_SURFACE_STATE.rawValue, interface: "zxdg_shell_v6")
    }

    @Test func bufferBeforeTheInitialConfigureIsUnconfiguredBufferInV6() throws {
        let (_, shells) = try makeFixture()
        let toplevel = try #require(shells.makeV6Toplevel())
        toplevel.attach(shells.xdg.makeBuffer(width: 10, height: 10, argb: Colour.red))
        wl_surface_commit(toplevel.surface)
        expectXdgProtocolError(
            shells.client, code: ZXDG_SURFACE_V6_ERROR_UNCONFIGURED_BUFFER.rawValue, interface: "zxdg_surface_v6")
    }

    @Test func parallelAnchorEdgesAreInvalidInput() throws {
        let (_, shells) = try makeFixture()
        let positioner = try #require(zxdg_shell_v6_create_positioner(shells.v6Shell))
        zxdg_positioner_v6_set_anchor(positioner, 4 | 8)
        expectXdgProtocolError(
            shells.client, code: ZXDG_POSITIONER_V6_ERROR_INVALID_INPUT.rawValue, interface: "zxdg_positioner_v6")
    }

    @Test func emptyAnchorRectangleIsInvalidInputInV6() throws {
        let (_, shells) = try makeFixture()
        let positioner = try #require(zxdg_shell_v6_create_positioner(shells.v6Shell))
        zxdg_positioner_v6_set_anchor_rect(positioner, 0, 0, 0, 10)
        expectXdgProtocolError(
            shells.client, code: ZXDG_POSITIONER_V6_ERROR_INVALID_INPUT.rawValue, interface: "zxdg_positioner_v6")
    }

    @Test func aStableXdgSurfaceCannotBeMadeForAV6Surface() throws {
        let (_, shells) = try makeFixture()
        let toplevel = try #require(shells.makeV6Toplevel())
        toplevel.destroyRole()
        toplevel.destroyXdgSurface()
        _ = xdg_wm_base_get_xdg_surface(shells.xdg.wmBase, toplevel.surface)
        expectXdgProtocolError(shells.client, code: XDG_WM_BASE_ERROR_ROLE.rawValue, interface: "xdg_wm_base")
    }

    // MARK: Lifetimes

    @Test(arguments: [0, 1, 2])
    func v6ObjectsDieInAnyOrderAndTheWindowCloses(order: Int) throws {
        let (server, shells) = try makeFixture()
        #expect(shells.client.roundtrip())
        let baseline = server.liveCounts
        do {
            let toplevel = try #require(shells.makeV6Toplevel())
            #expect(toplevel.map(argb: Colour.red))
            let window = try #require(server.windows.windows.first)
            switch order {
            case 0:
                toplevel.destroyRole()
                toplevel.destroyXdgSurface()
                wl_surface_destroy(toplevel.surface)
            case 1:
                wl_surface_destroy(toplevel.surface)
                zxdg_toplevel_v6_set_title(toplevel.role, "after the surface died")
                toplevel.destroyRole()
                toplevel.destroyXdgSurface()
            default:
                wl_surface_destroy(toplevel.surface)
                toplevel.destroyRole()
                toplevel.destroyXdgSurface()
            }
            #expect(shells.client.roundtrip())
            #expect(window.isClosed)
            #expect(server.windows.windows.isEmpty)
        }
        #expect(shells.client.roundtrip())
        #expect(server.liveCounts == baseline, "\(server.liveCounts) vs \(baseline)")
    }
}
