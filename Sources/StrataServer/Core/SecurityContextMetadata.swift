/// What a sandbox engine said about the connections of a security context
/// (wp_security_context_v1: `set_sandbox_engine`, `set_app_id`, `set_instance_id`). Each is
/// optional; Strata only records them (they name the sandboxed client; they grant nothing).
public struct SecurityContextMetadata: Equatable, Sendable {
    public var sandboxEngine: String?
    public var appID: String?
    public var instanceID: String?

    public init(sandboxEngine: String? = nil, appID: String? = nil, instanceID: String? = nil) {
        self.sandboxEngine = sandboxEngine
        self.appID = appID
        self.instanceID = instanceID
    }
}
