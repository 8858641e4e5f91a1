import CStrataClientGlue
import Foundation
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The control socket's coordinates meet client numbers: `move` of a window whose subsurface
/// sits near Int32.max (the sum once trapped) clamps, and coordinates beyond what a window may
/// have are a clear `invalid_argument`.
@Suite struct ExtremeCoordinateTests {
    /// A client window (raw wire) with a subsurface at (Int32.max - 5, Int32.max - 5); returns
    /// the model window and the client, which the caller keeps alive.
    private func windowWithAFarSubsurface(_ harness: ControlHarness) throws -> (Window, RawClient) {
        let client = try RawClient(server: harness.server)
        client.getRegistry()
        let core = (
            client.bind("wl_compositor")!, client.bind("wl_subcompositor")!, client.bind("wl_shm")!,
            client.bind("xdg_wm_base")!
        )
        let surface = client.newID(), xdgSurface = client.newID(), toplevel = client.newID()
        client.request(core.0, "wl_compositor.create_surface", .newID(surface))
        client.request(core.3, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
        client.request(xdgSurface, "xdg_surface.get_toplevel", .newID(toplevel))
        client.request(surface, "wl_surface.commit")
        client.roundtrip()
        let configure = try #require(client.events(for: xdgSurface).last(where: { $0.opcode == 0 }))
        client.request(xdgSurface, "xdg_surface.ack_configure", .uint(configure.word(0)))
        // An explicit geometry: the window's origin stays its surface's.
        client.request(xdgSurface, "xdg_surface.set_window_geometry", .int(0), .int(0), .int(40), .int(40))
        let (_, windowBuffer) = client.makeBuffer(shm: core.2, width: 40, height: 40)
        client.request(surface, "wl_surface.attach", .object(windowBuffer), .int(0), .int(0))
        client.request(surface, "wl_surface.commit")
        let child = client.newID(), subsurface = client.newID()
        client.request(core.0, "wl_compositor.create_surface", .newID(child))
        client.request(core.1, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(child), .object(surface))
        client.request(subsurface, "wl_subsurface.set_position", .int(Int32.max - 5), .int(Int32.max - 5))
        let (_, buffer) = client.makeBuffer(shm: core.2, width: 8, height: 8)
        client.request(child, "wl_surface.attach", .object(buffer), .int(0), .int(0))
        client.request(child, "wl_surface.commit")
        client.request(surface, "wl_surface.commit")
        #expect(client.roundtrip())
        guard let window = harness.windows.windows.last else { throw ControlClientError("no window") }
        return (window, client)
    }

    /// Where every surface of the screen is drawn (window and subsurface), after a repaint.
    private func placements(_ harness: ControlHarness) -> [(Int32, Int32)] {
        harness.server.repaint()
        var result: [(Int32, Int32)] = []
        harness.server.compositor.scene.forEachVisibleSurface(on: harness.server.compositor.scene.outputs[0]) {
            _, x, y in result.append((x, y))
        }
        return result
    }

    @Test func moveOfAWindowWithAFarSubsurfaceToTheLargestAllowedXClampsItsSubsurface() throws {
        let harness = try ControlHarness()
        let (window, client) = try windowWithAFarSubsurface(harness)
        let limit = Int(Coordinate.limit)
        let reply = try harness.request([
            "command": "move", "window": JSONValue(window.id.rawValue), "screen": 1,
            "x": JSONValue(limit), "y": JSONValue(-limit),
        ])
        #expect(reply.isOK, "\(reply)")
        #expect(window.frame.x == limit && window.frame.y == -limit)
        // The window at the limit; its subsurface at the clamped sums (limit + Int32.max - 5, and
        // -limit + Int32.max - 5 = 1,610,612,730), not a trap.
        let placed = placements(harness)
        #expect(placed.map(\.0) == [Coordinate.limit, Coordinate.limit])
        #expect(placed.map(\.1) == [-Coordinate.limit, Coordinate.limit])
        #expect(client.roundtrip())
        #expect(client.error == nil)
    }

    @Test(arguments: [Double(Int.max), Double(Int32.max), Double(Int32.min), 536_870_913, -1e15])
    func moveBeyondTheCoordinateLimitIsAClearError(_ x: Double) throws {
        let harness = try ControlHarness()
        let (window, client) = try windowWithAFarSubsurface(harness)
        let before = window.frame
        let reply = try harness.request([
            "command": "move", "window": JSONValue(window.id.rawValue), "screen": 1,
            "x": .number(x), "y": 0,
        ])
        #expect(reply.errorCode == "invalid_argument", "\(reply)")
        #expect(window.frame == before)
        #expect(placements(harness).count == 2)
        #expect(client.roundtrip())
        #expect(client.error == nil)
    }
}
