import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Popups: positioner rules, constraint adjustments against the screen, reposition, grabs,
/// dismissal and stacking above the parent.
@Suite struct XdgPopupTests {
    /// A mapped red toplevel at (0, 0) of `width`×`height`.
    private func parent(_ shell: TestXdgShell, width: Int32 = 200, height: Int32 = 200) throws -> TestToplevel {
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: width, height: height, argb: Colour.red))
        return toplevel
    }

    @Test func popupIsPlacedByAnchorAndGravityAndDrawnAboveItsParent() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let positioner = try #require(
            shell.makePositioner(
                width: 50, height: 30, anchorRect: (10, 10, 20, 20),
                anchor: XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.commitInitial())
        #expect(popup.events == ["configure", "xdg_surface.configure"])
        let configure = try #require(popup.lastConfigure)
        #expect(configure.x == 30 && configure.y == 30 && configure.width == 50 && configure.height == 30)
        #expect(popup.ackAndRedraw(argb: Colour.blue))
        #expect(server.pixel(x: 29, y: 29) == Colour.red)
        #expect(server.pixel(x: 30, y: 30) == Colour.blue)
        #expect(server.pixel(x: 79, y: 59) == Colour.blue)
        #expect(server.pixel(x: 80, y: 45) == Colour.red)
        #expect(server.pixel(x: 50, y: 60) == Colour.red)
        // A popup is no window of its own.
        #expect(server.windows.windows.count == 1)
    }

    @Test func centredAnchorAndGravityWithOffset() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let positioner = try #require(
            shell.makePositioner(width: 40, height: 20, anchorRect: (0, 0, 100, 100), offset: (5, -3)))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.commitInitial())
        let configure = try #require(popup.lastConfigure)
        #expect(configure.x == 50 - 20 + 5 && configure.y == 50 - 10 - 3)
    }

    @Test func popupFlipsAwayFromTheScreenEdge() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell, width: 600, height: 400)
        let positioner = try #require(
            shell.makePositioner(
                width: 100, height: 50, anchorRect: (580, 10, 10, 10),
                anchor: XDG_POSITIONER_ANCHOR_TOP_RIGHT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT,
                constraints: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X.rawValue))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.commitInitial())
        let configure = try #require(popup.lastConfigure)
        #expect(configure.x == 480 && configure.y == 10)
    }

    @Test func popupSlidesAlongTheScreenEdge() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell, width: 600, height: 400)
        let positioner = try #require(
            shell.makePositioner(
                width: 100, height: 50, anchorRect: (580, 10, 10, 10),
                anchor: XDG_POSITIONER_ANCHOR_TOP_RIGHT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT,
                constraints: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.commitInitial())
        let configure = try #require(popup.lastConfigure)
        #expect(configure.x == 540 && configure.y == 10)
    }

    @Test func popupFlipsUpFromTheBottomEdgeAndIsResizedWhenNothingElseFits() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell, width: 600, height: 460)
        let flip = try #require(
            shell.makePositioner(
                width: 100, height: 60, anchorRect: (10, 440, 10, 10),
                anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT,
                constraints: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y.rawValue))
        let flipped = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: flip))
        #expect(flipped.commitInitial())
        #expect(flipped.lastConfigure?.x == 10 && flipped.lastConfigure?.y == 440 - 60)

        let resize = try #require(
            shell.makePositioner(
                width: 100, height: 600, anchorRect: (10, 10, 10, 10),
                anchor: XDG_POSITIONER_ANCHOR_BOTTOM_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT,
                constraints: XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y.rawValue))
        let resized = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: resize))
        #expect(resized.commitInitial())
        #expect(resized.lastConfigure?.y == 20 && resized.lastConfigure?.height == 460)
    }

    @Test func repositionSendsRepositionedThenConfigureAndMovesAfterTheAck() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let first = try #require(
            shell.makePositioner(
                width: 20, height: 20, anchorRect: (0, 0, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: first))
        #expect(popup.map(argb: Colour.blue))
        #expect(server.pixel(x: 5, y: 5) == Colour.blue)
        let second = try #require(
            shell.makePositioner(
                width: 20, height: 20, anchorRect: (100, 100, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        xdg_popup_reposition(popup.popup, second, 7)
        #expect(shell.client.roundtrip())
        #expect(popup.repositionedTokens == [7])
        #expect(Array(popup.events.suffix(3)) == ["repositioned", "configure", "xdg_surface.configure"])
        #expect(popup.lastConfigure?.x == 100 && popup.lastConfigure?.y == 100)
        // Not moved until the client acks and commits.
        #expect(server.pixel(x: 5, y: 5) == Colour.blue)
        #expect(popup.ackAndRedraw(argb: Colour.blue))
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
        #expect(server.pixel(x: 105, y: 105) == Colour.blue)
    }

    @Test func popupFollowsItsParentWindowWhenItMoves() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell, width: 100, height: 100)
        let positioner = try #require(
            shell.makePositioner(
                width: 20, height: 20, anchorRect: (50, 50, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.map(argb: Colour.blue))
        let window = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(window, Rect(x: 200, y: 100, width: 100, height: 100))
        #expect(server.pixel(x: 55, y: 55) == Colour.background)
        #expect(server.pixel(x: 255, y: 155) == Colour.blue)
        #expect(server.pixel(x: 245, y: 145) == Colour.red)
    }

    @Test func aReactivePopupIsConfiguredAgainWhenItsParentMovesAndANonReactiveOneIsNot() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell, width: 100, height: 100)
        let slide =
            XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X.rawValue
            | XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y.rawValue
        func positioner(reactive: Bool) throws -> OpaquePointer {
            let positioner = try #require(
                shell.makePositioner(
                    width: 20, height: 20, anchorRect: (0, 0, 1, 1),
                    anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_TOP_LEFT, constraints: slide
                ))
            if reactive { xdg_positioner_set_reactive(positioner) }
            return positioner
        }
        let reactive = try #require(
            shell.makePopup(parent: parent.xdgSurface, positioner: try positioner(reactive: true)))
        #expect(reactive.map(argb: Colour.blue))
        let fixed = try #require(
            shell.makePopup(parent: parent.xdgSurface, positioner: try positioner(reactive: false)))
        #expect(fixed.map(argb: Colour.green))
        // At the screen's corner both slid onto the screen, over the parent's corner.
        #expect(reactive.lastConfigure?.x == 0 && reactive.lastConfigure?.y == 0)
        let (reactiveConfigures, fixedConfigures) = (reactive.configures.count, fixed.configures.count)
        let window = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(window, Rect(x: 200, y: 100, width: 100, height: 100))
        #expect(shell.client.roundtrip())
        // Now the reactive one fits where its rules put it; no repositioned (it was not asked for).
        #expect(reactive.configures.count == reactiveConfigures + 1)
        #expect(reactive.lastConfigure?.x == -20 && reactive.lastConfigure?.y == -20)
        #expect(!reactive.events.contains("repositioned"))
        #expect(fixed.configures.count == fixedConfigures)
        // Applied when acked and committed, as any configure.
        #expect(server.pixel(x: 185, y: 85) == Colour.background)
        #expect(reactive.ackAndRedraw(argb: Colour.blue))
        #expect(server.pixel(x: 185, y: 85) == Colour.blue)
        // Moving again where nothing changes for it sends nothing.
        server.compositor.windows.setFrame(window, Rect(x: 250, y: 150, width: 100, height: 100))
        #expect(shell.client.roundtrip())
        #expect(reactive.configures.count == reactiveConfigures + 1)
    }

    @Test func grabWithoutAValidSerialIsDismissedWithPopupDone() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let seat = try shell.client.bind(wl_seat_interface_ptr())
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        xdg_popup_grab(popup.popup, seat, 12345)
        #expect(shell.client.roundtrip())
        #expect(popup.doneCount == 1)
        // A dismissed popup is never shown, even if the client goes on mapping it.
        #expect(popup.map(argb: Colour.blue))
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
        popup.destroyPopup()
        #expect(shell.client.roundtrip())
    }

    @Test func grabAfterTheInitialCommitIsAnInvalidGrabError() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let seat = try shell.client.bind(wl_seat_interface_ptr())
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.commitInitial())
        xdg_popup_grab(popup.popup, seat, 0)
        expectXdgProtocolError(shell.client, code: XDG_POPUP_ERROR_INVALID_GRAB.rawValue, interface: "xdg_popup")
    }

    @Test func nestedPopupIsDrawnAboveItsParentPopup() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let p1 = try #require(
            shell.makePositioner(
                width: 50, height: 50, anchorRect: (10, 10, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let outer = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: p1))
        #expect(outer.map(argb: Colour.blue))
        let p2 = try #require(
            shell.makePositioner(
                width: 50, height: 50, anchorRect: (20, 20, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let inner = try #require(shell.makePopup(parent: outer.xdgSurface, positioner: p2))
        #expect(inner.map(argb: Colour.green))
        // inner at parent-geometry (10 + 20, 10 + 20) on screen.
        #expect(server.pixel(x: 15, y: 15) == Colour.blue)
        #expect(server.pixel(x: 30, y: 30) == Colour.green)
        #expect(server.pixel(x: 79, y: 79) == Colour.green)
        #expect(server.pixel(x: 85, y: 85) == Colour.red)
    }

    @Test func destroyingAPopupBelowAnotherIsNotTheTopmostPopup() throws {
        let (_, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let outer = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(outer.map(argb: Colour.blue))
        let inner = try #require(shell.makePopup(parent: outer.xdgSurface, positioner: positioner))
        #expect(inner.map(argb: Colour.green))
        outer.destroyPopup()
        expectXdgProtocolError(
            shell.client, code: XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP.rawValue, interface: "xdg_wm_base")
    }

    @Test func destroyingPopupsTopmostFirstUnmapsThem() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let positioner = try #require(
            shell.makePositioner(
                width: 20, height: 20, anchorRect: (0, 0, 1, 1),
                anchor: XDG_POSITIONER_ANCHOR_TOP_LEFT, gravity: XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT))
        let outer = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(outer.map(argb: Colour.blue))
        let inner = try #require(shell.makePopup(parent: outer.xdgSurface, positioner: positioner))
        #expect(inner.map(argb: Colour.green))
        #expect(server.pixel(x: 5, y: 5) == Colour.green)
        inner.destroyPopup()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 5, y: 5) == Colour.blue)
        outer.destroyPopup()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
    }

    @Test func unmappingTheParentDismissesItsPopups() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try parent(shell)
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let popup = try #require(shell.makePopup(parent: parent.xdgSurface, positioner: positioner))
        #expect(popup.map(argb: Colour.blue))
        #expect(parent.unmap())
        #expect(popup.doneCount == 1)
        #expect(server.pixel(x: 5, y: 5) == Colour.background)
    }

    @Test func popupWithoutAParentIsAnInvalidPopupParentErrorAtCommit() throws {
        let (_, shell) = try makeXdgFixture()
        let positioner = try #require(shell.makePositioner(width: 20, height: 20, anchorRect: (0, 0, 10, 10)))
        let popup = try #require(shell.makePopup(parent: nil, positioner: positioner))
        popup.commit()
        expectXdgProtocolError(
            shell.client, code: XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, interface: "xdg_wm_base")
    }
}
