import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Screens with a scale: composed at the mode's pixels, windows and input in logical pixels, a
/// buffer drawn with the factor screen scale / buffer scale (exact pixels where it is 1:1 or an
/// integer enlargement).
@Suite struct ScaledScreenTests {
    /// A buffer whose every pixel differs from its neighbours (opaque), so a shifted or
    /// resampled pixel shows.
    static func pattern(_ x: Int32, _ y: Int32) -> UInt32 {
        0xff00_0000 | UInt32(x & 0xff) << 16 | UInt32(y & 0xff) << 8 | UInt32((x &* 7 &+ y &* 13) & 0xff)
    }

    static func drawPattern(_ buffer: TestBuffer) {
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { buffer.pixels[Int(y * buffer.width + x)] = pattern(x, y) }
        }
    }

    /// A server whose one screen has `width`×`height` pixels at `scale`.
    static func scaledServer(width: Int, height: Int, scale: Double) throws -> (TestServer, TestClient, ScreenOutput) {
        let server = try TestServer(width: width, height: height)
        let output = server.compositor.scene.outputs[0]
        server.windows.setScale(scale, for: output.screen)
        return (server, try TestClient(server: server), output)
    }

    /// A surface showing a pattern buffer of `width`×`height` pixels at `bufferScale`.
    static func patternSurface(_ client: TestClient, width: Int32, height: Int32, bufferScale: Int32 = 1) throws
        -> TestSurface
    {
        let surface = try client.makeSurface(width: width, height: height)
        drawPattern(surface.buffer)
        wl_surface_set_buffer_scale(surface.surface, bufferScale)
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, width, height)
        wl_surface_commit(surface.surface)
        client.roundtrip()
        return surface
    }

    /// Every pixel of the `width`×`height` block at (x, y) of the canvas equals `expected(i, j)`;
    /// records the first difference.
    static func expectBlock(
        _ output: ScreenOutput, x: Int32, y: Int32, width: Int32, height: Int32,
        sourceLocation: SourceLocation = #_sourceLocation, _ expected: (Int32, Int32) -> UInt32
    ) {
        for j in 0..<height {
            for i in 0..<width {
                let actual = output.canvas.pixel(x: x + i, y: y + j)
                if actual != expected(i, j) {
                    Issue.record(
                        "canvas (\(x + i), \(y + j)) is \(actual.map { String($0, radix: 16) } ?? "nil"), not \(String(expected(i, j), radix: 16))",
                        sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    @Test func theCanvasHasTheModesPixelsAndTheScreenTheLogicalSize() throws {
        let (server, _, output) = try Self.scaledServer(width: 300, height: 200, scale: 1.5)
        #expect(output.canvas.width == 300 && output.canvas.height == 200)
        #expect(output.width == 200 && output.height == 134)
        #expect(output.screen.bounds.size == Size(width: 200, height: 134))
        server.windows.setScale(2, for: output.screen)
        #expect(output.canvas.width == 300 && output.width == 150 && output.height == 100)
    }

    @Test func aScale2BufferOnAScale2ScreenIsDrawnPixelForPixel() throws {
        let (server, client, output) = try Self.scaledServer(width: 200, height: 200, scale: 2)
        let surface = try Self.patternSurface(client, width: 40, height: 40, bufferScale: 2)
        client.showPlainSurface(surface, x: 10, y: 5)
        server.repaint()
        // Logical (10, 5) is canvas (20, 10); the 20×20 logical surface is 40×40 canvas pixels.
        Self.expectBlock(output, x: 20, y: 10, width: 40, height: 40) { Self.pattern($0, $1) }
        #expect(output.canvas.pixel(x: 19, y: 10) == TestServer.background)
        #expect(output.canvas.pixel(x: 60, y: 49) == TestServer.background)
        #expect(output.canvas.pixel(x: 59, y: 50) == TestServer.background)
    }

    @Test func aScale1BufferOnAScale2ScreenIsDoubled() throws {
        let (server, client, output) = try Self.scaledServer(width: 200, height: 200, scale: 2)
        let surface = try Self.patternSurface(client, width: 20, height: 20)
        client.showPlainSurface(surface, x: 10, y: 5)
        server.repaint()
        // Each buffer pixel is a 2×2 block, exactly (nearest sampling for an integer enlargement).
        Self.expectBlock(output, x: 20, y: 10, width: 40, height: 40) { Self.pattern($0 / 2, $1 / 2) }
        #expect(output.canvas.pixel(x: 60, y: 20) == TestServer.background)
    }

    @Test(arguments: [(10, 20), (11, 21)])
    func aFractionalScaleClientsBufferIsShownOneToOneAtScale1_5(x: Int, y: Int) throws {
        let (server, client, output) = try Self.scaledServer(width: 300, height: 300, scale: 1.5)
        let viewporter = try client.bind(wp_viewporter_interface_ptr(), version: 1)
        // What a wp_fractional_scale_v1 client does at 1.5: a 150×150 buffer for a 100×100 surface.
        let surface = try client.makeSurface(width: 150, height: 150)
        Self.drawPattern(surface.buffer)
        let viewport = try #require(wp_viewporter_get_viewport(viewporter, surface.surface))
        wp_viewport_set_destination(viewport, 100, 100)
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 150, 150)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: x, y: y)
        server.repaint()
        // Logical 10 → canvas 15; logical 11 → 16.5, rounded half away from zero to 17 (and its
        // right edge, 111 → 166.5 → 167: still 150 pixels wide).
        let cx = Int32((Double(x) * 1.5).rounded()), cy = Int32((Double(y) * 1.5).rounded())
        Self.expectBlock(output, x: cx, y: cy, width: 150, height: 150) { Self.pattern($0, $1) }
        #expect(output.canvas.pixel(x: cx - 1, y: cy) == TestServer.background)
        #expect(output.canvas.pixel(x: cx + 150, y: cy) == TestServer.background)
        #expect(output.canvas.pixel(x: cx, y: cy + 150) == TestServer.background)
    }

    @Test func aScale1BufferOnAScale1_5ScreenIsFilteredToItsScaledSize() throws {
        let (server, client, output) = try Self.scaledServer(width: 300, height: 300, scale: 1.5)
        let surface = try client.makeSurface(width: 20, height: 20, argb: Colour.red)
        surface.buffer.fill(x: 10, y: 0, width: 10, height: 20, Colour.blue)
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 20, 20)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: 10, y: 10)
        server.repaint()
        // Canvas 15 ..< 45: red on the left, blue on the right, a blend only where they meet.
        #expect(output.canvas.pixel(x: 15, y: 20) == Colour.red)
        #expect(output.canvas.pixel(x: 28, y: 20) == Colour.red)
        #expect(output.canvas.pixel(x: 32, y: 20) == Colour.blue)
        #expect(output.canvas.pixel(x: 44, y: 44) == Colour.blue)
        #expect(output.canvas.pixel(x: 45, y: 20) == TestServer.background)
        #expect(output.canvas.pixel(x: 14, y: 20) == TestServer.background)
        let middle = try #require(output.canvas.pixel(x: 30, y: 20))
        #expect(middle != Colour.red && middle != Colour.blue, "bilinear filtering at the edge")
    }

    @Test func anOpaqueWindowHidesWhatIsBelowToTheCanvasPixelAtAFractionalScale() throws {
        let (server, client, output) = try Self.scaledServer(width: 300, height: 300, scale: 1.5)
        let below = try client.makeSurface(width: 100, height: 100, argb: Colour.blue)
        client.showPlainSurface(below, x: 0, y: 0)
        // Translucent format, but declared opaque: occlusion goes through the opaque region.
        let above = try client.makeSurface(width: 21, height: 21, argb: Colour.red)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let region = try #require(wl_compositor_create_region(compositor))
        wl_region_add(region, 0, 0, 21, 21)
        wl_surface_set_opaque_region(above.surface, region)
        wl_region_destroy(region)
        wl_surface_commit(above.surface)
        client.showPlainSurface(above, x: 11, y: 11)
        server.repaint()
        // Logical 11 ..< 32 is canvas round(16.5) = 17 ..< 48.
        #expect(output.canvas.pixel(x: 16, y: 30) == Colour.blue)
        #expect(output.canvas.pixel(x: 17, y: 30) == Colour.red)
        #expect(output.canvas.pixel(x: 47, y: 47) == Colour.red)
        #expect(output.canvas.pixel(x: 48, y: 30) == Colour.blue)
        #expect(output.canvas.pixel(x: 30, y: 48) == Colour.blue)
    }

    /// Occlusion by an opaque region only saves drawing: a translucent window over another one,
    /// opaque (alpha 0xff) exactly on the checkerboard its opaque region declares, looks the same
    /// as without the region, also after the window below changes. Cells of 20 make a region of a few boxes (subtracted box by box);
    /// cells of 2, one of 200 boxes (more than the compositor subtracts: drawn over instead).
    /// Scale 2 draws with whole pixels, so both pictures are exact.
    @Test(arguments: [(20, 1.0), (2, 1.0), (20, 2.0), (2, 2.0)] as [(Int32, Double)])
    func anOpaqueRegionChangesNoPixelOfTheFrame(cell: Int32, scale: Double) throws {
        func frame(opaque: Bool) throws -> [UInt32?] {
            let (server, client, output) = try Self.scaledServer(width: 100, height: 100, scale: scale)
            let below = try client.makeSurface(width: 60, height: 60, argb: Colour.blue)
            client.showPlainSurface(below, x: 0, y: 0)
            let above = try client.makeSurface(width: 40, height: 40, argb: 0x8080_0000)
            let shm = try client.bind(wl_shm_interface_ptr())
            let buffer = try #require(TestBuffer(shm: shm, width: 40, height: 40, argb: 0x8080_0000))
            let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
            let region = try #require(wl_compositor_create_region(compositor))
            for y in stride(from: Int32(0), to: 40, by: Int(cell)) {
                for x in stride(from: Int32(0), to: 40, by: Int(cell)) where (x / cell + y / cell) % 2 == 0 {
                    buffer.fill(x: x, y: y, width: cell, height: cell, 0xffff_0000)
                    wl_region_add(region, x, y, cell, cell)
                }
            }
            if opaque { wl_surface_set_opaque_region(above.surface, region) }
            wl_region_destroy(region)
            wl_surface_attach(above.surface, buffer.buffer, 0, 0)
            wl_surface_damage_buffer(above.surface, 0, 0, 40, 40)
            wl_surface_commit(above.surface)
            client.showPlainSurface(above, x: 10, y: 10)
            server.repaint()
            // The window below changes colour: a pixel wrongly left out of its part keeps the old one.
            let green = try #require(TestBuffer(shm: shm, width: 60, height: 60, argb: Colour.green))
            wl_surface_attach(below.surface, green.buffer, 0, 0)
            wl_surface_damage_buffer(below.surface, 0, 0, 60, 60)
            wl_surface_commit(below.surface)
            client.roundtrip()
            server.repaint()
            var pixels: [UInt32?] = []
            for y in 0..<output.canvas.height {
                for x in 0..<output.canvas.width { pixels.append(output.canvas.pixel(x: x, y: y)) }
            }
            // The scene is what it should be: an opaque cell, a translucent one over blue.
            let s = Int32(scale)
            #expect(output.canvas.pixel(x: 10 * s, y: 10 * s) == 0xffff_0000)
            #expect(output.canvas.pixel(x: (10 + cell) * s, y: 10 * s) != 0xffff_0000)
            #expect(output.canvas.pixel(x: (10 + cell) * s, y: 10 * s) != Colour.green)
            #expect(output.canvas.pixel(x: 5 * s, y: 5 * s) == Colour.green)
            return pixels
        }
        let occluded = try frame(opaque: true), reference = try frame(opaque: false)
        #expect(occluded.count == reference.count)
        let differing = zip(occluded, reference).filter { $0 != $1 }.count
        #expect(differing == 0)
    }

    @Test func damageOnAFractionalScreenRepaintsWhatAFullRepaintWouldChange() throws {
        let (server, client, output) = try Self.scaledServer(width: 300, height: 300, scale: 1.5)
        let surface = try client.makeSurface(width: 50, height: 50, argb: Colour.red)
        client.showPlainSurface(surface, x: 10, y: 10)
        server.repaint()
        // Logical (11, 11, 1×1) of the screen covers canvas 16.5 ..< 18: pixels 16 and 17, and one
        // more on each side for the bilinear filter's reach: 15 ..< 19.
        // A new buffer (the shown one is the compositor's until released): the same picture
        // with surface pixel (1, 1) green, and only that pixel damaged.
        let shm = try client.bind(wl_shm_interface_ptr())
        let next = try #require(TestBuffer(shm: shm, width: 50, height: 50, argb: Colour.red))
        next.fill(x: 1, y: 1, width: 1, height: 1, Colour.green)
        wl_surface_attach(surface.surface, next.buffer, 0, 0)
        wl_surface_damage(surface.surface, 1, 1, 1, 1)
        wl_surface_commit(surface.surface)
        client.roundtrip()
        server.repaint()
        #expect(output.lastPaintedArea == 16)
        var partial: [UInt32?] = []
        for y in Int32(10)..<30 { for x in Int32(10)..<30 { partial.append(output.canvas.pixel(x: x, y: y)) } }
        server.compositor.scene.damageAll(output)
        server.repaint()
        var full: [UInt32?] = []
        for y in Int32(10)..<30 { for x in Int32(10)..<30 { full.append(output.canvas.pixel(x: x, y: y)) } }
        #expect(partial == full, "the damaged repaint left no stale pixel")
        #expect(output.canvas.pixel(x: 15, y: 15) == Colour.red, "only logical pixel (1, 1) of the texture changed")
    }

    @Test func pointerHitTestingUsesLogicalCoordinatesOnAScaledScreen() throws {
        let (server, client, output) = try Self.scaledServer(width: 400, height: 400, scale: 2)
        let seat = try TestSeat(client: client)
        seat.getPointer()
        let surface = try Self.patternSurface(client, width: 40, height: 40, bufferScale: 2)
        client.showPlainSurface(surface, x: 50, y: 60)
        _ = seat.takeEvents()
        // The surface is 20×20 logical at (50, 60): canvas 100 ..< 140, but input is logical.
        #expect(server.compositor.scene.surface(at: 55, 65, on: output)?.x == 5)
        #expect(server.compositor.scene.surface(at: 105, 125, on: output) == nil)
        server.compositor.seat.pointerMotion(on: output, x: 69.5, y: 79, time: 1)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerEnter(surface: surface.id, x: 19.5, y: 19), .pointerFrame])
        server.compositor.seat.pointerMotion(on: output, x: 70, y: 79, time: 2)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerLeave(surface: surface.id), .pointerFrame])
    }

    @Test func aTurnedScaledScreenShowsAScale2BufferPixelForPixelWhereTheTransformSays() throws {
        let (server, client, output) = try Self.scaledServer(width: 40, height: 20, scale: 2)
        server.windows.setTransform(.rotated90, for: output.screen)
        #expect(output.width == 10 && output.height == 20)
        let surface = try Self.patternSurface(client, width: 20, height: 40, bufferScale: 2)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.repaint()
        let display = output.displayCanvas
        #expect(display.width == 40 && display.height == 20)
        for y in Int32(0)..<40 {
            for x in Int32(0)..<20 {
                let (px, py) = ScreenRenderingTests.displayPixel(
                    transform: .rotated90, lx: Int(x), ly: Int(y), lw: 20, lh: 40)
                guard display.pixel(x: Int32(px), y: Int32(py)) == Self.pattern(x, y) else {
                    Issue.record("canvas (\(x), \(y)) should show at (\(px), \(py))")
                    return
                }
            }
        }
    }

    @Test func anExternalScreenMirrorsAScaledMainScreen() throws {
        let server = try TestServer(screens: 2, width: 200, height: 100)
        let main = server.compositor.scene.outputs[0], second = server.compositor.scene.outputs[1]
        server.windows.setScale(2, for: main.screen)
        let client = try TestClient(server: server)
        let surface = try client.makeSurface(width: 100, height: 50, argb: Colour.red)
        surface.buffer.fill(x: 50, y: 0, width: 50, height: 50, Colour.blue)
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 100, 50)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.repaint()
        #expect(second.screen.isMirroring)
        // The main screen's 200×100 canvas shows on the 200×100 external screen as it is.
        #expect(main.canvas.pixel(x: 40, y: 50) == Colour.red && main.canvas.pixel(x: 160, y: 50) == Colour.blue)
        #expect(second.canvas.pixel(x: 40, y: 50) == Colour.red)
        #expect(second.canvas.pixel(x: 160, y: 50) == Colour.blue)
    }

    @Test func changingTheScaleRedrawsTheWholeScreenAtTheNewScale() throws {
        let (server, client, output) = try Self.scaledServer(width: 200, height: 200, scale: 1)
        let surface = try Self.patternSurface(client, width: 20, height: 20)
        client.showPlainSurface(surface, x: 10, y: 10)
        server.repaint()
        Self.expectBlock(output, x: 10, y: 10, width: 20, height: 20) { Self.pattern($0, $1) }
        server.windows.setScale(2, for: output.screen)
        server.repaint()
        Self.expectBlock(output, x: 20, y: 20, width: 40, height: 40) { Self.pattern($0 / 2, $1 / 2) }
        #expect(output.canvas.pixel(x: 10, y: 10) == TestServer.background)
    }
}
