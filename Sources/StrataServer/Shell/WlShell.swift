import CStrataServerGlue
import CWaylandServer

/// wl_shell v1 (the core protocol's old shell, deprecated but still used by old clients and much
/// of WLCS): installs the global; each binding makes `WlShellSurface`s.
final class WlShell: ResourceObject {
    static let version: UInt32 = 1

    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_wl_shell_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wl_shell_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = WlShell(compositor: compositor, client: client, version: version, id: id)
        }
    }

    static let implementation = makeImplementation(
        wl_shell_interface(
            get_shell_surface: { client, resource, id, surface in
                handle(resource, as: WlShell.self) { shell throws(ProtocolError) in
                    guard let client, let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try shell.handleGetShellSurfaceRequest(client: client, id: id, surface: surface)
                }
            }))

    func handleGetShellSurfaceRequest(client: OpaquePointer, id: UInt32, surface: Surface) throws(ProtocolError) {
        // A surface has one role for its life: another role, or a live wl_shell_surface, is an error.
        if surface.role != nil || (surface.roleName != nil && surface.roleName != WlShellSurface.roleName) {
            throw ProtocolError(
                code: WL_SHELL_ERROR_ROLE.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName ?? "?")")
        }
        _ = WlShellSurface(compositor: compositor, client: client, version: version, id: id, surface: surface)
    }
}
