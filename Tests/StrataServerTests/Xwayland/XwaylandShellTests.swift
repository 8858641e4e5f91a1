import CStrataClientGlue
import CWaylandClient
import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// xwayland_shell_v1, with a TestClient acting as an Xwayland 23+ (Debian's 22.1 does not use the
/// protocol) beside a real Xwayland for the X side: the serial of a `WL_SURFACE_SERIAL` message
/// associates the surface; the spec's errors; only Xwayland's client sees the global.
@Suite("xwayland_shell_v1", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XwaylandShellTests {
    private typealias H = XTestHarness

    /// A started server and Xwayland, where clients started by Strata count as Xwayland's and
    /// the test's X client sends the `WL_SURFACE_SERIAL` messages Xwayland 23 would (the XWM
    /// ignores them from X clients otherwise: `XWMHostileTests`).
    private static func start() throws -> (TestServer, Xwayland) {
        let (server, xwayland) = try H.start()
        xwayland.shellClientForTesting = { [unowned server] client in
            server.compositor.display.origin(of: client) == .startedByStrata
        }
        xwayland.trustsSentSurfaceSerialsForTesting = true
        return (server, xwayland)
    }

    @Test func aSurfaceWithTheSerialOfAnXWindowsWLSurfaceSerialMessageShowsThatWindow() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = H.createWindow(c, x: 0, y: 0, width: 60, height: 40)
        H.setClass(c, window, "shelled")
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isVisible == true })
        let model = try #require(H.x11Windows(server).first)
        // The acting Xwayland: a surface of its own, given the serial 0x1_00000005, committed red.
        let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
        let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
        let surface = try #require(shell.makeSurface())
        let object = try #require(xwayland_shell_v1_get_xwayland_surface(global, surface))
        xwayland_surface_v1_set_serial(object, 5, 1)
        let buffer = try #require(shell.makeBuffer(width: 60, height: 40, argb: 0xffff_0000))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, 60, 40)
        wl_surface_commit(surface)
        #expect(shell.client.roundtrip())
        // Then the XWM sees the window's serial: the surface shows the window.
        H.sendToRoot(c, window: window, type: H.atom(c, "WL_SURFACE_SERIAL"), [5, 1])
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.rootSurface.map { $0.client == shell.client.serverClient } == true })
        // Drawn at once (no new commit): the association damages where the window is.
        server.repaint()
        #expect(server.pixel(x: Int32(model.frame.x) + 1, y: Int32(model.frame.y) + 1) == 0xffff_0000)
        // The association outlives the xwayland_surface_v1 object.
        xwayland_surface_v1_destroy(object)
        #expect(shell.client.roundtrip())
        #expect(model.rootSurface?.client == shell.client.serverClient)
        #expect(shell.client.protocolError == nil)
    }

    @Test func theSpecsErrorsRoleAlreadyAssociatedAndInvalidSerial() throws {
        let (server, xwayland) = try Self.start()
        defer { xwayland.shutdown() }
        // role: a second xwayland_surface_v1 for the same surface.
        do {
            let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
            let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
            let surface = try #require(shell.makeSurface())
            _ = xwayland_shell_v1_get_xwayland_surface(global, surface)
            _ = xwayland_shell_v1_get_xwayland_surface(global, surface)
            _ = shell.client.roundtrip()
            #expect(shell.client.protocolError?.code == XWAYLAND_SHELL_V1_ERROR_ROLE.rawValue)
            #expect(shell.client.protocolError?.interface == "xwayland_shell_v1")
        }
        // already_associated: a second serial committed.
        do {
            let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
            let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
            let surface = try #require(shell.makeSurface())
            let object = try #require(xwayland_shell_v1_get_xwayland_surface(global, surface))
            xwayland_surface_v1_set_serial(object, 9, 0)
            wl_surface_commit(surface)
            xwayland_surface_v1_set_serial(object, 10, 0)
            wl_surface_commit(surface)
            _ = shell.client.roundtrip()
            #expect(shell.client.protocolError?.code == XWAYLAND_SURFACE_V1_ERROR_ALREADY_ASSOCIATED.rawValue)
            #expect(shell.client.protocolError?.interface == "xwayland_surface_v1")
        }
        // invalid_serial: zero.
        do {
            let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
            let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
            let surface = try #require(shell.makeSurface())
            let object = try #require(xwayland_shell_v1_get_xwayland_surface(global, surface))
            xwayland_surface_v1_set_serial(object, 0, 0)
            _ = shell.client.roundtrip()
            #expect(shell.client.protocolError?.code == XWAYLAND_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue)
        }
        // role: a surface that is an xdg_surface already.
        do {
            let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
            let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
            let toplevel = try #require(shell.makeToplevel())
            _ = xwayland_shell_v1_get_xwayland_surface(global, toplevel.surface)
            _ = shell.client.roundtrip()
            #expect(shell.client.protocolError?.code == XWAYLAND_SHELL_V1_ERROR_ROLE.rawValue)
        }
    }

    @Test func onlyXwaylandsClientSeesTheGlobalAndUnmatchedSerialsStayBounded() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        // Without the test rule: neither an ordinary client nor another one Strata started sees it.
        let ordinary = try TestClient(server: server)
        let started = try TestClient(server: server, origin: .startedByStrata)
        #expect(ordinary.globals["xwayland_shell_v1"] == nil)
        #expect(started.globals["xwayland_shell_v1"] == nil)
        #expect(ordinary.globals["wl_compositor"] != nil)
        // A hostile acting Xwayland: 300 surfaces with serials no X window has, then gone.
        xwayland.shellClientForTesting = { [unowned server] client in
            server.compositor.display.origin(of: client) == .startedByStrata
        }
        let shell = try TestXdgShell(client: TestClient(server: server, origin: .startedByStrata))
        let global = try shell.client.bind(xwayland_shell_v1_interface_ptr())
        for serial in 1...300 {
            guard let surface = shell.makeSurface(),
                let object = xwayland_shell_v1_get_xwayland_surface(global, surface)
            else { continue }
            xwayland_surface_v1_set_serial(object, UInt32(serial), 0xffff_ffff)
            wl_surface_commit(surface)
            if serial % 2 == 0 { wl_surface_destroy(surface) }
        }
        #expect(shell.client.roundtrip())
        #expect(shell.client.protocolError == nil)
        #expect(H.x11Windows(server).isEmpty)
    }
}
