import CStrataServerGlue
import CWaylandServer

/// wp_security_context_v1: the metadata of a listener until `commit`, which starts it. After
/// commit only `destroy` is allowed (`already_used`); each piece of metadata is set once
/// (`already_set`); an empty or over-long one is `invalid_metadata`. Destroyed before commit,
/// the context's descriptors are closed; after commit the listener lives on without it.
final class SecurityContext: ResourceObject {
    unowned let manager: SecurityContextManager
    /// The listener this context describes (owned by the manager).
    weak var listener: SecurityContextListener?
    private var metadata = SecurityContextMetadata()
    private var committed = false

    init?(manager: SecurityContextManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        super.init(
            client: client, interface: strata_wp_security_context_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        if !committed, let listener {
            listener.stop()
            manager.listenerDidStop(listener)
        }
    }

    static let implementation = makeImplementation(
        wp_security_context_v1_interface(
            destroy: destroyRequest,
            set_sandbox_engine: { _, resource, name in
                handle(resource, as: SecurityContext.self) { context in
                    try context.set(\.sandboxEngine, to: name, what: "sandbox engine")
                }
            },
            set_app_id: { _, resource, appID in
                handle(resource, as: SecurityContext.self) { context in
                    try context.set(\.appID, to: appID, what: "app id")
                }
            },
            set_instance_id: { _, resource, instanceID in
                handle(resource, as: SecurityContext.self) { context in
                    try context.set(\.instanceID, to: instanceID, what: "instance id")
                }
            },
            commit: { _, resource in
                handle(resource, as: SecurityContext.self) { context in
                    try context.checkUncommitted()
                    context.committed = true
                    context.listener?.start(metadata: context.metadata)
                }
            }))

    private func set(
        _ field: WritableKeyPath<SecurityContextMetadata, String?>, to value: UnsafePointer<CChar>?, what: String
    ) throws {
        try checkUncommitted()
        guard metadata[keyPath: field] == nil else {
            throw ProtocolError(code: WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET.rawValue, "the \(what) was already set")
        }
        // Bytes up to the NUL, counted no further than one past the cap.
        var length = 0
        if let value {
            while length <= SecurityContextManager.maxMetadataLength, value[length] != 0 { length += 1 }
        }
        guard let value, length > 0, length <= SecurityContextManager.maxMetadataLength,
            let text = String(validatingCString: value)
        else {
            throw ProtocolError(
                code: WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA.rawValue,
                "the \(what) must be UTF-8 of 1 to \(SecurityContextManager.maxMetadataLength) bytes")
        }
        metadata[keyPath: field] = text
    }

    private func checkUncommitted() throws {
        guard !committed else {
            throw ProtocolError(
                code: WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED.rawValue, "the security context was already committed")
        }
    }
}
