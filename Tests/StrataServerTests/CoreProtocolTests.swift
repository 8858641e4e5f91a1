import CStrataClientGlue
import CWaylandClient
import StrataTestSupport
import Testing

@Suite struct CoreProtocolTests {
    @Test func serverAnnouncesCoreGlobalsAtTheirVersions() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let expected: [String: UInt32] = [
            "wl_compositor": 5, "wl_subcompositor": 1, "wl_shm": 1, "wl_output": 4, "wl_seat": 8,
            "xdg_wm_base": 5, "wl_data_device_manager": 3,
        ]
        for (name, version) in expected {
            #expect(client.globals[name]?.version == version, "\(name)")
        }
    }

    @Test func negativeBufferScaleIsAnInvalidScaleError() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = wl_compositor_create_surface(compositor)
        wl_surface_set_buffer_scale(surface, 0)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WL_SURFACE_ERROR_INVALID_SCALE.rawValue)
        #expect(client.protocolError?.interface == "wl_surface")
    }

    @Test func attachWithOffsetOnVersionFiveIsAnInvalidOffsetError() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = wl_compositor_create_surface(compositor)
        wl_surface_attach(surface, nil, 3, 4)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WL_SURFACE_ERROR_INVALID_OFFSET.rawValue)
    }

    @Test func surfaceCannotBeItsOwnSubsurfaceParent() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let compositor = try client.bind(wl_compositor_interface_ptr())
        let subcompositor = try client.bind(wl_subcompositor_interface_ptr())
        let surface = wl_compositor_create_surface(compositor)
        _ = wl_subcompositor_get_subsurface(subcompositor, surface, surface)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue)
        #expect(client.protocolError?.interface == "wl_subcompositor")
    }

    @Test func aClientDyingOfAnErrorLeavesOthersWorking() throws {
        let server = try TestServer()
        let bad = try TestClient(server: server)
        let good = try TestClient(server: server)
        let compositor = try bad.bind(wl_compositor_interface_ptr())
        wl_surface_set_buffer_transform(wl_compositor_create_surface(compositor), 42)
        #expect(!bad.roundtrip())
        #expect(bad.protocolError?.code == WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue)
        let goodCompositor = try good.bind(wl_compositor_interface_ptr())
        _ = wl_compositor_create_surface(goodCompositor)
        #expect(good.roundtrip())
        #expect(good.connectionError == 0)
    }
}
