import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

enum Anchor {
    static let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8
}

enum Layer {
    static let background: UInt32 = 0, bottom: UInt32 = 1, top: UInt32 = 2, overlay: UInt32 = 3
}

/// The model window shown by a layer surface (the window whose title is the namespace).
func layerWindow(_ server: TestServer, namespace: String) -> Window? {
    server.windows.windows.first { $0.title == namespace && $0.appID.isEmpty }
}

/// zwlr_layer_shell_v1: placement, exclusive zones, levels, keyboard interactivity, popups, closing.
@Suite struct LayerShellTests {
    @Test func aPanelAnchoredToTheTopEdgeIsStretchedAcrossTheScreen() throws {
        let (server, shell) = try makeXdgFixture()
        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "panel"))
        panel.setAnchor(Anchor.top | Anchor.left | Anchor.right)
        panel.setSize(0, 30)
        #expect(panel.map(argb: Colour.blue))
        #expect(panel.configures.first.map { ($0.width, $0.height) } ?? (0, 0) == (640, 30))
        let window = try #require(layerWindow(server, namespace: "panel"))
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 30))
        #expect(window.level == .statusBar)
        #expect(!window.canBecomeKey, "keyboard interactivity none")
        #expect(server.pixel(x: 639, y: 29) == Colour.blue)
        #expect(server.pixel(x: 10, y: 30) == Colour.background)
    }

    @Test func anchorsAndMarginsPlaceTheSurfaceAndNoAnchorCentresIt() throws {
        let (server, shell) = try makeXdgFixture()
        let corner = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "corner"))
        corner.setAnchor(Anchor.bottom | Anchor.right)
        corner.setSize(100, 50)
        corner.setMargin(right: 10, bottom: 20)
        #expect(corner.map(argb: Colour.red))
        #expect(layerWindow(server, namespace: "corner")?.frame == Rect(x: 530, y: 410, width: 100, height: 50))
        let centred = try #require(TestLayerSurface(shell: shell, layer: Layer.overlay, namespace: "centred"))
        centred.setSize(100, 100)
        #expect(centred.map(argb: Colour.green))
        #expect(layerWindow(server, namespace: "centred")?.frame == Rect(x: 270, y: 190, width: 100, height: 100))
        #expect(server.pixel(x: 320, y: 240) == Colour.green)
        #expect(server.pixel(x: 629, y: 459) == Colour.red)
    }

    @Test func anExclusiveZoneShrinksTheUsableAreaAndAMaximizedToplevelAvoidsThePanel() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 200, height: 100, argb: Colour.red))
        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 640, height: 480))

        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "panel"))
        panel.setAnchor(Anchor.top | Anchor.left | Anchor.right)
        panel.setSize(0, 30)
        panel.setExclusiveZone(30)
        #expect(panel.map(argb: Colour.blue))
        let screen = try #require(server.windows.mainScreen)
        #expect(screen.usableArea == Rect(x: 0, y: 30, width: 640, height: 450))
        // The maximized toplevel is configured to the new area and moves below the panel.
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) } ?? (0, 0) == (640, 450))
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        let maximized = try #require(server.windows.windows.first { $0.title != "panel" })
        #expect(maximized.frame == Rect(x: 0, y: 30, width: 640, height: 450))
        #expect(server.pixel(x: 10, y: 10) == Colour.blue)
        #expect(server.pixel(x: 10, y: 40) == Colour.red)
        // A new toplevel is placed inside the usable area.
        let newer = try #require(shell.makeToplevel())
        #expect(newer.map(width: 50, height: 50, argb: Colour.green))
        #expect((server.windows.keyWindow?.frame.y ?? 0) >= 30)
        // The panel goes: the area is whole again.
        panel.destroyLayerSurface()
        #expect(shell.client.roundtrip())
        #expect(screen.usableArea == Rect(x: 0, y: 0, width: 640, height: 480))
    }

    @Test func aConfiguredButUnmappedSurfaceIsReconfiguredWhenItsStateChanges() throws {
        let (_, shell) = try makeXdgFixture()
        let surface = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "late"))
        surface.setSize(200, 300)
        wl_surface_commit(surface.surface)
        #expect(shell.client.roundtrip())
        let first = try #require(surface.lastConfigure)
        #expect((first.width, first.height) == (200, 300))
        zwlr_layer_surface_v1_ack_configure(surface.layerSurface, first.serial)
        // Still no buffer: new anchors and size are committed, and answered with a configure.
        surface.setSize(0, 0)
        surface.setAnchor(Anchor.top | Anchor.bottom | Anchor.left | Anchor.right)
        wl_surface_commit(surface.surface)
        #expect(shell.client.roundtrip())
        #expect(surface.configures.count == 2)
        #expect(surface.lastConfigure.map { ($0.width, $0.height) } ?? (0, 0) == (640, 480))
    }

    @Test func aZeroSizeWithoutBothOppositeAnchorsIsAProtocolError() throws {
        let (_, shell) = try makeXdgFixture()
        let bad = try #require(TestLayerSurface(shell: shell, layer: Layer.top))
        bad.setAnchor(Anchor.top)
        bad.setSize(0, 30)
        wl_surface_commit(bad.surface)
        expectXdgProtocolError(
            shell.client, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, interface: "zwlr_layer_surface_v1")
    }

    @Test func aBufferCommittedBeforeTheFirstConfigureIsAnErrorUnderTheStrictHandshake() throws {
        let (_, shell) = try makeXdgFixture()
        let early = try #require(TestLayerSurface(shell: shell, layer: Layer.top))
        early.setSize(200, 100)
        let buffer = try #require(shell.makeBuffer(width: 200, height: 100, argb: Colour.red))
        wl_surface_attach(early.surface, buffer.buffer, 0, 0)
        wl_surface_commit(early.surface)
        expectXdgProtocolError(
            shell.client, code: ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
            interface: "zwlr_layer_surface_v1")
    }

    @Test func theLenientHandshakeMapsALayerSurfaceWhoseFirstCommitCarriesABuffer() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.xdgHandshake = .lenient
        let early = try #require(TestLayerSurface(shell: shell, layer: Layer.overlay, namespace: "early"))
        early.setSize(200, 100)
        early.setAnchor(Anchor.top | Anchor.left)
        let buffer = try #require(shell.makeBuffer(width: 200, height: 100, argb: Colour.red))
        wl_surface_attach(early.surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(early.surface, 0, 0, 200, 100)
        wl_surface_commit(early.surface)
        #expect(shell.client.roundtrip())
        #expect(early.configures.count == 1, "the configure is still sent")
        let window = try #require(layerWindow(server, namespace: "early"))
        #expect(!window.isHidden)
        #expect(window.frame == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    @Test func aSurfaceWithAnotherRoleCannotBecomeALayerSurface() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        let layerShell = try shell.client.bind(zwlr_layer_shell_v1_interface_ptr())
        _ = zwlr_layer_shell_v1_get_layer_surface(layerShell, toplevel.surface, nil, Layer.top, "x")
        expectXdgProtocolError(
            shell.client, code: ZWLR_LAYER_SHELL_V1_ERROR_ROLE.rawValue, interface: "zwlr_layer_shell_v1")
    }

    @Test func aTopLayerSurfaceStaysAboveANewerNormalWindowAndABackgroundOneBelowIt() throws {
        let (server, shell) = try makeXdgFixture()
        let wallpaper = try #require(TestLayerSurface(shell: shell, layer: Layer.background, namespace: "wallpaper"))
        wallpaper.setAnchor(Anchor.top | Anchor.bottom | Anchor.left | Anchor.right)
        wallpaper.setExclusiveZone(-1)
        #expect(wallpaper.map(argb: Colour.yellow))
        let top = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "top"))
        top.setAnchor(Anchor.top | Anchor.left)
        top.setSize(60, 60)
        #expect(top.map(argb: Colour.green))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        #expect(server.pixel(x: 10, y: 10) == Colour.green, "top layer above the newer window")
        #expect(server.pixel(x: 80, y: 80) == Colour.red, "the window above the wallpaper")
        #expect(server.pixel(x: 300, y: 300) == Colour.yellow, "the wallpaper fills the rest")
        #expect(server.windows.windows.map(\.level) == [.background, .normal, .statusBar])
    }

    @Test func keyboardInteractivityNoneNeverTakesKeyEvenWhenClicked() throws {
        let (server, shell) = try makeXdgFixture()
        let seat = try TestSeat(client: shell.client)
        seat.getPointer()
        seat.getKeyboard()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "panel"))
        panel.setAnchor(Anchor.bottom | Anchor.left | Anchor.right)
        panel.setSize(0, 30)
        #expect(panel.map(argb: Colour.blue))
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 100, y: 470, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(shell.client.roundtrip())
        #expect(
            server.compositor.seat.pointerFocus
                === server.compositor.surface(of: shell.client.serverClient, id: shell.client.id(of: panel.surface)))
        #expect(server.windows.keyWindow?.title != "panel")
        #expect(toplevel.isActivated)
    }

    @Test func exclusiveKeyboardInteractivityOnTheOverlayTakesKeyWhenItMaps() throws {
        let (server, shell) = try makeXdgFixture()
        let seat = try TestSeat(client: shell.client)
        seat.getKeyboard()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        _ = seat.takeEvents()
        let lock = try #require(TestLayerSurface(shell: shell, layer: Layer.overlay, namespace: "lock"))
        lock.setAnchor(Anchor.top | Anchor.bottom | Anchor.left | Anchor.right)
        lock.setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue)
        #expect(lock.map(argb: Colour.green))
        #expect(server.windows.keyWindow?.title == "lock")
        #expect(!toplevel.isActivated)
        let events = seat.takeEvents()
        #expect(events.contains(.keyboardLeave(surface: shell.client.id(of: toplevel.surface))))
        #expect(events.contains(.keyboardEnter(surface: shell.client.id(of: lock.surface), keys: [])))
        // It goes: key passes back to the toplevel.
        lock.destroyLayerSurface()
        #expect(shell.client.roundtrip())
        #expect(toplevel.isActivated)
    }

    @Test func exclusiveKeyboardInteractivityHoldsKeyAgainstANewToplevelAndAClick() throws {
        let (server, shell) = try makeXdgFixture()
        let lock = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "lock"))
        lock.setAnchor(Anchor.top | Anchor.left)
        lock.setSize(200, 100)
        lock.setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue)
        #expect(lock.map(argb: Colour.green))
        #expect(server.windows.keyWindow?.title == "lock")
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        #expect(server.windows.keyWindow?.title == "lock", "a new toplevel does not take key")
        #expect(!toplevel.isActivated)
        let window = try #require(server.windows.windows.first { $0.title != "lock" })
        server.windows.setFrame(window, Rect(x: 0, y: 300, width: 100, height: 100))
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 5, y: 305, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(shell.client.roundtrip())
        #expect(server.windows.keyWindow?.title == "lock", "nor does a click on it")
        // Back to on_demand: it stays key until something else takes it.
        lock.setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue)
        wl_surface_commit(lock.surface)
        #expect(shell.client.roundtrip())
        #expect(server.windows.keyWindow?.title == "lock")
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 4)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        #expect(shell.client.roundtrip())
        #expect(toplevel.isActivated)
    }

    @Test func keyboardInteractivityChangedToExclusiveTakesKey() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let bar = try #require(TestLayerSurface(shell: shell, layer: Layer.overlay, namespace: "bar"))
        bar.setAnchor(Anchor.bottom)
        bar.setSize(200, 40)
        #expect(bar.map(argb: Colour.blue))
        #expect(toplevel.isActivated)
        bar.setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue)
        wl_surface_commit(bar.surface)
        #expect(shell.client.roundtrip())
        #expect(server.windows.keyWindow?.title == "bar")
        #expect(!toplevel.isActivated)
        // An exclusive surface on the bottom layer does not hold key: normal focus rules apply.
        zwlr_layer_surface_v1_set_layer(bar.layerSurface, Layer.bottom)
        wl_surface_commit(bar.surface)
        #expect(shell.client.roundtrip())
        let window = try #require(server.windows.windows.first { $0.title != "bar" })
        #expect(server.windows.makeKey(window))
    }

    @Test func onDemandKeyboardInteractivityBecomesKeyByAClickUnderTheUIKitPolicy() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let dock = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "dock"))
        dock.setAnchor(Anchor.bottom)
        dock.setSize(200, 40)
        dock.setKeyboardInteractivity(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue)
        #expect(dock.map(argb: Colour.blue))
        #expect(toplevel.isActivated, "mapping does not take key")
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 320, y: 460, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        #expect(shell.client.roundtrip())
        #expect(server.windows.keyWindow?.title == "dock")
        #expect(!toplevel.isActivated)
    }

    @Test func aLayerSurfaceMappingUnderAStillPointerTakesThePointerFocus() throws {
        let (server, shell) = try makeXdgFixture()
        let seat = try TestSeat(client: shell.client)
        seat.getPointer()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let output = try #require(server.compositor.scene.outputs.first)
        server.compositor.seat.pointerMotion(on: output, x: 20, y: 20, time: 1)
        #expect(shell.client.roundtrip())
        _ = seat.takeEvents()
        let bar = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "bar"))
        bar.setAnchor(Anchor.top | Anchor.left | Anchor.right)
        bar.setSize(0, 40)
        #expect(bar.map(argb: Colour.blue))
        #expect(
            seat.takeEvents() == [
                .pointerLeave(surface: shell.client.id(of: toplevel.surface)),
                .pointerEnter(surface: shell.client.id(of: bar.surface), x: 20, y: 20), .pointerFrame,
            ])
        bar.destroyLayerSurface()
        #expect(shell.client.roundtrip())
        #expect(
            seat.takeEvents() == [
                .pointerLeave(surface: shell.client.id(of: bar.surface)),
                .pointerEnter(surface: shell.client.id(of: toplevel.surface), x: 20, y: 20), .pointerFrame,
            ])
    }

    @Test func aPopupOfALayerSurfaceIsPlacedRelativeToItAndDrawnAboveIt() throws {
        let (server, shell) = try makeXdgFixture()
        let bar = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "bar"))
        bar.setAnchor(Anchor.bottom | Anchor.left | Anchor.right)
        bar.setSize(0, 30)
        #expect(bar.map(argb: Colour.blue))
        let positioner = try #require(
            shell.makePositioner(
                width: 80, height: 60, anchorRect: (10, 0, 20, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_TOP_RIGHT))
        let popup = try #require(shell.makePopup(parent: nil, positioner: positioner))
        zwlr_layer_surface_v1_get_popup(bar.layerSurface, popup.popup)
        #expect(popup.map(argb: Colour.yellow))
        #expect(popup.lastConfigure.map { ($0.x, $0.y) } ?? (0, 0) == (10, -60))
        // The bar is at y 450: the popup's 60 rows end on its top edge.
        #expect(server.pixel(x: 15, y: 400) == Colour.yellow)
        #expect(server.pixel(x: 15, y: 455) == Colour.blue)
        #expect(server.pixel(x: 15, y: 385) == Colour.background)
    }

    @Test func aPopupMappedBeforeItsAckUnderTheLenientHandshakeIsPlacedWhereItsConfigureSays() throws {
        let (server, shell) = try makeXdgFixture()
        server.compositor.xdgHandshake = .lenient
        let bar = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "bar"))
        bar.setAnchor(Anchor.top | Anchor.left)
        bar.setSize(200, 100)
        #expect(bar.map(argb: Colour.blue))
        let positioner = try #require(
            shell.makePositioner(
                width: 30, height: 30, anchorRect: (5, 5, 190, 90),
                anchor: XDG_POSITIONER_ANCHOR_NONE, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let popup = try #require(shell.makePopup(parent: nil, positioner: positioner))
        zwlr_layer_surface_v1_get_popup(bar.layerSurface, popup.popup)
        // The first commit carries a buffer: it sends the configure and maps at once.
        popup.attach(shell.makeBuffer(width: 30, height: 30, argb: Colour.yellow))
        popup.commit()
        #expect(shell.client.roundtrip())
        #expect(popup.lastConfigure.map { ($0.x, $0.y) } ?? (0, 0) == (100, 50))
        #expect(server.pixel(x: 110, y: 60) == Colour.yellow)
        #expect(server.pixel(x: 10, y: 10) == Colour.blue, "not at the parent's origin")
        let output = try #require(server.compositor.scene.outputs.first)
        let hit = server.compositor.scene.surface(at: 110, 60, on: output)
        #expect(hit.map { ($0.x, $0.y) } ?? (0, 0) == (10, 10))
    }

    @Test func aLayerSurfaceIsClosedWhenItsScreenGoes() throws {
        let (server, shell) = try makeXdgFixture()
        _ = server.backend.addScreen(to: server.compositor, name: "SECOND")
        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "panel"))
        panel.setAnchor(Anchor.top | Anchor.left | Anchor.right)
        panel.setSize(0, 30)
        panel.setExclusiveZone(30)
        #expect(panel.map(argb: Colour.blue))
        let first = try #require(server.compositor.scene.outputs.first)
        server.compositor.disconnectScreen(first)
        #expect(shell.client.roundtrip())
        #expect(panel.closedCount == 1)
        #expect(layerWindow(server, namespace: "panel")?.isHidden == true)
        let remaining = try #require(server.windows.mainScreen)
        #expect(
            remaining.usableArea == remaining.bounds,
            "a closed panel reserves nothing on the screen its window moved to")
        panel.destroyLayerSurface()
        #expect(shell.client.roundtrip())
        #expect(layerWindow(server, namespace: "panel") == nil)
    }
}
