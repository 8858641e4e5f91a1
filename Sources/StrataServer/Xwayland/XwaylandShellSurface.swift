import CStrataServerGlue
import CWaylandServer

/// xwayland_surface_v1: holds its surface's `xwayland_surface` role. `set_serial` (double-
/// buffered) names the X window by the serial the XWM saw in its `WL_SURFACE_SERIAL` client
/// message; at the commit the XWM associates the surface with that window (now, or when the
/// message comes). A serial after one was committed is `already_associated`, a zero serial
/// `invalid_serial`. The object stays the surface's role after its resource is destroyed (the
/// association is unaffected, as the spec says) and forwards the surface's commits to the window.
final class XwaylandShellSurface: ResourceObject, SurfaceRole {
    static let roleName = "xwayland_surface"
    var roleName: String { Self.roleName }

    private unowned let compositor: Compositor
    private weak var surface: Surface?
    private var pendingSerial: UInt64?
    private(set) var committedSerial: UInt64?
    /// The X window shown by the surface, once associated.
    weak var window: X11Window?

    init?(compositor: Compositor, surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        self.surface = surface
        super.init(
            client: client, interface: strata_xwayland_surface_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleSetSerial(low: UInt32, high: UInt32) throws(ProtocolError) {
        let serial = UInt64(high) << 32 | UInt64(low)
        guard serial != 0 else {
            throw ProtocolError(code: XWAYLAND_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue, "the serial is 0")
        }
        // The association is committed once: a serial after it is refused here (on this object,
        // not at the wl_surface's commit).
        if committedSerial != nil {
            throw ProtocolError(
                code: XWAYLAND_SURFACE_V1_ERROR_ALREADY_ASSOCIATED.rawValue,
                "the wl_surface is already associated with an X11 window")
        }
        pendingSerial = serial
    }

    func surfaceDidCommit(_ surface: Surface) {
        if let serial = pendingSerial {
            pendingSerial = nil
            committedSerial = serial
            compositor.xwayland?.wm?.surfaceAssociation.shellSurfaceDidCommit(self, surface: surface, serial: serial)
        }
        window?.surfaceDidCommit(surface)
    }

    /// The association outlives the object: the window takes the role over (the surface holds
    /// its role weakly).
    override func resourceDidDestroy() {
        guard let surface, !surface.isDestroyed, surface.role === self else { return }
        surface.clearRole(self)
        if let window { _ = surface.setRole(window) }
    }

    static let implementation = makeImplementation(
        xwayland_surface_v1_interface(
            set_serial: { _, resource, low, high in
                handle(resource, as: XwaylandShellSurface.self) { try $0.handleSetSerial(low: low, high: high) }
            },
            destroy: destroyRequest))
}
