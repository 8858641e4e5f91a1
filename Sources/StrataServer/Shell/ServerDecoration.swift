import CStrataServerGlue
import CWaylandServer

/// org_kde_kwin_server_decoration: told the compositor's mode when made; a request_mode for
/// none, client or server is granted and answered with that mode (as wlroots does). Answering
/// a client's wish with another mode starts a loop: GTK 3 asks again at every answer, and its
/// windows stop taking input. An unknown mode is answered with the current one. Nothing is
/// drawn either way.
final class ServerDecoration: ResourceObject {
    private weak var manager: ServerDecorationManager?
    private var mode: UInt32

    init?(manager: ServerDecorationManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        mode = manager.mode
        super.init(
            client: client, interface: strata_org_kde_kwin_server_decoration_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func sendMode() {
        guard !isDestroyed else { return }
        org_kde_kwin_server_decoration_send_mode(resource, mode)
    }

    static let implementation = makeImplementation(
        org_kde_kwin_server_decoration_interface(
            release: destroyRequest,
            request_mode: { _, resource, requested in
                handle(resource, as: ServerDecoration.self) { decoration in
                    if requested <= ORG_KDE_KWIN_SERVER_DECORATION_MANAGER_MODE_SERVER.rawValue {
                        decoration.mode = requested
                    }
                    decoration.sendMode()
                }
            }))
}
