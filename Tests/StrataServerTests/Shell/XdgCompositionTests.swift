import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// How commits of xdg surfaces become pixels: frame callbacks, buffer release, subsurfaces.
@Suite struct XdgCompositionTests {
    @Test func frameDoneArrivesOnlyAfterTheRepaintThatShowsTheCommit() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        server.repaint()
        let output = try #require(server.compositor.scene.outputs.first)
        let paintedBefore = output.paintedFrames
        var seenAtDone: (pixel: UInt32?, painted: Int)?
        let callback = try #require(TestFrameCallback(surface: toplevel.surface))
        callback.onDone = { seenAtDone = (output.canvas.pixel(x: 10, y: 10), output.paintedFrames) }
        toplevel.attach(shell.makeBuffer(width: 100, height: 100, argb: Colour.green))
        toplevel.commit()
        #expect(shell.client.wait(until: { callback.isDone }))
        // When done arrived, the screen had been repainted with the new buffer (not merely asked to).
        #expect(seenAtDone?.pixel == Colour.green)
        #expect((seenAtDone?.painted ?? 0) > paintedBefore)
    }

    @Test func frameCallbackOfAnUnmappedSurfaceWaitsUntilItIsShown() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        let callback = try #require(TestFrameCallback(surface: toplevel.surface))
        #expect(toplevel.commitInitial())
        #expect(!shell.client.wait(seconds: 0.1, until: { callback.isDone }))
        toplevel.ack()
        toplevel.attach(shell.makeBuffer(width: 50, height: 50, argb: Colour.red))
        toplevel.commit()
        #expect(shell.client.wait(until: { callback.isDone }))
    }

    /// A replaced buffer is released with the next frame, before its frame callbacks (one flush
    /// for both), not at the commit.
    @Test func committedBufferIsReleasedWithTheNextFrame() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let first = try #require(toplevel.buffer)
        #expect(first.released == 0, "shown from the client's memory: held while shown")
        let second = try #require(shell.makeBuffer(width: 100, height: 100, argb: Colour.green))
        toplevel.attach(second)
        let callback = try #require(TestFrameCallback(surface: toplevel.surface))
        toplevel.commit()
        #expect(shell.client.roundtrip())
        // Not released before the frame (unless the frame already came during the roundtrip).
        #expect(first.released == 0 || callback.isDone)
        #expect(shell.client.wait(until: { callback.isDone }))
        #expect(first.released == 1 && second.released == 0)
    }

    /// A buffer replaced and attached again before the frame that releases it stays busy: no
    /// release for it, though the surface showed another buffer in between.
    @Test func aBufferBackBeforeItsReleaseIsNotReleased() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let first = try #require(toplevel.buffer)
        let second = try #require(shell.makeBuffer(width: 100, height: 100, argb: Colour.green))
        toplevel.attach(second)
        toplevel.commit()
        toplevel.attach(first)
        let callback = try #require(TestFrameCallback(surface: toplevel.surface))
        toplevel.commit()
        #expect(shell.client.wait(until: { callback.isDone }))
        #expect(first.released == 0 && second.released == 1)
        server.compositor.scene.outputs.first?.damage.addRect(x: 0, y: 0, width: 200, height: 200)
        server.repaint()
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    /// A shown buffer is read from the client's memory; destroyed while shown, its pixels stay
    /// (copied as it goes), and a later frame that repaints the window still shows them.
    @Test func aShownBufferDestroyedByItsClientLeavesItsPixelsOnScreen() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 60, height: 40, argb: Colour.green))
        var buffer = shell.makeBuffer(width: 60, height: 40, argb: Colour.red)
        wl_surface_attach(toplevel.surface, buffer?.buffer, 0, 0)
        wl_surface_damage_buffer(toplevel.surface, 0, 0, 60, 40)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(buffer?.released == 0)
        buffer = nil  // wl_buffer.destroy, wl_shm_pool.destroy, munmap
        #expect(shell.client.roundtrip())
        server.compositor.scene.outputs.first?.damage.addRect(x: 0, y: 0, width: 100, height: 100)
        server.repaint()
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
        #expect(server.pixel(x: 59, y: 39) == Colour.red)
        #expect(server.pixel(x: 60, y: 40) != Colour.red)
    }

    /// One buffer shown by two surfaces: released only when both have replaced it (a count per
    /// buffer), and its pixels stay on the surface still showing it.
    @Test func aBufferShownByTwoSurfacesIsReleasedWhenBothLetItGo() throws {
        let (server, shell) = try makeXdgFixture()
        let a = try #require(shell.makeToplevel())
        let b = try #require(shell.makeToplevel())
        #expect(a.map(width: 40, height: 40, argb: Colour.red))
        #expect(b.map(width: 40, height: 40, argb: Colour.red))
        let shared = try #require(shell.makeBuffer(width: 40, height: 40, argb: Colour.blue))
        for toplevel in [a, b] {
            toplevel.attach(shared)
            toplevel.commit()
        }
        let other = try #require(shell.makeBuffer(width: 40, height: 40, argb: Colour.green))
        a.attach(other)
        let callback = try #require(TestFrameCallback(surface: a.surface))
        a.commit()
        #expect(shell.client.wait(until: { callback.isDone }))
        #expect(shared.released == 0, "the second surface still shows it")
        server.compositor.scene.outputs.first?.damage.addRect(x: 0, y: 0, width: 1920, height: 1080)
        server.repaint()
        let placed = try #require(server.compositor.windows.windows.last?.frame)
        #expect(server.pixel(x: Int32(placed.x) + 5, y: Int32(placed.y) + 5) == Colour.blue)
        let other2 = try #require(shell.makeBuffer(width: 40, height: 40, argb: Colour.green))
        b.attach(other2)
        b.commit()
        #expect(shell.client.wait(until: { shared.released == 1 }))
        #expect(other.released == 0 && other2.released == 0)
    }

    /// A pool truncated under a buffer while it is shown: the next frame's read faults, which
    /// libwayland's guard turns into that client's wl_shm error; the server goes on.
    @Test func aPoolTruncatedUnderTheShownBufferIsTheClientsErrorAtTheNextFrame() throws {
        let (server, shell) = try makeXdgFixture()
        let bystander = try TestClient(server: server)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 64, height: 64, argb: Colour.green))
        let fd = strata_client_memfd("shown-then-truncated")
        #expect(ftruncate(fd, 64 * 64 * 4) == 0)
        let pool = wl_shm_create_pool(shell.shm, fd, 64 * 64 * 4)
        let buffer = wl_shm_pool_create_buffer(pool, 0, 64, 64, 256, 0)
        wl_surface_attach(toplevel.surface, buffer, 0, 0)
        wl_surface_damage_buffer(toplevel.surface, 0, 0, 64, 64)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(ftruncate(fd, 0) == 0)
        server.compositor.scene.outputs.first?.damage.addRect(x: 0, y: 0, width: 100, height: 100)
        server.repaint()
        #expect(!shell.client.roundtrip())
        #expect(shell.client.protocolError?.code == WL_SHM_ERROR_INVALID_FD.rawValue)
        close(fd)
        #expect(bystander.roundtrip())
        #expect(bystander.connectionError == 0)
    }

    /// GTK 4's cursor pattern: a buffer of a pool is shown (held), the pool grows and a buffer
    /// is carved from the new part. The shown buffer must not hold the resize back (libwayland
    /// 1.21 checks new buffers against the old size while a resize is deferred), and the screen
    /// reads the moved mapping.
    @Test func aPoolGrownWhileItsBufferIsShownServesBuffersFromTheNewPart() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 20, height: 20, argb: Colour.green))
        let size = 20 * 20 * 4
        let fd = strata_client_memfd("grown-pool")
        #expect(ftruncate(fd, off_t(size * 2)) == 0)
        let map = try #require(mmap(nil, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0))
        defer { munmap(map, size * 2); close(fd) }
        let pixels = map.assumingMemoryBound(to: UInt32.self)
        pixels.update(repeating: Colour.red, count: 400)
        pixels.advanced(by: 400).update(repeating: Colour.blue, count: 400)
        let pool = try #require(wl_shm_create_pool(shell.shm, fd, Int32(size)))
        let first = wl_shm_pool_create_buffer(pool, 0, 20, 20, 80, 0)
        wl_surface_attach(toplevel.surface, first, 0, 0)
        wl_surface_damage_buffer(toplevel.surface, 0, 0, 20, 20)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        server.repaint()
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
        wl_shm_pool_resize(pool, Int32(size * 2))
        let second = wl_shm_pool_create_buffer(pool, Int32(size), 20, 20, 80, 0)
        #expect(shell.client.roundtrip())
        #expect(shell.client.protocolError == nil)
        // The shown buffer, read through the grown (possibly moved) mapping.
        server.compositor.scene.outputs.first?.damage.addRect(x: 0, y: 0, width: 40, height: 40)
        server.repaint()
        #expect(server.pixel(x: 5, y: 5) == Colour.red)
        wl_surface_attach(toplevel.surface, second, 0, 0)
        wl_surface_damage_buffer(toplevel.surface, 0, 0, 20, 20)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        server.repaint()
        #expect(server.pixel(x: 5, y: 5) == Colour.blue)
        wl_buffer_destroy(first)
        wl_buffer_destroy(second)
        wl_shm_pool_destroy(pool)
    }

    @Test func subsurfaceOrderChangesWithTheParentsCommit() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeToplevel())
        #expect(parent.map(width: 100, height: 100, argb: Colour.red))
        let childSurface = try #require(shell.makeSurface())
        let subsurface = try #require(
            wl_subcompositor_get_subsurface(shell.subcompositor, childSurface, parent.surface))
        wl_subsurface_set_position(subsurface, 20, 20)
        let green = try #require(shell.makeBuffer(width: 40, height: 40, argb: Colour.green))
        wl_surface_attach(childSurface, green.buffer, 0, 0)
        wl_surface_commit(childSurface)
        #expect(shell.client.roundtrip())
        // Synchronized: nothing shows until the parent commits.
        #expect(server.pixel(x: 30, y: 30) == Colour.red)
        parent.commit()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 30, y: 30) == Colour.green)
        #expect(server.pixel(x: 19, y: 19) == Colour.red)

        wl_subsurface_place_below(subsurface, parent.surface)
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 30, y: 30) == Colour.green)
        parent.commit()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 30, y: 30) == Colour.red)

        wl_subsurface_place_above(subsurface, parent.surface)
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 30, y: 30) == Colour.red)
        parent.commit()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 30, y: 30) == Colour.green)
        withExtendedLifetime(green) {}
    }

    @Test func desynchronizedSubsurfaceShowsAtOnceAndSynchronizedWaitsForTheParent() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeToplevel())
        #expect(parent.map(width: 100, height: 100, argb: Colour.red))
        let childSurface = try #require(shell.makeSurface())
        let subsurface = try #require(
            wl_subcompositor_get_subsurface(shell.subcompositor, childSurface, parent.surface))
        wl_subsurface_set_position(subsurface, 10, 10)
        wl_subsurface_set_desync(subsurface)
        parent.commit()
        let blue = try #require(shell.makeBuffer(width: 20, height: 20, argb: Colour.blue))
        wl_surface_attach(childSurface, blue.buffer, 0, 0)
        wl_surface_commit(childSurface)
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 15, y: 15) == Colour.blue)

        wl_subsurface_set_sync(subsurface)
        let yellow = try #require(shell.makeBuffer(width: 20, height: 20, argb: Colour.yellow))
        wl_surface_attach(childSurface, yellow.buffer, 0, 0)
        wl_surface_damage_buffer(childSurface, 0, 0, 20, 20)
        wl_surface_commit(childSurface)
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 15, y: 15) == Colour.blue)
        parent.commit()
        #expect(shell.client.roundtrip())
        #expect(server.pixel(x: 15, y: 15) == Colour.yellow)
        withExtendedLifetime((blue, yellow)) {}
    }
}
