import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// A server with a bystander client showing a green window, for hostile-client tests: after
/// whatever a hostile client does, `expectUnharmed()` checks that the compositor still serves
/// the bystander, still draws its window, and holds no more ResourceObjects than before.
final class HostileHarness {
    // Released in this order: the clients before the server they step.
    let window: TestToplevel
    let bystander: TestXdgShell
    let server: TestServer
    let baseline: ResourceObject.LiveCounts

    init(screens: Int = 1) throws {
        server = try TestServer(screens: screens)
        bystander = try TestXdgShell(client: TestClient(server: server))
        guard let window = bystander.makeToplevel(), window.map(argb: Colour.green) else {
            throw RawClient.Failure.connect("the bystander cannot map its window")
        }
        self.window = window
        server.step()
        baseline = server.liveCounts
    }

    /// A raw client with the registry read.
    func raw(receiveBuffer: Int32? = nil) throws -> RawClient {
        let client = try RawClient(server: server, receiveBuffer: receiveBuffer)
        client.getRegistry()
        return client
    }

    /// A raw client that keeps no events (floods and big trees would pile them up), with the
    /// core globals bound.
    func quietClient() throws -> (RawClient, (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32)) {
        let client = try raw()
        client.keepsEvents = false
        return (client, client.bindCore())
    }

    /// After the hostile client is gone: nothing leaked, the bystander is served and drawn.
    func expectUnharmed(_ what: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<3 { server.step() }
        server.expectLiveCounts(backAt: baseline, after: what?.description, sourceLocation: sourceLocation)
        #expect(bystander.client.roundtrip(), "the bystander is still served", sourceLocation: sourceLocation)
        #expect(bystander.client.connectionError == 0, sourceLocation: sourceLocation)
        #expect(
            server.windows.windows.count == 1, "only the bystander's window is left", sourceLocation: sourceLocation)
        if let frame = server.windows.windows.first?.frame {
            #expect(
                server.pixel(x: Int32(frame.x) + 2, y: Int32(frame.y) + 2) == Colour.green,
                "the bystander's window is still drawn", sourceLocation: sourceLocation)
        }
        #expect(
            window.ackAndRedraw(argb: Colour.green),
            "the bystander can still commit", sourceLocation: sourceLocation)
    }
}

extension RawClient {
    /// Expects the server to have sent wl_display.error `code` on `object` (nil: any object)
    /// and closed the connection.
    /// A request past a per-client cap: `wl_display.error` no_memory on the display, naming
    /// the cap in its message.
    func expectOverBudget(naming cap: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectError(code: WL_DISPLAY_ERROR_NO_MEMORY.rawValue, object: 1, sourceLocation: sourceLocation)
        #expect(
            error?.message.contains(cap) == true, "error \(String(describing: error))", sourceLocation: sourceLocation)
    }

    func expectError(code: UInt32, object: UInt32? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!roundtrip(), "the client should have been disconnected", sourceLocation: sourceLocation)
        #expect(error?.code == code, "error \(String(describing: error))", sourceLocation: sourceLocation)
        if let object {
            #expect(error?.object == object, "error \(String(describing: error))", sourceLocation: sourceLocation)
        }
    }

    /// Binds the globals a hostile client usually needs.
    func bindCore() -> (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32) {
        (bind("wl_compositor")!, bind("wl_subcompositor")!, bind("wl_shm")!, bind("xdg_wm_base")!)
    }

    func createSurface(_ compositor: UInt32) -> UInt32 {
        let id = newID()
        request(compositor, "wl_compositor.create_surface", .newID(id))
        return id
    }

    /// A mapped xdg toplevel made by hand: (surface, xdg_surface, toplevel, buffer).
    func makeToplevel(
        _ core: (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32),
        width: Int32 = 40, height: Int32 = 40
    ) -> (surface: UInt32, xdgSurface: UInt32, toplevel: UInt32, buffer: UInt32) {
        let keeps = keepsEvents
        keepsEvents = true
        defer { keepsEvents = keeps }
        let surface = createSurface(core.compositor)
        let xdgSurface = newID(), toplevel = newID()
        request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
        request(xdgSurface, "xdg_surface.get_toplevel", .newID(toplevel))
        request(surface, "wl_surface.commit")
        roundtrip()
        if let configure = events(for: xdgSurface).last(where: { $0.opcode == 0 }) {
            request(xdgSurface, "xdg_surface.ack_configure", .uint(configure.word(0)))
        }
        let (_, buffer) = makeBuffer(shm: core.shm, width: width, height: height)
        request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
        request(surface, "wl_surface.damage", .int(0), .int(0), .int(width), .int(height))
        request(surface, "wl_surface.commit")
        roundtrip()
        return (surface, xdgSurface, toplevel, buffer)
    }
}
