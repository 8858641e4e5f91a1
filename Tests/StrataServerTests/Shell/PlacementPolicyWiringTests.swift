import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A placement policy whose every answer is recognisable, so a test sees that a shell asked it:
/// new windows at (17, 23), maximized 10 pixels inside the work area, fullscreen one pixel short
/// of the screen's right edge and two of its bottom, restored 3 pixels right and down of the
/// saved frame.
final class RecognisablePlacement: WindowPlacementPolicy {
    var name: String { "recognisable" }

    func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect {
        Rect(x: 17, y: 23, width: size.width, height: size.height)
    }

    func maximizedFrame(for window: Window, on screen: Screen) -> Rect {
        let area = workArea(of: screen)
        return Rect(x: area.x + 10, y: area.y + 10, width: area.width - 20, height: area.height - 20)
    }

    func fullscreenFrame(for window: Window, on screen: Screen) -> Rect {
        Rect(x: 0, y: 0, width: screen.bounds.width - 1, height: screen.bounds.height - 2)
    }

    func restoredFrame(for window: Window, saved: Rect, size: Size) -> Rect {
        Rect(x: saved.x + 3, y: saved.y + 3, width: size.width, height: size.height)
    }
}

/// Every shell takes its frames from the window manager's placement policy (the screen is
/// 640×480): where a new window goes, the maximized and fullscreen sizes it is configured to and
/// the frames it gets when it commits them, and where it goes back to.
@Suite struct PlacementPolicyWiringTests {
    @Test func xdgToplevelsArePlacedMaximizedFullscreenAndRestoredByThePolicy() throws {
        let (server, shell) = try makeXdgFixture()
        server.windows.placement = RecognisablePlacement()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 120, height: 90, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.frame == Rect(x: 17, y: 23, width: 120, height: 90))

        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (620, 460) } == true)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(window.frame == Rect(x: 10, y: 10, width: 620, height: 460))
        xdg_toplevel_unset_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(window.frame == Rect(x: 20, y: 26, width: 120, height: 90))

        xdg_toplevel_set_fullscreen(toplevel.toplevel, nil)
        #expect(shell.client.roundtrip())
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (639, 478) } == true)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(window.frame == Rect(x: 0, y: 0, width: 639, height: 478))
    }

    @Test func v6ToplevelsArePlacedAndMaximizedByThePolicy() throws {
        let server = try TestServer()
        server.windows.placement = RecognisablePlacement()
        let shells = try TestLegacyShells(client: try TestClient(server: server))
        let toplevel = try #require(shells.makeV6Toplevel())
        #expect(toplevel.map(width: 120, height: 90, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.frame == Rect(x: 17, y: 23, width: 120, height: 90))

        zxdg_toplevel_v6_set_maximized(toplevel.role)
        #expect(shells.client.roundtrip())
        let configure = try #require(toplevel.toplevelConfigure)
        #expect((configure.width, configure.height) == (620, 460))
        let serial = try #require(toplevel.serials.last)
        zxdg_surface_v6_ack_configure(toplevel.xdgSurface, serial)
        let buffer = try #require(shells.xdg.makeBuffer(width: 620, height: 460, argb: Colour.red))
        toplevel.attach(buffer)
        wl_surface_commit(toplevel.surface)
        #expect(shells.client.roundtrip())
        #expect(window.frame == Rect(x: 10, y: 10, width: 620, height: 460))
    }

    @Test func wlShellSurfacesArePlacedMaximizedAndRestoredByThePolicy() throws {
        let server = try TestServer()
        server.windows.placement = RecognisablePlacement()
        let shells = try TestLegacyShells(client: try TestClient(server: server))
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(width: 120, height: 90, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        #expect(window.frame == Rect(x: 17, y: 23, width: 120, height: 90))

        wl_shell_surface_set_maximized(shellSurface.shellSurface, nil)
        #expect(shells.client.roundtrip())
        #expect(shellSurface.configures.last.map { ($0.width, $0.height) == (620, 460) } == true)
        #expect(shellSurface.commit(width: 620, height: 460, argb: Colour.red))
        #expect(window.frame == Rect(x: 10, y: 10, width: 620, height: 460))

        wl_shell_surface_set_fullscreen(shellSurface.shellSurface, 0, 0, nil)
        #expect(shells.client.roundtrip())
        #expect(shellSurface.configures.last.map { ($0.width, $0.height) == (639, 478) } == true)

        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(width: 120, height: 90, argb: Colour.red))
        #expect(window.frame == Rect(x: 20, y: 26, width: 120, height: 90))
    }

    @Test(arguments: [
        ("cascade", Rect(x: 40, y: 0, width: 100, height: 80)),
        ("top-left", Rect(x: 40, y: 0, width: 100, height: 80)),
        ("center", Rect(x: 290, y: 200, width: 100, height: 80)),
    ])
    func aNewWindowIsPlacedInsideTheWorkAreaALayerShellPanelLeaves(placement: String, expected: Rect) throws {
        let (server, shell) = try makeXdgFixture()
        server.windows.placement = try #require(WindowPlacementPolicies.named(placement))
        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "dock"))
        panel.setAnchor(Anchor.left | Anchor.top | Anchor.bottom)
        panel.setSize(40, 0)
        panel.setExclusiveZone(40)
        #expect(panel.map(argb: Colour.blue))
        #expect(
            server.windows.placement.workArea(of: try #require(server.windows.mainScreen))
                == Rect(x: 40, y: 0, width: 600, height: 480))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 100, height: 80, argb: Colour.red))
        #expect(server.windows.keyWindow?.frame == expected)
        // Maximized into the same work area.
        xdg_toplevel_set_maximized(toplevel.toplevel)
        #expect(shell.client.roundtrip())
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (600, 480) } == true)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(server.windows.keyWindow?.frame == Rect(x: 40, y: 0, width: 600, height: 480))
    }

    @Test(arguments: WindowPlacementPolicies.allNames)
    func extremeTransientOffsetsAndCommitOffsetsGiveClampedFramesUnderEveryPolicy(placement: String) throws {
        let server = try TestServer()
        server.windows.placement = try #require(WindowPlacementPolicies.named(placement))
        let shells = try TestLegacyShells(client: try TestClient(server: server))
        let parent = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(parent.shellSurface)
        #expect(parent.commit(width: 100, height: 100, argb: Colour.red))
        let parentWindow = try #require(server.windows.windows.first)
        server.compositor.windows.setFrame(parentWindow, Rect(x: 600, y: -20, width: 100, height: 100))
        let limit = Int(Coordinate.limit)
        for (dx, dy) in [(Int32.max, Int32.min), (Int32.min, Int32.max)] {
            let transient = try #require(shells.makeShellSurface())
            wl_shell_surface_set_transient(transient.shellSurface, parent.surface, dx, dy, 0)
            #expect(transient.commit(width: 50, height: 40, argb: Colour.blue))
            let window = try #require(server.windows.windows.last { $0 !== parentWindow && $0.isVisible })
            // The requested position is far outside: the window opens inside the work area.
            #expect(window.frame == Rect(x: dx > 0 ? 590 : 0, y: dy > 0 ? 440 : 0, width: 50, height: 40))
            // Commit offsets past the limit, again and again: the frame stays at the limit.
            for _ in 0..<3 {
                let buffer = try #require(shells.xdg.makeBuffer(width: 50, height: 40, argb: Colour.green))
                wl_surface_attach(transient.surface, buffer.buffer, 0, 0)
                wl_surface_offset(transient.surface, dx, dy)
                wl_surface_commit(transient.surface)
                #expect(shells.client.roundtrip())
            }
            #expect(window.frame == Rect(x: dx > 0 ? limit : -limit, y: dy > 0 ? limit : -limit, width: 50, height: 40))
        }
        #expect(shells.client.roundtrip(), "the client is still connected")
        #expect(server.pixel(x: 610, y: 10) == Colour.red)
    }

    // MARK: Windows larger than the work area (640×480)

    @Test(arguments: WindowPlacementPolicies.allNames)
    func anXdgToplevelLargerThanTheWorkAreaIsAskedForTheBoundedSizeAndOpensAtItsTopLeft(placement: String) throws {
        let (server, shell) = try makeXdgFixture()
        server.windows.placement = try #require(WindowPlacementPolicies.named(placement))
        // One small window first: the cascade's next place is not its corner.
        #expect(try #require(shell.makeToplevel()).map(width: 50, height: 50, argb: Colour.blue))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 900, height: 600, argb: Colour.red))
        #expect(toplevel.bounds.map { ($0.width, $0.height) == (640, 480) } == true)
        let window = try #require(server.windows.windows.last)
        #expect(window.frame == Rect(x: 0, y: 0, width: 900, height: 600))
        let bounded = try #require(toplevel.lastConfigure)
        #expect((bounded.width, bounded.height) == (640, 480))
        // Until the client acknowledges it, every configure asks for the bound (GTK answers the
        // last configure it read only).
        _ = server.windows.makeKey(server.windows.windows[0])
        #expect(shell.client.roundtrip())
        #expect(
            toplevel.lastConfigure.map { ($0.width, $0.height) == (640, 480) && !$0.has(XDG_TOPLEVEL_STATE_ACTIVATED) }
                == true)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        // Acknowledged: the next configure leaves the size to the client again.
        _ = server.windows.makeKey(window)
        #expect(shell.client.roundtrip())
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (0, 0) } == true)
    }

    @Test func anXdgToplevelTallerThanTheWorkAreaIsBoundedOnThatAxisOnly() throws {
        // gtk3-demo's Button Boxes (702×746) on a 1280×720 screen.
        let server = try TestServer(width: 1280, height: 720)
        let shell = try TestXdgShell(client: TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 702, height: 746, argb: Colour.red))
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (702, 720) } == true)
        #expect(toplevel.ackAndRedraw(argb: Colour.red))
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 702, height: 720))
    }

    @Test func aClientThatInsistsOnItsSizeKeepsItWithItsTopLeftInsideTheWorkArea() throws {
        let (server, shell) = try makeXdgFixture()
        server.windows.placement = CenterPlacement()
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_min_size(toplevel.toplevel, 700, 300)
        #expect(toplevel.map(width: 800, height: 300, argb: Colour.red))
        let window = try #require(server.windows.windows.first)
        // Centred vertically, at the left edge horizontally.
        #expect(window.frame == Rect(x: 0, y: 90, width: 800, height: 300))
        // Its minimum size wins over the bound: asked for 700×300.
        #expect(toplevel.lastConfigure.map { ($0.width, $0.height) == (700, 300) } == true)
        // It draws 800×300 again anyway: it keeps that, where it is.
        toplevel.ack()
        toplevel.attach(shell.makeBuffer(width: 800, height: 300, argb: Colour.green))
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(window.frame == Rect(x: 0, y: 90, width: 800, height: 300))
        #expect(server.pixel(x: 0, y: 90) == Colour.green)
    }

    @Test func aWindowThatFitsIsNeverAskedForASize() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 640, height: 480, argb: Colour.red))
        #expect(!toplevel.configures.isEmpty)
        #expect(toplevel.configures.allSatisfy { $0.width == 0 && $0.height == 0 })
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 640, height: 480))
    }

    @Test func aWlShellSurfaceLargerThanTheWorkAreaIsAskedForTheBoundedSize() throws {
        let server = try TestServer()
        let shells = try TestLegacyShells(client: try TestClient(server: server))
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        #expect(shellSurface.commit(width: 1000, height: 300, argb: Colour.red))
        #expect(shellSurface.configures.last.map { ($0.width, $0.height) == (640, 300) } == true)
        #expect(shellSurface.commit(width: 640, height: 300, argb: Colour.red))
        #expect(server.windows.windows.first?.frame == Rect(x: 0, y: 0, width: 640, height: 300))
    }

    @Test func theDefaultCascadeIsTheCompositorsAndASwitchPlacesTheNextWindowOnly() throws {
        let (server, shell) = try makeXdgFixture()
        #expect(server.windows.placement.name == "cascade")
        let first = try #require(shell.makeToplevel())
        #expect(first.map(width: 100, height: 80, argb: Colour.red))
        server.windows.placement = CenterPlacement()
        let second = try #require(shell.makeToplevel())
        #expect(second.map(width: 100, height: 80, argb: Colour.blue))
        let windows = server.windows.windows
        #expect(
            windows.map(\.frame) == [
                Rect(x: 0, y: 0, width: 100, height: 80), Rect(x: 270, y: 200, width: 100, height: 80),
            ])
    }
}
