import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// wp_viewporter: crop and scale double-buffered with the surface, and the errors the spec names.
@Suite struct ViewporterTests {
    func fixture() throws -> (TestServer, TestClient, OpaquePointer) {
        let server = try TestServer(width: 200, height: 200)
        let client = try TestClient(server: server)
        let viewporter = try client.bind(wp_viewporter_interface_ptr(), version: 1)
        return (server, client, viewporter)
    }

    func fixed(_ value: Double) -> Int32 { Int32(value * 256) }

    @Test func theDestinationScalesTheBufferToTheSurfaceSize() throws {
        let (server, client, viewporter) = try fixture()
        let surface = try client.makeSurface(width: 20, height: 10, argb: Colour.red)
        let viewport = try #require(wp_viewporter_get_viewport(viewporter, surface.surface))
        wp_viewport_set_destination(viewport, 80, 40)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: 10, y: 10)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
        #expect(server.pixel(x: 89, y: 49) == Colour.red)
        #expect(server.pixel(x: 90, y: 30) == Colour.background)
        #expect(server.pixel(x: 50, y: 50) == Colour.background)
    }

    @Test func theSourceCropsAndItsSizeBecomesTheSurfaceSize() throws {
        let (server, client, viewporter) = try fixture()
        let surface = try client.makeSurface(width: 20, height: 10, argb: Colour.red)
        surface.buffer.fill(x: 10, y: 0, width: 10, height: 10, Colour.blue)
        let viewport = try #require(wp_viewporter_get_viewport(viewporter, surface.surface))
        wp_viewport_set_source(viewport, fixed(10), 0, fixed(10), fixed(10))
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 20, 10)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: 0, y: 0)
        #expect(server.pixel(x: 0, y: 0) == Colour.blue)
        #expect(server.pixel(x: 9, y: 9) == Colour.blue)
        #expect(server.pixel(x: 10, y: 5) == Colour.background)
    }

    @Test func sourceAndDestinationTogetherScaleTheCroppedPart() throws {
        let (server, client, viewporter) = try fixture()
        let surface = try client.makeSurface(width: 20, height: 10, argb: Colour.red)
        surface.buffer.fill(x: 10, y: 0, width: 10, height: 10, Colour.blue)
        let viewport = try #require(wp_viewporter_get_viewport(viewporter, surface.surface))
        wp_viewport_set_source(viewport, fixed(10), 0, fixed(10), fixed(10))
        wp_viewport_set_destination(viewport, 100, 50)
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 20, 10)
        wl_surface_commit(surface.surface)
        client.showPlainSurface(surface, x: 0, y: 0)
        // Bilinear scaling: half a source pixel (5 screen pixels) at the crop's left edge blends
        // with the buffer pixel left of the crop, as in GL compositors; inside, exactly blue.
        #expect(server.pixel(x: 6, y: 2) == Colour.blue)
        #expect(server.pixel(x: 97, y: 47) == Colour.blue)
        #expect(server.pixel(x: 50, y: 25) == Colour.blue)
        #expect(server.pixel(x: 101, y: 25) == Colour.background)
    }

    @Test func viewportStateWaitsForTheCommitAndDestroyingTheViewportUndoesIt() throws {
        let (server, client, viewporter) = try fixture()
        let surface = try client.makeSurface(width: 20, height: 10, argb: Colour.red)
        client.showPlainSurface(surface, x: 0, y: 0)
        let viewport = try #require(wp_viewporter_get_viewport(viewporter, surface.surface))
        wp_viewport_set_destination(viewport, 60, 60)
        client.roundtrip()
        #expect(server.pixel(x: 30, y: 30) == Colour.background)
        wl_surface_commit(surface.surface)
        client.roundtrip()
        #expect(server.pixel(x: 30, y: 30) == Colour.red)
        wp_viewport_destroy(viewport)
        wl_surface_commit(surface.surface)
        client.roundtrip()
        #expect(server.pixel(x: 30, y: 30) == Colour.background)
        #expect(server.pixel(x: 19, y: 9) == Colour.red)
    }

    @Test func aNegativeSourceIsABadValueError() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        let viewport = wp_viewporter_get_viewport(viewporter, surface.surface)
        wp_viewport_set_source(viewport, fixed(-2), 0, fixed(5), fixed(5))
        expectXdgProtocolError(client, code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, interface: "wp_viewport")
    }

    @Test func aZeroDestinationIsABadValueError() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        let viewport = wp_viewporter_get_viewport(viewporter, surface.surface)
        wp_viewport_set_destination(viewport, 0, 10)
        expectXdgProtocolError(client, code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue, interface: "wp_viewport")
    }

    @Test func aFractionalSourceSizeWithoutDestinationIsABadSizeErrorAtCommit() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        let viewport = wp_viewporter_get_viewport(viewporter, surface.surface)
        wp_viewport_set_source(viewport, 0, 0, fixed(5.5), fixed(5))
        #expect(client.roundtrip())
        wl_surface_commit(surface.surface)
        expectXdgProtocolError(client, code: WP_VIEWPORT_ERROR_BAD_SIZE.rawValue, interface: "wp_viewport")
    }

    @Test func aSourceOutsideTheBufferIsAnOutOfBufferErrorAtCommit() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        let viewport = wp_viewporter_get_viewport(viewporter, surface.surface)
        wp_viewport_set_source(viewport, fixed(15), 0, fixed(10), fixed(5))
        wp_viewport_set_destination(viewport, 10, 10)
        #expect(client.roundtrip())
        wl_surface_commit(surface.surface)
        expectXdgProtocolError(client, code: WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue, interface: "wp_viewport")
    }

    @Test func aSecondViewportForOneSurfaceIsAViewportExistsError() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        _ = wp_viewporter_get_viewport(viewporter, surface.surface)
        _ = wp_viewporter_get_viewport(viewporter, surface.surface)
        expectXdgProtocolError(client, code: WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue, interface: "wp_viewporter")
    }

    @Test func aViewportWhoseSurfaceIsGoneRaisesNoSurface() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        let viewport = wp_viewporter_get_viewport(viewporter, surface.surface)
        wl_surface_destroy(surface.surface)
        #expect(client.roundtrip())
        wp_viewport_set_destination(viewport, 10, 10)
        expectXdgProtocolError(client, code: WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, interface: "wp_viewport")
    }

    @Test func aNewViewportIsAllowedAfterTheFirstIsDestroyed() throws {
        let (server, client, viewporter) = try fixture()
        defer { withExtendedLifetime(server) {} }
        let surface = try client.makeSurface(width: 20, height: 10)
        wp_viewport_destroy(wp_viewporter_get_viewport(viewporter, surface.surface))
        _ = wp_viewporter_get_viewport(viewporter, surface.surface)
        #expect(client.roundtrip())
    }
}
