import CStrataServerGlue
import CWaylandServer

/// org_kde_kwin_server_decoration_manager v1 (KDE's server-decoration.xml; every client): Qt 5
/// and older KDE clients ask whether to draw their own title bars. Strata answers with the
/// command line's mode, as for zxdg_decoration_manager_v1 (`Compositor.decorationMode`):
/// `Server` by default, and draws nothing; `Client` with `--client-side-decorations`.
final class ServerDecorationManager: ResourceObject {
    static let version: UInt32 = 1
    private unowned let compositor: Compositor

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_org_kde_kwin_server_decoration_manager_interface(),
            version: version
        ) { [unowned compositor] client, version, id in
            guard
                let manager = ServerDecorationManager(compositor: compositor, client: client, version: version, id: id)
            else { return }
            org_kde_kwin_server_decoration_manager_send_default_mode(manager.resource, manager.mode)
        }
    }

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_org_kde_kwin_server_decoration_manager_interface(), version: version,
            id: id,
            implementation: Self.implementation)
    }

    /// The protocol's mode for the compositor's decoration mode (Server 2, Client 1).
    var mode: UInt32 {
        compositor.decorationMode == .serverSide
            ? ORG_KDE_KWIN_SERVER_DECORATION_MANAGER_MODE_SERVER.rawValue
            : ORG_KDE_KWIN_SERVER_DECORATION_MANAGER_MODE_CLIENT.rawValue
    }

    static let implementation = makeImplementation(
        org_kde_kwin_server_decoration_manager_interface(
            create: { _, resource, id, _ in
                handle(resource, as: ServerDecorationManager.self) { manager in
                    guard
                        let decoration = ServerDecoration(
                            manager: manager, client: manager.client, version: manager.version, id: id)
                    else { return }
                    decoration.sendMode()
                }
            }))
}
