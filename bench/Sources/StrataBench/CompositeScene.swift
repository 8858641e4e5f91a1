import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport

/// An in-process Strata with one 1920×1080 headless screen and the windows of a `SceneLayout`,
/// each a wl_surface of a real libwayland client (one client per window, or all in one).
public final class CompositeScene {
    public let layout: SceneLayout
    public let server: TestServer
    public private(set) var clients: [TestXdgShell] = []
    public private(set) var buffers: [TestBuffer] = []
    public private(set) var surfaces: [OpaquePointer] = []

    deinit {
        // Client objects go before their connections close.
        buffers.removeAll()
        for surface in surfaces { wl_surface_destroy(surface) }
        surfaces.removeAll()
        clients.removeAll()
    }

    public var compositor: Compositor { server.compositor }
    public var output: ScreenOutput { server.compositor.scene.outputs[0] }

    /// `scale`: the screen's scale (its 1920×1080 pixels stay; the layout is in logical pixels).
    public init(layout: SceneLayout, clients clientCount: Int = 1, scale: Double = 1) throws {
        self.layout = layout
        server = try TestServer(width: Int(SceneLayout.screenWidth), height: Int(SceneLayout.screenHeight))
        server.compositor.scene.backgroundARGB = SceneLayout.background
        server.windows.setScale(scale, for: server.windows.screens[0])
        for _ in 0..<max(1, clientCount) {
            clients.append(try TestXdgShell(client: TestClient(server: server)))
        }
        for (index, spec) in layout.windows.enumerated() {
            try addWindow(spec, client: clients[index % clients.count])
        }
        server.repaint()
    }

    /// Connects one more client (kept until the scene goes).
    public func addClient() throws -> TestXdgShell {
        let shell = try TestXdgShell(client: TestClient(server: server))
        clients.append(shell)
        return shell
    }

    /// Maps one more window (a plain surface shown at the spec's place) for `client`.
    public func addWindow(_ spec: SceneLayout.WindowSpec, client shell: TestXdgShell) throws {
        guard let surface = shell.makeSurface(),
            let buffer = shell.makeBuffer(
                width: spec.width, height: spec.height, argb: spec.argb, hasAlpha: spec.hasAlpha)
        else { throw TestClient.Failure.connect("cannot make a window") }
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, spec.width, spec.height)
        wl_surface_commit(surface)
        shell.client.roundtrip()
        let id = shell.client.id(of: surface)
        guard
            compositor.showPlainSurface(
                client: shell.client.serverClient, surfaceID: id, x: Int(spec.x), y: Int(spec.y)) != nil
        else { throw TestClient.Failure.connect("cannot show surface \(id)") }
        shell.client.roundtrip()
        buffers.append(buffer)
        surfaces.append(surface)
    }

    /// Damages the whole screen and composites one frame.
    public func compositeFullFrame() {
        compositor.scene.damageAll(output)
        compositor.scene.repaint(output)
    }

    /// Damages `rect` and composites one frame.
    public func compositeFrame(damage rect: (x: Int32, y: Int32, width: Int32, height: Int32)) {
        output.damage.addRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        compositor.scene.repaint(output)
    }
}
