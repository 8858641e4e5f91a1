import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// The cursor layer: the client's cursor surface or the theme's arrow, drawn above every window
/// at the pointer minus the hotspot, with exact damage.
@Suite struct CursorTests {
    let red: UInt32 = 0xffff_0000
    let grey: UInt32 = 0xff80_8080

    /// A client whose 100×100 grey window at (0, 0) has the pointer at (50, 50), and a 4×4 red
    /// cursor surface set with hotspot (1, 2).
    func clientWithRedCursor(_ server: TestServer) throws -> (TestClient, TestSeat, TestSurface, TestSurface) {
        let (client, seat) = try connectWithSeat(server)
        let window = try client.makeSurface(width: 100, height: 100, argb: grey)
        client.showPlainSurface(window, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 50, y: 50, time: 1)
        client.roundtrip()
        let cursor = try client.makeSurface(width: 4, height: 4, argb: red)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 1, 2)
        client.roundtrip()
        return (client, seat, window, cursor)
    }

    @Test func aClientCursorIsDrawnAtThePointerMinusItsHotspot() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((client, seat, window, cursor)) {} }
        // The cursor covers x 49…52, y 48…51.
        #expect(server.pixel(x: 49, y: 48) == red)
        #expect(server.pixel(x: 52, y: 51) == red)
        #expect(server.pixel(x: 48, y: 48) == grey)
        #expect(server.pixel(x: 53, y: 51) == grey)
        #expect(server.pixel(x: 49, y: 47) == grey)
        #expect(server.pixel(x: 49, y: 52) == grey)
        let rect = try #require(server.compositor.cursor.rect)
        #expect(rect.rect == Rect(x: 49, y: 48, width: 4, height: 4))
    }

    @Test func movingTheCursorRepaintsOnlyTheOldAndNewRectangles() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((seat, window, cursor)) {} }
        server.repaint()
        let output = server.compositor.scene.outputs[0]
        let painted = output.paintedFrames
        server.compositor.seat.pointerMotion(on: output, x: 70, y: 50, time: 2)
        client.roundtrip()
        #expect(output.damage.boxes.count == 2)
        #expect(output.damage.area == 32)
        server.repaint()
        #expect(output.paintedFrames == painted + 1)
        #expect(output.lastPaintedArea == 32)
        #expect(server.pixel(x: 49, y: 48) == grey, "the old place shows the window again")
        #expect(server.pixel(x: 69, y: 48) == red)
        // Motion inside the same pixel changes nothing: nothing is damaged or drawn.
        server.compositor.seat.pointerMotion(on: output, x: 70.5, y: 50.25, time: 3)
        client.roundtrip()
        #expect(output.damage.isEmpty)
        server.repaint()
        #expect(output.paintedFrames == painted + 1)
    }

    @Test func theCursorIsAboveEveryWindow() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((seat, window, cursor)) {} }
        let other = try TestClient(server: server)
        let above = try other.makeSurface(width: 10, height: 10, argb: 0xff00_00ff)
        // Above the first window but off the pointer: the focus and the cursor stay.
        other.showPlainSurface(above, x: 52, y: 51, makeKey: false)
        client.roundtrip()
        #expect(server.pixel(x: 52, y: 51) == red)
        #expect(server.pixel(x: 53, y: 51) == 0xff00_00ff)
    }

    @Test func setCursorWithANullSurfaceHidesTheCursor() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((window, cursor)) {} }
        #expect(server.pixel(x: 49, y: 48) == red)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, nil, 0, 0)
        client.roundtrip()
        #expect(server.pixel(x: 49, y: 48) == grey)
        #expect(server.compositor.cursor.rect == nil)
    }

    @Test func anotherCursorSurfaceOfTheSameSizeAndHotspotIsDrawn() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((window, cursor)) {} }
        #expect(server.pixel(x: 49, y: 48) == red)
        let green = try client.makeSurface(width: 4, height: 4, argb: 0xff00_ff00)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, green.surface, 1, 2)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 49, y: 48) == 0xff00_ff00 && server.pixel(x: 52, y: 51) == 0xff00_ff00)
    }

    @Test func aCursorSurfaceCannotBecomeAnXdgSurface() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((seat, window)) {} }
        let wmBase = try client.bind(xdg_wm_base_interface_ptr(), version: 5)
        _ = xdg_wm_base_get_xdg_surface(wmBase, cursor.surface)
        expectXdgProtocolError(client, code: XDG_WM_BASE_ERROR_ROLE.rawValue, interface: "xdg_wm_base")
    }

    @Test func aCursorSurfaceKeepsItsRoleForTheNextSetCursor() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime(window) {} }
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, nil, 0, 0)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 0, 0)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 50, y: 50) == red)
        #expect(server.pixel(x: 49, y: 48) == grey)
    }

    @Test func aStaleEnterSerialIsIgnored() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((window, cursor)) {} }
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial &+ 1000, nil, 0, 0)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 49, y: 48) == red)
    }

    @Test func aCursorSurfaceCommitRedrawsItAndAnswersItsFrameCallback() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((seat, window)) {} }
        server.repaint()
        let output = server.compositor.scene.outputs[0]
        let callback = try #require(TestFrameCallback(surface: cursor.surface))
        cursor.buffer.fill(0xff00_ff00)
        wl_surface_attach(cursor.surface, cursor.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(cursor.surface, 0, 0, 4, 4)
        wl_surface_commit(cursor.surface)
        client.roundtrip()
        #expect(output.damage.area == 16)
        server.repaint()
        #expect(server.pixel(x: 49, y: 48) == 0xff00_ff00)
        #expect(client.wait { callback.isDone })
    }

    @Test func wlSurfaceOffsetMovesTheHotspot() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try clientWithRedCursor(server)
        defer { withExtendedLifetime((seat, window)) {} }
        wl_surface_offset(cursor.surface, 3, 0)
        wl_surface_attach(cursor.surface, cursor.buffer.buffer, 0, 0)
        wl_surface_commit(cursor.surface)
        client.roundtrip()
        // Hotspot (1, 2) − offset (3, 0) = (−2, 2): the image starts at x 52.
        #expect(server.pixel(x: 51, y: 48) == grey)
        #expect(server.pixel(x: 52, y: 48) == red)
        #expect(server.compositor.seat.cursor?.hotspotX == -2)
    }

    @Test func aClientThatNeverSetACursorGetsTheDefaultArrow() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        defer { withExtendedLifetime(seat) {} }
        let window = try client.makeSurface(width: 100, height: 100, argb: grey)
        client.showPlainSurface(window, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 50, y: 50, time: 1)
        client.roundtrip()
        let arrow = try #require(server.compositor.cursor.theme.defaultCursor)
        try expectImage(arrow, at: (50, 50), over: grey, in: server)
    }

    @Test func overTheBackgroundTheThemesArrowIsDrawnAndLeavesNoTrace() throws {
        let server = try TestServer()
        let output = server.compositor.scene.outputs[0]
        server.repaint()
        #expect(server.compositor.cursor.rect == nil, "no cursor before the pointer has a position")
        server.compositor.seat.pointerMotion(on: output, x: 300, y: 200, time: 1)
        let arrow = try #require(server.compositor.cursor.theme.defaultCursor)
        try expectImage(arrow, at: (300, 200), over: TestServer.background, in: server)
        server.compositor.seat.pointerMotion(on: output, x: 500, y: 400, time: 2)
        try expectImage(arrow, at: (500, 400), over: TestServer.background, in: server)
        for y in Int32(150)..<250 {
            for x in Int32(250)..<350 {
                #expect(server.pixel(x: x, y: y) == TestServer.background)
            }
        }
    }

    @Test func aHiddenCursorIsNeverDrawn() throws {
        let server = try TestServer()
        server.compositor.cursor.isHidden = true
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 300, y: 200, time: 1)
        #expect(server.compositor.cursor.rect == nil)
        #expect(server.pixel(x: 300, y: 200) == TestServer.background)
        #expect(server.pixel(x: 302, y: 205) == TestServer.background)
    }

    @Test func theBuiltInArrowHasAnOutlineAndItsTipAtTheHotspot() throws {
        let arrow = try #require(CursorImage.builtInArrow())
        #expect(arrow.hotspotX == 0 && arrow.hotspotY == 0)
        #expect(arrow.pixel(x: 0, y: 0) == 0xff00_0000)
        #expect(arrow.pixel(x: 1, y: 2) == 0xffff_ffff)
        #expect(arrow.pixel(x: 10, y: 0) == 0)
    }

    @Test func anUnknownThemeFallsBackToTheBuiltInArrow() throws {
        let theme = CursorTheme(name: "no-such-theme-strata", size: 24, environment: ["XDG_DATA_HOME": "/nonexistent"])
        let image = try #require(theme.defaultCursor)
        // libXcursor still falls back to the "default" theme; either way there is an arrow.
        #expect(image.width > 0 && image.height > 0)
    }

    // MARK: Scaled and turned screens

    /// A screen of 640×480 pixels set up by `configure`, a grey window under the pointer at the
    /// logical point `pointer`, and a cursor surface of scale 2 (8×8 red buffer pixels, 4×4
    /// logical) whose hotspot (1, 2) is the blue buffer pixel (2, 4).
    func scaledCursor(
        _ server: TestServer, pointer: (Double, Double),
        configure: (WindowManager, Screen) -> Void
    ) throws -> (TestClient, TestSeat, TestSurface, TestSurface) {
        configure(server.windows, server.windows.screens[0])
        let (client, seat) = try connectWithSeat(server)
        let window = try client.makeSurface(width: 200, height: 200, argb: grey)
        client.showPlainSurface(window, x: 0, y: 0)
        server.compositor.seat.pointerMotion(
            on: server.compositor.scene.outputs[0], x: pointer.0, y: pointer.1, time: 1)
        client.roundtrip()
        let cursor = try client.makeSurface(width: 8, height: 8, argb: red)
        cursor.buffer.fill(x: 2, y: 4, width: 1, height: 1, 0xff00_00ff)
        wl_surface_set_buffer_scale(cursor.surface, 2)
        wl_surface_attach(cursor.surface, cursor.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(cursor.surface, 0, 0, 8, 8)
        wl_surface_commit(cursor.surface)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 1, 2)
        client.roundtrip()
        return (client, seat, window, cursor)
    }

    @Test func onAScreenOfScale2TheHotspotPixelIsAtThePointerInDevicePixels() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try scaledCursor(server, pointer: (50.5, 30.25)) {
            $0.setScale(2, for: $1)
        }
        defer { withExtendedLifetime((client, seat, window, cursor)) {} }
        // The pointer at canvas pixel (101, 60); the buffer drawn 1:1 from (101 − 2, 60 − 4).
        #expect(server.pixel(x: 101, y: 60) == 0xff00_00ff)
        #expect(server.pixel(x: 100, y: 60) == red && server.pixel(x: 102, y: 60) == red)
        #expect(server.pixel(x: 101, y: 59) == red && server.pixel(x: 101, y: 61) == red)
        #expect(server.pixel(x: 99, y: 56) == red && server.pixel(x: 106, y: 63) == red)
        #expect(server.pixel(x: 98, y: 56) == grey && server.pixel(x: 99, y: 55) == grey)
        #expect(server.pixel(x: 107, y: 63) == grey && server.pixel(x: 106, y: 64) == grey)
        #expect(server.compositor.cursor.rect?.rect == Rect(x: 99, y: 56, width: 8, height: 8))
        // Moving it repaints both places: nothing of the old one stays.
        let output = server.compositor.scene.outputs[0]
        server.compositor.seat.pointerMotion(on: output, x: 80, y: 70, time: 2)
        client.roundtrip()
        #expect(server.pixel(x: 160, y: 140) == 0xff00_00ff)
        for y in Int32(54)..<66 {
            for x in Int32(97)..<109 { #expect(server.pixel(x: x, y: y) == grey) }
        }
    }

    @Test func onAScreenOfScale1Point5TheCursorCoversItsScaledRectangleAtThePointer() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try scaledCursor(server, pointer: (50, 30)) { $0.setScale(1.5, for: $1) }
        defer { withExtendedLifetime((client, seat, window, cursor)) {} }
        // Pointer pixel (75, 45); hotspot (round(1.5), 3) = (2, 3); 4×4 logical = 6×6 pixels.
        #expect(server.compositor.cursor.rect?.rect == Rect(x: 73, y: 42, width: 6, height: 6))
        #expect(server.pixel(x: 73, y: 42) == red && server.pixel(x: 78, y: 47) == red)
        #expect(server.pixel(x: 72, y: 42) == grey && server.pixel(x: 73, y: 41) == grey)
        #expect(server.pixel(x: 79, y: 47) == grey && server.pixel(x: 78, y: 48) == grey)
    }

    @Test func onATurnedScreenOfScale2TheHotspotIsAtThePointerInTheShownPicture() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try scaledCursor(server, pointer: (50.5, 30.25)) {
            $0.setTransform(.rotated90, for: $1)
            $0.setScale(2, for: $1)
        }
        defer { withExtendedLifetime((client, seat, window, cursor)) {} }
        let output = server.compositor.scene.outputs[0]
        #expect(server.pixel(x: 101, y: 60) == 0xff00_00ff)
        // What a viewer sees (the screenshot) has it at the pointer's pixel too.
        let picture = try #require(output.shownImage())
        #expect(picture.pixel(x: 101, y: 60) == 0xff00_00ff)
        #expect(picture.pixel(x: 100, y: 60) == red && picture.pixel(x: 98, y: 60) == grey)
        let point = try #require(output.logicalPoint(atShownPixel: 101.5, 60.5))
        #expect(Int(point.x) == 50 && Int(point.y) == 30)
    }

    @Test func aScaleChangeMovesTheCursorToItsNewPixels() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try scaledCursor(server, pointer: (50.5, 30.25)) { _, _ in }
        defer { withExtendedLifetime((client, seat, window, cursor)) {} }
        #expect(server.compositor.cursor.rect?.rect == Rect(x: 49, y: 28, width: 4, height: 4))
        server.windows.setScale(2, for: server.windows.screens[0])
        #expect(server.compositor.cursor.rect?.rect == Rect(x: 99, y: 56, width: 8, height: 8))
        #expect(server.pixel(x: 101, y: 60) == 0xff00_00ff)
    }

    @Test func onAScreenOfScale2TheThemesArrowIsDrawnAtTheScreensScaleWithItsHotspotAtThePointer() throws {
        let server = try TestServer()
        server.windows.setScale(2, for: server.windows.screens[0])
        let output = server.compositor.scene.outputs[0]
        server.compositor.seat.pointerMotion(on: output, x: 100.5, y: 60.75, time: 1)
        server.repaint()
        let base = try #require(server.compositor.cursor.theme.defaultCursor)
        guard case .image(let shown)? = server.compositor.cursor.currentImage else {
            Issue.record("no theme image shown")
            return
        }
        // The pointer's canvas pixel is (201, 121). The theme at twice the size, drawn 1:1 when
        // it has a larger image (Adwaita has 48 pixels); else the scale-1 image enlarged twice.
        let sharp = shown.width > base.width
        #expect(sharp ? shown.width >= 2 * base.width - 2 : shown === base)
        let k: Int32 = sharp ? 1 : 2
        let rect = try #require(server.compositor.cursor.rect?.rect)
        #expect(
            rect
                == Rect(
                    x: Int(201 - k * shown.hotspotX), y: Int(121 - k * shown.hotspotY),
                    width: Int(k * shown.width), height: Int(k * shown.height)))
        var opaque = 0
        for y in 0..<shown.height {
            for x in 0..<shown.width {
                guard let p = shown.pixel(x: x, y: y), p >> 24 == 0xff else { continue }
                opaque += 1
                #expect(server.pixel(x: Int32(rect.x) + k * x, y: Int32(rect.y) + k * y) == p)
            }
        }
        #expect(opaque > 20)
    }

    @Test func extremeHotspotsAndPointsOnAScreenOfScale1Point5StayClampedAndDrawNothingWrong() throws {
        let server = try TestServer()
        let (client, seat, window, cursor) = try scaledCursor(server, pointer: (50, 30)) { $0.setScale(1.5, for: $1) }
        defer { withExtendedLifetime((window, cursor)) {} }
        let output = server.compositor.scene.outputs[0]
        for (hx, hy) in [(Int32.max, Int32.min), (Int32.min, Int32.max), (Int32.max, Int32.max)] {
            wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, hx, hy)
            #expect(client.roundtrip())
            server.repaint()
            let rect = try #require(server.compositor.cursor.rect?.rect)
            #expect(rect.width == 6 && rect.height == 6)
            #expect(abs(rect.x) <= Int(Coordinate.limit) && abs(rect.y) <= Int(Coordinate.limit))
            // Off the screen: the window shows where the pointer is.
            #expect(server.pixel(x: 75, y: 45) == grey)
        }
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 1, 2)
        #expect(client.roundtrip())
        server.compositor.seat.pointerMotion(on: output, x: 1e300, y: -1e300, time: 2)
        #expect(client.roundtrip())
        server.repaint()
        #expect(client.connectionError == 0)
    }

    /// Every fully opaque pixel of `image` drawn with its hotspot at `point`, and every fully
    /// transparent one showing `under`.
    func expectImage(
        _ image: CursorImage, at point: (Int32, Int32), over under: UInt32, in server: TestServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var opaque = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let p = image.pixel(x: x, y: y) else { continue }
                let sx = point.0 - image.hotspotX + x, sy = point.1 - image.hotspotY + y
                if p >> 24 == 0xff {
                    opaque += 1
                    #expect(server.pixel(x: sx, y: sy) == p, sourceLocation: sourceLocation)
                } else if p == 0 {
                    #expect(server.pixel(x: sx, y: sy) == under, sourceLocation: sourceLocation)
                }
            }
        }
        #expect(opaque > 20, "the arrow has an opaque body", sourceLocation: sourceLocation)
    }
}

/// wp_cursor_shape_v1: a named cursor of the theme instead of a surface.
@Suite struct CursorShapeTests {
    func pointerOverWindow(_ server: TestServer) throws -> (TestClient, TestSeat, TestSurface, OpaquePointer?) {
        let (client, seat) = try connectWithSeat(server)
        let window = try client.makeSurface(width: 100, height: 100)
        client.showPlainSurface(window, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 50, y: 50, time: 1)
        client.roundtrip()
        let manager = try client.bind(wp_cursor_shape_manager_v1_interface_ptr(), version: 1)
        let device = wp_cursor_shape_manager_v1_get_pointer(manager, seat.pointer)
        return (client, seat, window, device)
    }

    func shownImage(_ server: TestServer) -> CursorImage? {
        if case .image(let image) = server.compositor.cursor.currentImage { return image }
        return nil
    }

    @Test func everyShapeNameHasACSSName() {
        #expect(CursorShapeManager.shapeNames.count == 34)
    }

    @Test func setShapeShowsTheThemesCursorOfThatName() throws {
        let server = try TestServer()
        let (client, seat, window, device) = try pointerOverWindow(server)
        defer { withExtendedLifetime((seat, window)) {} }
        let theme = server.compositor.cursor.theme
        #expect(shownImage(server) === theme.defaultCursor)
        wp_cursor_shape_device_v1_set_shape(
            device, seat.pointerEnterSerial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT.rawValue)
        #expect(client.roundtrip())
        let text = theme.image(named: "text") ?? theme.defaultCursor
        #expect(shownImage(server) === text)
        // A surface replaces the shape, and a shape the surface (clients may mix them).
        let cursor = try client.makeSurface(width: 4, height: 4)
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 0, 0)
        client.roundtrip()
        #expect(shownImage(server) == nil)
        wp_cursor_shape_device_v1_set_shape(
            device, seat.pointerEnterSerial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT.rawValue)
        client.roundtrip()
        #expect(shownImage(server) === theme.defaultCursor)
    }

    @Test func aStaleSerialIsIgnored() throws {
        let server = try TestServer()
        let (client, seat, window, device) = try pointerOverWindow(server)
        defer { withExtendedLifetime((seat, window)) {} }
        wp_cursor_shape_device_v1_set_shape(
            device, seat.pointerEnterSerial &- 1, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_WAIT.rawValue)
        #expect(client.roundtrip())
        #expect(shownImage(server) === server.compositor.cursor.theme.defaultCursor)
    }

    @Test func aShapeOutsideTheEnumIsAnInvalidShapeError() throws {
        let server = try TestServer()
        let (client, seat, window, device) = try pointerOverWindow(server)
        defer { withExtendedLifetime((seat, window)) {} }
        wp_cursor_shape_device_v1_set_shape(device, seat.pointerEnterSerial, 35)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue)
        #expect(client.protocolError?.interface == "wp_cursor_shape_device_v1")
    }

    @Test func shapeZeroIsAnInvalidShapeErrorEvenWithoutFocus() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        defer { withExtendedLifetime(seat) {} }
        let manager = try client.bind(wp_cursor_shape_manager_v1_interface_ptr(), version: 1)
        let device = wp_cursor_shape_manager_v1_get_pointer(manager, seat.pointer)
        wp_cursor_shape_device_v1_set_shape(device, 0, 0)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue)
    }

    @Test func aDeviceOfAReleasedPointerIsInert() throws {
        let server = try TestServer()
        let (client, seat, window, device) = try pointerOverWindow(server)
        defer { withExtendedLifetime((seat, window)) {} }
        wl_pointer_release(seat.pointer)
        client.roundtrip()
        wp_cursor_shape_device_v1_set_shape(
            device, seat.pointerEnterSerial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_WAIT.rawValue)
        wp_cursor_shape_device_v1_destroy(device)
        #expect(client.roundtrip())
    }
}
