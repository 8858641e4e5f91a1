import CStrataClientGlue
import CWaylandClient
import StrataTestSupport
import Foundation
import Testing

@Suite struct CoreProtocolTests {
    @Test func serverAnnouncesCoreGlobalsAtTheirVersions() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let expected: [String: UInt32] = [
            "wl_compositor": 5, "wl_subcompositor": 1, "wl_shm": 1, "wl_output": 4, "wl_seat": 8,
            "xdg_wm_base": 5, "wl_data_device_manager": 3, "zxdg_output_manager_v1": 3,
            "wp_viewporter": 1, "wp_single_pixel_buffer_manager_v1": 1, "wp_presentation": 1,
            "zxdg_decoration_manager_v1": 1, "zwp_primary_selection_device_manager_v1": 1,
            "zwp_relative_pointer_manager_v1": 1, "gtk_primary_selection_device_manager": 1,
            "zwp_text_input_manager_v3": 1, "wp_fractional_scale_manager_v1": 1,
            "zxdg_shell_v6": 1, "wl_shell": 1,
            "zwp_pointer_constraints_v1": 1, "wp_cursor_shape_manager_v1": 1, "wp_security_context_manager_v1": 1,
            "zwp_pointer_gestures_v1": 3, "zwp_tablet_manager_v2": 1,
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

@Suite struct HostileBytesTests {
    @Test func garbageOnTheSocketDropsOnlyThatClient() throws {
        let server = try TestServer()
        let good = try TestClient(server: server)
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        #expect(server.compositor.display.createClient(fd: fds[0]) != nil)
        // A header naming object 1 (wl_display) with opcode 7 and a size that is a lie,
        // then noise.
        var bytes: [UInt8] = [1, 0, 0, 0, 7, 0, 200, 0]
        bytes += (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        for _ in 0..<10 { server.step() }
        var probe: UInt8 = 0
        // The server closed its end: reading ours ends (0) or fails, it does not block.
        var pfd = pollfd(fd: fds[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 1000) == 1)
        _ = read(fds[1], &probe, 1)
        close(fds[1])
        let compositor = try good.bind(wl_compositor_interface_ptr())
        _ = wl_compositor_create_surface(compositor)
        #expect(good.roundtrip())
        #expect(good.connectionError == 0)
    }
}

@Suite struct ShmTests {
    @Test func aPoolTruncatedUnderItsBufferIsAnErrorNotACrash() throws {
        let server = try TestServer()
        let bad = try TestClient(server: server)
        let bystander = try TestClient(server: server)
        let shm = try bad.bind(wl_shm_interface_ptr())
        let compositor = try bad.bind(wl_compositor_interface_ptr())
        let fd = strata_client_memfd("truncated")
        #expect(ftruncate(fd, 64 * 64 * 4) == 0)
        let pool = wl_shm_create_pool(shm, fd, 64 * 64 * 4)
        let buffer = wl_shm_pool_create_buffer(pool, 0, 64, 64, 256, 0)
        // Shrink the file under the pool: reading the buffer now faults (SIGBUS).
        #expect(ftruncate(fd, 0) == 0)
        let surface = wl_compositor_create_surface(compositor)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, 64, 64)
        wl_surface_commit(surface)
        #expect(!bad.roundtrip())
        // libwayland's SIGBUS guard posts wl_shm.error.invalid_fd on the buffer.
        #expect(bad.protocolError?.interface == "wl_buffer")
        #expect(bad.protocolError?.code == WL_SHM_ERROR_INVALID_FD.rawValue)
        close(fd)
        #expect(bystander.roundtrip())
        #expect(bystander.connectionError == 0)
    }

    @Test func aShownBufferIsHeldUntilAnotherReplacesItThenReleased() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shm = try client.bind(wl_shm_interface_ptr())
        let compositor = try client.bind(wl_compositor_interface_ptr())
        let first = try #require(TestBuffer(shm: shm, width: 8, height: 8, argb: 0xff00_ff00))
        let second = try #require(TestBuffer(shm: shm, width: 8, height: 8, argb: 0xff00_00ff))
        let surface = wl_compositor_create_surface(compositor)
        wl_surface_attach(surface, first.buffer, 0, 0)
        wl_surface_commit(surface)
        #expect(client.roundtrip())
        #expect(first.released == 0, "shown from the client's memory: held")
        // The same buffer again (new damage): still held.
        wl_surface_attach(surface, first.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, 8, 8)
        wl_surface_commit(surface)
        #expect(client.roundtrip())
        #expect(first.released == 0)
        // Replaced: released (by the next frame at the latest).
        wl_surface_attach(surface, second.buffer, 0, 0)
        wl_surface_commit(surface)
        #expect(client.wait(until: { first.released == 1 }))
        #expect(first.released == 1 && second.released == 0)
        // No buffer: the shown one is released.
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
        #expect(client.wait(until: { second.released == 1 }))
        #expect(first.released == 1)
    }

    @Test func aBufferDestroyedBeforeCommitIsIgnored() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shm = try client.bind(wl_shm_interface_ptr())
        let compositor = try client.bind(wl_compositor_interface_ptr())
        let surface = wl_compositor_create_surface(compositor)
        do {
            let buffer = try #require(TestBuffer(shm: shm, width: 8, height: 8, argb: 0xff00_ff00))
            wl_surface_attach(surface, buffer.buffer, 0, 0)
        }
        wl_surface_commit(surface)
        #expect(client.roundtrip())
        #expect(client.connectionError == 0)
    }
}
