import CStrataServerGlue
import CWaylandServer
import Glibc

/// One client's wp_security_context_manager_v1. Destroying it leaves the contexts it made.
final class SecurityContextManagerBinding: ResourceObject {
    unowned let manager: SecurityContextManager

    init?(manager: SecurityContextManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        super.init(
            client: client, interface: strata_wp_security_context_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_security_context_manager_v1_interface(
            destroy: destroyRequest,
            create_listener: { _, resource, id, listenFD, closeFD in
                var handled = false
                handle(resource, as: SecurityContextManagerBinding.self) { binding in
                    handled = true
                    try binding.manager.createListener(binding: binding, id: id, listenFD: listenFD, closeFD: closeFD)
                }
                if !handled {
                    Descriptors.close(listenFD)
                    Descriptors.close(closeFD)
                }
            }))
}
