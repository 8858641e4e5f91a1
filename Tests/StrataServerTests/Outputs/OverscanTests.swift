import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataRender
@testable import StrataServer
import StrataTestSupport
import Testing

/// Overscan compensation as the screen shows it (pixel-exact, deterministic buffers) and as
/// clients see it (xdg-output, configures).
@Suite struct OverscanRenderingTests {
    /// A 200×100 screen with one window of `argb` filling its bounds at (0, 0).
    func screen(overscan: Double, _ compensation: OverscanCompensation, argb: UInt32 = Colour.red)
        throws -> (TestServer, TestXdgShell, ScreenOutput)
    {
        let server = try TestServer(width: 200, height: 100)
        let output = server.compositor.scene.outputs[0]
        try server.windows.setOverscan(overscan, compensation: compensation, for: output.screen)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        let size = output.screen.bounds.size
        #expect(toplevel.map(width: Int32(size.width), height: Int32(size.height), argb: argb))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 0, y: 0, width: size.width, height: size.height))
        server.repaint()
        return (server, shell, output)
    }

    /// Every pixel of `display` inside `inner` is `argb` and every pixel outside `safe` is black.
    func expectPicture(_ display: Canvas, inner: Rect, safe: Rect, argb: UInt32) {
        for y in 0..<Int(display.height) {
            for x in 0..<Int(display.width) {
                let p = display.pixel(x: Int32(x), y: Int32(y))
                let inSafe = x >= safe.x && x < safe.maxX && y >= safe.y && y < safe.maxY
                let inInner = x >= inner.x && x < inner.maxX && y >= inner.y && y < inner.maxY
                if !inSafe, p != 0xff00_0000 {
                    Issue.record("(\(x),\(y)) is outside the safe area but not black: \(String(p ?? 0, radix: 16))")
                    return
                }
                if inInner, p != argb {
                    Issue.record("(\(x),\(y)) should be \(String(argb, radix: 16)), is \(String(p ?? 0, radix: 16))")
                    return
                }
            }
        }
    }

    @Test func scaleCompensationShrinksThePictureIntoTheSafeAreaInsideABlackBorder() throws {
        let (server, shell, output) = try screen(overscan: 10, .scale)
        // Bounds and canvas are unchanged; the display shows the canvas at 90 % in (10,5 180×90).
        #expect(output.screen.bounds == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(output.canvas.width == 200 && output.canvas.height == 100)
        let display = output.displayCanvas
        #expect(display !== output.canvas)
        #expect(display.width == 200 && display.height == 100)
        // The outermost ring of the safe area blends the picture's edge; everything inside is exact.
        expectPicture(
            display, inner: Rect(x: 11, y: 6, width: 178, height: 88), safe: Rect(x: 10, y: 5, width: 180, height: 90),
            argb: Colour.red)
        withExtendedLifetime((server, shell)) {}
    }

    @Test func insetCompensationComposesTheSafeAreaAtFullSharpnessInsideABlackBorder() throws {
        let (server, shell, output) = try screen(overscan: 10, .insetBounds)
        #expect(output.screen.bounds == Rect(x: 0, y: 0, width: 180, height: 90))
        #expect(output.canvas.width == 180 && output.canvas.height == 90)
        let display = output.displayCanvas
        #expect(display.width == 200 && display.height == 100)
        let safe = Rect(x: 10, y: 5, width: 180, height: 90)
        expectPicture(display, inner: safe, safe: safe, argb: Colour.red)
        withExtendedLifetime((server, shell)) {}
    }

    @Test func noCompensationShowsTheCanvasItself() throws {
        let (server, shell, output) = try screen(overscan: 10, .none)
        #expect(output.screen.bounds == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(output.displayCanvas === output.canvas)
        #expect(output.presentation == nil)
        let whole = Rect(x: 0, y: 0, width: 200, height: 100)
        expectPicture(output.displayCanvas, inner: whole, safe: whole, argb: Colour.red)
        withExtendedLifetime((server, shell)) {}
    }

    @Test func insetCompensationOnATurnedScreenPlacesTheTurnedPictureInTheSafeArea() throws {
        let server = try TestServer(width: 200, height: 100)
        let output = server.compositor.scene.outputs[0]
        server.windows.setTransform(.rotated90, for: output.screen)
        try server.windows.setOverscan(10, compensation: .insetBounds, for: output.screen)
        #expect(output.screen.bounds.size == Size(width: 90, height: 180))
        server.repaint()
        // The display is the mode (200×100); the safe area is 10,5 180×90 on it, background.
        let display = output.displayCanvas
        #expect(display.width == 200 && display.height == 100)
        let safe = Rect(x: 10, y: 5, width: 180, height: 90)
        expectPicture(display, inner: safe, safe: safe, argb: TestServer.background)
    }

    @Test func aPartialRepaintKeepsTheBorderBlackAndUpdatesOnlyThePictureUnderIt() throws {
        let (server, shell, output) = try screen(overscan: 10, .insetBounds)
        // A second small window at (20, 20): only its part of the picture changes.
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 10, height: 10, argb: Colour.blue))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 20, y: 20, width: 10, height: 10))
        server.repaint()
        let display = output.displayCanvas
        #expect(display.pixel(x: 35, y: 30) == Colour.blue)
        #expect(display.pixel(x: 29, y: 24) == Colour.red)
        #expect(display.pixel(x: 5, y: 30) == 0xff00_0000)
        // The frame presented only the new window's pixels (where it mapped, cascaded to
        // (32, 32), and where it was moved, (20, 20)), moved into the safe area by (10, 5).
        let damage = output.presentedDamage.extents
        #expect((damage.x1, damage.y1, damage.x2, damage.y2) == (30, 25, 52, 47))
    }

    @Test func displayPixelsMapBackToTheLogicalPointsTheyShow() throws {
        let (server, shell, output) = try screen(overscan: 10, .scale)
        #expect(output.logicalPoint(atDisplayPixel: 10, 5) == Point(x: 0, y: 0))
        #expect(output.logicalPoint(atDisplayPixel: 100, 50) == Point(x: 100, y: 50))
        #expect(output.logicalPoint(atDisplayPixel: 55, 95) == nil)  // the bottom border
        #expect(output.logicalPoint(atDisplayPixel: 5, 50) == nil)
        try server.windows.setOverscan(10, compensation: .insetBounds, for: output.screen)
        server.repaint()
        #expect(output.logicalPoint(atDisplayPixel: 10, 5) == Point(x: 0, y: 0))
        #expect(output.logicalPoint(atDisplayPixel: 189, 94) == Point(x: 179, y: 89))
        // The top-left window is what hit testing finds at the point the display pixel shows.
        let p = try #require(output.logicalPoint(atDisplayPixel: 20, 20))
        #expect(server.compositor.scene.surface(at: p.x, p.y, on: output) != nil)
        withExtendedLifetime(shell) {}
    }

    @Test func turningOverscanOffShowsTheCanvasAgain() throws {
        let (server, shell, output) = try screen(overscan: 10, .scale)
        try server.windows.setOverscan(0, compensation: .scale, for: output.screen)
        server.repaint()
        #expect(output.presentation == nil)
        #expect(output.displayCanvas.pixel(x: 0, y: 0) == Colour.red)
        withExtendedLifetime(shell) {}
    }
}

/// What clients see of an inset screen.
@Suite struct OverscanProtocolTests {
    @Test func insetBoundsReconfigureMaximizedAndFullscreenWindowsAndAnnounceTheSmallerLogicalSize() throws {
        let server = try TestServer(width: 640, height: 480)
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let maximized = try #require(shell.makeToplevel())
        #expect(maximized.map(width: 100, height: 100, argb: Colour.red))
        xdg_toplevel_set_maximized(maximized.toplevel)
        let fullscreen = try #require(shell.makeToplevel())
        #expect(fullscreen.map(width: 100, height: 100, argb: Colour.blue))
        xdg_toplevel_set_fullscreen(fullscreen.toplevel, nil)
        let manager = try client.bind(zxdg_output_manager_v1_interface_ptr(), version: 3)
        let name = try #require(client.allGlobals.first { $0.interface == "wl_output" }?.name)
        let wlOutput = try #require(client.bind(name: name, wl_output_interface_ptr(), version: 4))
        let xdg = zxdg_output_manager_v1_get_xdg_output(manager, wlOutput)
        let record = OutputTests.XdgOutputRecord()
        zxdg_output_v1_add_listener(xdg, &OutputTests.xdgOutputListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(client.roundtrip())
        #expect(record.sizes.last.map { $0 == (640, 480) } == true)
        let screen = server.compositor.scene.outputs[0].screen
        try server.windows.setOverscan(5, compensation: .insetBounds, for: screen)
        #expect(client.roundtrip())
        // 95 % of 640×480 is 608×456.
        let m = try #require(maximized.lastConfigure), f = try #require(fullscreen.lastConfigure)
        #expect(m.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && m.width == 608 && m.height == 456)
        #expect(f.has(XDG_TOPLEVEL_STATE_FULLSCREEN) && f.width == 608 && f.height == 456)
        #expect(record.sizes.last.map { $0 == (608, 456) } == true)
        // Scale compensation gives the whole screen back to clients.
        try server.windows.setOverscan(5, compensation: .scale, for: screen)
        #expect(client.roundtrip())
        #expect(maximized.lastConfigure.map { $0.width == 640 && $0.height == 480 } == true)
        #expect(record.sizes.last.map { $0 == (640, 480) } == true)
        withExtendedLifetime(record) {}
    }

    @Test func aPanelOnAnInsetScreenIsArrangedInTheSafeAreaAndReconfiguredWhenItChanges() throws {
        let (server, shell) = try makeXdgFixture()  // 640×480
        let panel = try #require(TestLayerSurface(shell: shell, layer: Layer.top, namespace: "panel"))
        panel.setAnchor(Anchor.bottom | Anchor.left | Anchor.right)
        panel.setSize(0, 30)
        panel.setExclusiveZone(30)
        #expect(panel.map(argb: Colour.blue))
        #expect(panel.lastConfigure.map { ($0.width, $0.height) } ?? (0, 0) == (640, 30))
        let screen = server.compositor.scene.outputs[0].screen
        try server.windows.setOverscan(10, compensation: .insetBounds, for: screen)
        #expect(shell.client.roundtrip())
        // 576×432 bounds: the panel is as wide as them, at their bottom; the usable area is above it.
        let configure = try #require(panel.lastConfigure)
        #expect((configure.width, configure.height) == (576, 30))
        // The panel draws at its new size.
        zwlr_layer_surface_v1_ack_configure(panel.layerSurface, configure.serial)
        let buffer = try #require(shell.makeBuffer(width: 576, height: 30, argb: Colour.blue))
        wl_surface_attach(panel.surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(panel.surface, 0, 0, 576, 30)
        wl_surface_commit(panel.surface)
        #expect(shell.client.roundtrip())
        #expect(layerWindow(server, namespace: "panel")?.frame == Rect(x: 0, y: 402, width: 576, height: 30))
        #expect(screen.usableArea == Rect(x: 0, y: 0, width: 576, height: 402))
        // On the display: the panel's bottom row is the safe area's (5 % of 480 = 24 pixels up).
        server.repaint()
        let display = server.compositor.scene.outputs[0].displayCanvas
        #expect(display.pixel(x: 320, y: 455) == Colour.blue)
        #expect(display.pixel(x: 320, y: 456) == 0xff00_0000)
        #expect(display.pixel(x: 31, y: 440) == 0xff00_0000)
        #expect(display.pixel(x: 32, y: 440) == Colour.blue)
    }

    @Test func aNewWindowOnAnInsetScreenIsPlacedInsideTheSmallerBounds() throws {
        let server = try TestServer(width: 200, height: 100)
        let screen = server.compositor.scene.outputs[0].screen
        try server.windows.setOverscan(20, compensation: .insetBounds, for: screen)
        server.windows.placement = CenterPlacement()
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 60, height: 40, argb: Colour.green))
        let window = try #require(server.windows.windows.last)
        // 160×80 bounds: centred at (50, 20).
        #expect(window.frame == Rect(x: 50, y: 20, width: 60, height: 40))
    }
}

/// Capture paths on an overscanned screen: screencopy copies the display's pixels (the border
/// too), a region maps into the safe area, a mirror shows the shown picture.
@Suite struct OverscanCaptureTests {
    @Test func screencopyCopiesExactlyWhatTheOverscannedDimmedScreenShows() throws {
        let setup = try ScreencopyTests.makeSetup(width: 200, height: 100)
        let server = setup.server
        let output = server.compositor.scene.outputs[0]
        server.windows.setBrightness(0.5, for: output.screen)
        try server.windows.setOverscan(10, compensation: .scale, for: output.screen)
        server.repaint()
        let record = ScreencopyTests.FrameRecord()
        let frame = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        zwlr_screencopy_frame_v1_add_listener(
            frame, &ScreencopyTests.frameListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(setup.shell.client.roundtrip())
        let target = try #require(setup.shell.makeBuffer(width: 200, height: 100, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(setup.shell.client.wait { record.ready })
        let display = output.displayCanvas
        var mismatches = 0
        for y in 0..<Int32(100) {
            for x in 0..<Int32(200) where target.pixels[Int(y * 200 + x)] | 0xff00_0000 != display.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(target.pixels[0] | 0xff00_0000 == 0xff00_0000)  // the border
        #expect(target.pixels[20 * 200 + 20] | 0xff00_0000 == 0xff7f_0000)  // the red window, dimmed
        zwlr_screencopy_frame_v1_destroy(frame)
    }

    @Test func aRegionOfAnInsetScreenIsCopiedFromTheSafeArea() throws {
        let setup = try ScreencopyTests.makeSetup(width: 200, height: 100)
        let output = setup.server.compositor.scene.outputs[0]
        try setup.server.windows.setOverscan(10, compensation: .insetBounds, for: output.screen)
        setup.server.repaint()
        // Logical (0, 0) is display pixel (10, 5): the region's buffer is its logical size.
        let record = ScreencopyTests.FrameRecord()
        let frame = zwlr_screencopy_manager_v1_capture_output_region(setup.manager, 0, setup.output, 0, 0, 20, 10)
        zwlr_screencopy_frame_v1_add_listener(
            frame, &ScreencopyTests.frameListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(setup.shell.client.roundtrip())
        let buffer = try #require(record.buffer)
        #expect(buffer.width == 20 && buffer.height == 10)
        let target = try #require(setup.shell.makeBuffer(width: 20, height: 10, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(setup.shell.client.wait { record.ready })
        // The window (red, 60×40 at the work area's top-left) fills the region: no border in it.
        #expect((0..<200).allSatisfy { target.pixels[$0] | 0xff00_0000 == 0xffff_0000 })
        zwlr_screencopy_frame_v1_destroy(frame)
    }

    @Test func aMirrorShowsTheMainScreensPictureAfterBrightnessAndOverscan() throws {
        let server = try TestServer(width: 200, height: 100)
        let main = server.compositor.scene.outputs[0]
        let added = server.backend.addScreen(to: server.compositor, modes: [ScreenMode(width: 200, height: 100)])
        let mirror = try #require(added)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 200, height: 100, argb: Colour.red))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 0, y: 0, width: 200, height: 100))
        server.windows.setBrightness(0.5, for: main.screen)
        try server.windows.setOverscan(10, compensation: .scale, for: main.screen)
        server.repaint()
        server.repaint()
        #expect(mirror.screen.isMirroring)
        // Same size: the mirror is the main screen's shown picture, pixel for pixel.
        let shown = main.displayCanvas
        var mismatches = 0
        for y in 0..<Int32(100) {
            for x in 0..<Int32(200) where mirror.canvas.pixel(x: x, y: y) != shown.pixel(x: x, y: y) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(mirror.canvas.pixel(x: 2, y: 2) == 0xff00_0000)
        #expect(mirror.canvas.pixel(x: 100, y: 50) == 0xff7f_0000)
    }

    @Test func aMirrorOfATurnedMainScreenShowsItUpright() throws {
        let server = try TestServer(width: 200, height: 100)
        let main = server.compositor.scene.outputs[0]
        let added = server.backend.addScreen(to: server.compositor, modes: [ScreenMode(width: 100, height: 200)])
        let mirror = try #require(added)
        server.windows.setTransform(.rotated90, for: main.screen)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        // The main screen is 100×200 logical; a window on its top half.
        #expect(toplevel.map(width: 100, height: 100, argb: Colour.red))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 0, y: 0, width: 100, height: 100))
        server.repaint()
        server.repaint()
        // The 100×200 mirror shows the upright picture 1:1: red on top, background below.
        #expect(mirror.canvas.pixel(x: 50, y: 50) == Colour.red)
        #expect(mirror.canvas.pixel(x: 50, y: 150) == TestServer.background)
        withExtendedLifetime(toplevel) {}
    }
}
