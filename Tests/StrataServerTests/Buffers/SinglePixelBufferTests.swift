import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// wp_single_pixel_buffer_manager_v1: one-colour 1×1 buffers, scaled by a viewport.
@Suite struct SinglePixelBufferTests {
    @Test func aSinglePixelBufferThroughAViewportFillsTheDestination() throws {
        let server = try TestServer(width: 200, height: 200)
        let client = try TestClient(server: server)
        let manager = try client.bind(wp_single_pixel_buffer_manager_v1_interface_ptr(), version: 1)
        let viewporter = try client.bind(wp_viewporter_interface_ptr(), version: 1)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = try #require(wl_compositor_create_surface(compositor))
        let buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(manager, 0, 0xffff_ffff, 0, 0xffff_ffff)
        let viewport = wp_viewporter_get_viewport(viewporter, surface)
        wp_viewport_set_destination(viewport, 50, 40)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, 1, 1)
        wl_surface_commit(surface)
        #expect(client.roundtrip())
        let window = server.compositor.showPlainSurface(
            client: client.serverClient, surfaceID: wl_proxy_get_id(surface),
            x: 10, y: 10, level: .normal, makeKey: true)
        #expect(window != nil)
        #expect(server.pixel(x: 10, y: 10) == Colour.green)
        #expect(server.pixel(x: 59, y: 49) == Colour.green)
        #expect(server.pixel(x: 60, y: 30) == Colour.background)
        #expect(server.pixel(x: 30, y: 50) == Colour.background)
    }

    @Test func withoutAViewportASinglePixelBufferIsOnePixel() throws {
        let server = try TestServer(width: 200, height: 200)
        let client = try TestClient(server: server)
        let manager = try client.bind(wp_single_pixel_buffer_manager_v1_interface_ptr(), version: 1)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = try #require(wl_compositor_create_surface(compositor))
        let buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(manager, 0xffff_ffff, 0, 0, 0xffff_ffff)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_commit(surface)
        #expect(client.roundtrip())
        _ = server.compositor.showPlainSurface(
            client: client.serverClient, surfaceID: wl_proxy_get_id(surface),
            x: 5, y: 5, level: .normal, makeKey: true)
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
        #expect(server.pixel(x: 6, y: 5) == Colour.background)
        #expect(server.pixel(x: 5, y: 6) == Colour.background)
    }
}
