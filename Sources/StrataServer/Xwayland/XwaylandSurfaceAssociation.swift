/// Which of Xwayland's wl_surfaces shows which X window. Xwayland 22 names the surface in a
/// `WL_SURFACE_ID` client message (its wl_surface id), which may be read before Xwayland's
/// `create_surface`: then the surface is looked for again at each commit of a role-less surface
/// of Xwayland's (`Compositor.roleLessSurfaceDidCommit`). Xwayland 23 and newer give the surface
/// an xwayland_surface_v1 whose committed serial matches the window's `WL_SURFACE_SERIAL`
/// message, in either order.
final class XwaylandSurfaceAssociation {
    private unowned let wm: XWM
    /// Windows whose `WL_SURFACE_ID` names a surface not found yet.
    private var waitingForSurface: Set<UInt32> = []
    /// Surfaces whose xwayland_shell_v1 serial came before the window's `WL_SURFACE_SERIAL`
    /// (at most `XWM.maxWindows`: the oldest is dropped).
    private struct WaitingShellSurface {
        weak var object: XwaylandShellSurface?
        weak var surface: Surface?
    }
    private var shellSurfacesBySerial: [UInt64: WaitingShellSurface] = [:]
    private var commits: Signal<Surface>.Token?

    init(wm: XWM) {
        self.wm = wm
        commits = wm.compositor.roleLessSurfaceDidCommit.observe { [weak self] surface in
            guard let self, let client = wm.xwayland.client, surface.client == client else { return }
            associatePendingSurfaces()
        }
    }

    /// A `WL_SURFACE_ID` message: the window's surface is Xwayland's wl_surface `surfaceID`.
    func surfaceIDDidArrive(_ surfaceID: UInt32, for window: X11Window) {
        window.pendingSurfaceID = surfaceID
        waitingForSurface.insert(window.id)
        associatePendingSurfaces()
    }

    /// A `WL_SURFACE_SERIAL` message (xwayland_shell_v1): the serial Xwayland gives the window's
    /// surface.
    func surfaceSerialDidArrive(_ serial: UInt64, for window: X11Window) {
        guard serial != 0 else { return }
        window.surfaceSerial = serial
        if let waiting = shellSurfacesBySerial.removeValue(forKey: serial), let shellSurface = waiting.object,
            let surface = waiting.surface, !surface.isDestroyed
        {
            _ = window.associate(surface: surface, shellSurface: shellSurface)
        }
    }

    /// An xwayland_surface_v1 committed `serial`: associated with the X window of that serial
    /// now, or when its `WL_SURFACE_SERIAL` message comes.
    func shellSurfaceDidCommit(_ object: XwaylandShellSurface, surface: Surface, serial: UInt64) {
        if let window = wm.managedWindows.first(where: { $0.surfaceSerial == serial }) {
            _ = window.associate(surface: surface, shellSurface: object)
            return
        }
        if shellSurfacesBySerial.count >= XWM.maxWindows {
            shellSurfacesBySerial = shellSurfacesBySerial.filter {
                $0.value.object != nil && $0.value.surface?.isDestroyed == false
            }
            if shellSurfacesBySerial.count >= XWM.maxWindows, let first = shellSurfacesBySerial.keys.min() {
                shellSurfacesBySerial.removeValue(forKey: first)
            }
        }
        shellSurfacesBySerial[serial] = WaitingShellSurface(object: object, surface: surface)
    }

    /// The window was destroyed: its surface is no longer looked for.
    func windowDidDestroy(_ id: UInt32) {
        waitingForSurface.remove(id)
    }

    /// Finds the surfaces named by `WL_SURFACE_ID` messages among Xwayland's.
    private func associatePendingSurfaces() {
        guard let client = wm.xwayland.client else { return }
        for xid in waitingForSurface {
            guard let window = wm.window(xid) else {
                waitingForSurface.remove(xid)
                continue
            }
            guard let id = window.pendingSurfaceID, let surface = wm.compositor.surface(of: client, id: id) else {
                continue
            }
            if window.associate(surface: surface) || window.pendingSurfaceID == nil { waitingForSurface.remove(xid) }
        }
    }

    func shutdown() {
        commits?.remove()
        commits = nil
        waitingForSurface.removeAll()
        shellSurfacesBySerial.removeAll()
    }
}
