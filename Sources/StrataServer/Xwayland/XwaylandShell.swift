import CStrataServerGlue
import CWaylandServer

/// xwayland_shell_v1 v1 (wayland-protocols staging): how an Xwayland 23+ tells which wl_surface
/// shows which X window, instead of the `WL_SURFACE_ID` client message. Privileged beyond the
/// usual rule: only Xwayland's own client (the one Strata started) sees and binds it
/// (`Xwayland.isShellClient`). Debian 12's Xwayland 22.1 does not use it.
final class XwaylandShell: ResourceObject {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        let global = Global(
            display: compositor.display, interface: strata_xwayland_shell_v1_interface(), version: version
        ) {
            [unowned compositor] client, version, id in
            _ = XwaylandShell(compositor: compositor, client: client, version: version, id: id)
        }
        global?.filter = { [unowned compositor] client in compositor.xwayland?.isShellClient(client) == true }
        return global
    }

    private unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_xwayland_shell_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// get_xwayland_surface: the surface takes the `xwayland_surface` role, held by the new
    /// object (which forwards the surface's commits to the X window once associated).
    func handleGetXwaylandSurface(id: UInt32, surface: Surface) throws(ProtocolError) {
        if surface.role != nil || (surface.roleName != nil && surface.roleName != XwaylandShellSurface.roleName) {
            throw ProtocolError(
                code: XWAYLAND_SHELL_V1_ERROR_ROLE.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName ?? "?")")
        }
        guard
            let object = XwaylandShellSurface(
                compositor: compositor, surface: surface, client: client, version: version, id: id)
        else { return }
        if !surface.setRole(object) {
            throw ProtocolError(
                code: XWAYLAND_SHELL_V1_ERROR_ROLE.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) has another role")
        }
    }

    static let implementation = makeImplementation(
        xwayland_shell_v1_interface(
            destroy: destroyRequest,
            get_xwayland_surface: { _, resource, id, surface in
                handle(resource, as: XwaylandShell.self) { shell throws(ProtocolError) in
                    guard let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try shell.handleGetXwaylandSurface(id: id, surface: surface)
                }
            }))
}
