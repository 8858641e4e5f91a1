import CWaylandServer
@_spi(TestSupport) import StrataServer
import StrataModel

/// TEST SCAFFOLDING: a bare wl_surface shown as a window, so protocol tests of the seat can place
/// surfaces without xdg-shell. Not reachable from the protocol: only `Compositor.showPlainSurface`
/// (a Swift call in the server's process, from this test-support target) makes one. The surface
/// gets the role "strata_test_window" and hangs on its window in the scene; the window closes when
/// the surface dies.
final class PlainSurfaceWindow: WindowContent, SurfaceRole {
    static let roleName = "strata_test_window"
    var roleName: String { Self.roleName }

    let window: Window
    private(set) weak var surface: Surface?
    private unowned let compositor: Compositor
    /// Holds this object (its closure captures it) until the surface dies.
    private var surfaceDestroyed: Signal<Surface>.Token?

    init(surface: Surface, window: Window, compositor: Compositor) {
        self.surface = surface
        self.window = window
        self.compositor = compositor
        surfaceDestroyed = surface.didDestroy.observe { _ in self.surfaceDidDestroy() }
    }

    var rootSurface: Surface? { surface }

    private func surfaceDidDestroy() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        compositor.windowDidClose(window)
    }
}

extension Compositor {
    /// TEST SCAFFOLDING: shows the committed surface `surfaceID` of `client` (a server-side
    /// wl_client) as a window at (x, y) of the main screen, sized like the surface. Returns nil
    /// when there is no such surface or it already has a role.
    @discardableResult
    public func showPlainSurface(
        client: OpaquePointer, surfaceID: UInt32, x: Int, y: Int,
        level: WindowLevel = .normal, makeKey: Bool = true
    ) -> Window? {
        guard let surface = surface(of: client, id: surfaceID), surface.roleName == nil else { return nil }
        let window = windows.createWindow(pid: surface.clientPid, level: level)
        let content = PlainSurfaceWindow(surface: surface, window: window, compositor: self)
        _ = surface.setRole(content)
        window.content = content
        scene.setAnchor(.window(window, x: 0, y: 0), of: surface)
        windows.setFrame(window, Rect(x: x, y: y, width: Int(surface.width), height: Int(surface.height)))
        windows.show(window, makeKey: makeKey)
        return window
    }
}
