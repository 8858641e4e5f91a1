import CStrataServerGlue
import CWaylandServer

/// org_kde_kwin_server_decoration: told the compositor's mode when made and after every
/// request_mode (the client's wish is heard, not followed: Strata's decoration policy is the
/// command line's). Nothing is drawn either way.
final class ServerDecoration: ResourceObject {
    private weak var manager: ServerDecorationManager?
    private let mode: UInt32

    init?(manager: ServerDecorationManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        mode = manager.mode
        super.init(client: client, interface: strata_org_kde_kwin_server_decoration_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    func sendMode() {
        guard !isDestroyed else { return }
        org_kde_kwin_server_decoration_send_mode(resource, mode)
    }

    static let implementation = makeImplementation(org_kde_kwin_server_decoration_interface(
        release: destroyRequest,
        request_mode: { _, resource, _ in
            handle(resource, as: ServerDecoration.self) { $0.sendMode() }
        }))
}
