import CStrataClientGlue
import CWaylandClient
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
        let output = try #require(server.compositor.outputs.first)
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

    @Test func committedBufferIsReleased() throws {
        let (_, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let first = try #require(toplevel.buffer)
        #expect(first.released == 1)
        let second = try #require(shell.makeBuffer(width: 100, height: 100, argb: Colour.green))
        toplevel.attach(second)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(second.released == 1)
    }

    @Test func subsurfaceOrderChangesWithTheParentsCommit() throws {
        let (server, shell) = try makeXdgFixture()
        let parent = try #require(shell.makeToplevel())
        #expect(parent.map(width: 100, height: 100, argb: Colour.red))
        let childSurface = try #require(shell.makeSurface())
        let subsurface = try #require(wl_subcompositor_get_subsurface(shell.subcompositor, childSurface, parent.surface))
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
        let subsurface = try #require(wl_subcompositor_get_subsurface(shell.subcompositor, childSurface, parent.surface))
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
