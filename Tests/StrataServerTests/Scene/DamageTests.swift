import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Only what changed is repainted, only on the screens where it changed, and nothing at all
/// when nothing changed.
@Suite struct DamageTests {
    @Test func aSmallDamagedRectangleRepaintsOnlyThatRectangle() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        let buffer = try #require(shell.makeBuffer(width: 100, height: 100, argb: Colour.red))
        #expect(toplevel.commitInitial())
        toplevel.ack()
        toplevel.attach(buffer)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        server.repaint()
        let output = try #require(server.compositor.scene.outputs.first)
        let painted = output.paintedFrames

        buffer.fill(x: 10, y: 20, width: 4, height: 3, Colour.blue)
        wl_surface_attach(toplevel.surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(toplevel.surface, 10, 20, 4, 3)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        server.repaint()
        #expect(output.paintedFrames == painted + 1)
        #expect(output.lastPaintedArea == 12)
        #expect(server.pixel(x: 11, y: 21) == Colour.blue)
        #expect(server.pixel(x: 9, y: 21) == Colour.red)
    }

    @Test func aCommitOnOneScreenDoesNotRepaintTheOther() throws {
        let server = try TestServer(screens: 2)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let first = server.compositor.scene.outputs[0], second = server.compositor.scene.outputs[1]
        // An empty second screen would mirror the first (and repaint with it): not this test.
        server.windows.setMirroring(false, for: second.screen)
        server.repaint()
        let paintedFirst = first.paintedFrames, paintedSecond = second.paintedFrames
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.green))
        server.repaint()
        #expect(first.paintedFrames == paintedFirst + 1)
        #expect(second.paintedFrames == paintedSecond)
    }

    @Test func nothingIsDrawnAndNoFrameIsScheduledWhenNothingChanged() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.green))
        server.repaint()
        let output = try #require(server.compositor.scene.outputs.first)
        let painted = output.paintedFrames, frames = output.frames
        // The loop runs for a while with no commits: no frame fires at all.
        for _ in 0..<10 { server.step(timeout: 0.01) }
        #expect(output.frames == frames)
        #expect(output.paintedFrames == painted)
        #expect(!output.isFrameScheduled)
    }

    @Test func anOpaqueWindowHidesWhatIsBelowWithoutDrawingIt() throws {
        let (server, shell) = try makeXdgFixture()
        let below = try #require(shell.makeToplevel())
        #expect(below.map(width: 50, height: 50, argb: Colour.red))
        let above = try #require(shell.makeToplevel())
        #expect(above.map(width: 200, height: 200, argb: Colour.blue))
        // Both windows are placed by the cascade; the second covers the first entirely.
        let windows = server.windows.windows
        #expect(windows.count == 2)
        if let a = windows.last, let b = windows.first {
            server.compositor.windows.setFrame(a, Rect(x: 0, y: 0, width: 200, height: 200))
            server.compositor.windows.setFrame(b, Rect(x: 10, y: 10, width: 50, height: 50))
        }
        #expect(server.pixel(x: 20, y: 20) == Colour.blue)
        #expect(server.pixel(x: 199, y: 199) == Colour.blue)
        #expect(server.pixel(x: 200, y: 200) == Colour.background)
    }
}

/// wl_surface.offset is applied, not dropped.
@Suite struct SurfaceOffsetTests {
    @Test func aCommittedOffsetMovesTheToplevelAndItsPixels() throws {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 40, height: 40, argb: Colour.red))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 10, y: 10, width: 40, height: 40))
        #expect(server.pixel(x: 12, y: 12) == Colour.red)
        toplevel.attach(shell.makeBuffer(width: 40, height: 40, argb: Colour.green))
        wl_surface_offset(toplevel.surface, 20, 30)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        #expect(window.frame == Rect(x: 30, y: 40, width: 40, height: 40))
        #expect(server.pixel(x: 12, y: 12) == Colour.background)
        #expect(server.pixel(x: 32, y: 42) == Colour.green)
    }
}
