import CStrataServerGlue
import CWaylandServer
import StrataModel

/// One binding of `strata_window_manager_v1`: makes `strata_window_v1` objects for the client's
/// xdg_toplevels and tells the client about screens.
final class StrataWindowManager: ResourceObject {
    private(set) weak var windowExtension: StrataWindowExtension?

    init?(extension windowExtension: StrataWindowExtension, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.windowExtension = windowExtension
        super.init(
            client: client, interface: strata_strata_window_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        windowExtension?.bindings.removeAll { $0 === self }
    }

    func sendScreenConnected(_ screen: Screen) {
        guard !isDestroyed else { return }
        strata_window_manager_v1_send_screen_connected(
            resource, UInt32(truncatingIfNeeded: screen.id.rawValue), screen.name)
    }

    func sendScreenDisconnected(_ id: ScreenID) {
        guard !isDestroyed else { return }
        strata_window_manager_v1_send_screen_disconnected(resource, UInt32(truncatingIfNeeded: id.rawValue))
    }

    func handleGetWindowRequest(client: OpaquePointer, id: UInt32, toplevel resource: OpaquePointer?)
        throws(ProtocolError)
    {
        guard let windowExtension else { return }
        let toplevel = ResourceObject.from(resource, as: XdgToplevel.self)
        if let toplevel, let existing = toplevel.strataWindow, !existing.isDestroyed {
            throw ProtocolError(
                code: STRATA_WINDOW_MANAGER_V1_ERROR_WINDOW_EXISTS.rawValue,
                "xdg_toplevel@\(wl_resource_get_id(toplevel.resource)) already has a strata_window_v1")
        }
        // A toplevel that is already dead (or inert) backs an inert object.
        guard
            let object = StrataWindow(
                extension: windowExtension, toplevel: toplevel, client: client, version: version, id: id)
        else { return }
        object.sendInitialState()
    }

    static let implementation = makeImplementation(
        strata_window_manager_v1_interface(
            destroy: destroyRequest,
            get_window: { client, resource, id, toplevel in
                handle(resource, as: StrataWindowManager.self) { manager throws(ProtocolError) in
                    guard let client else { return }
                    try manager.handleGetWindowRequest(client: client, id: id, toplevel: toplevel)
                }
            }))
}
