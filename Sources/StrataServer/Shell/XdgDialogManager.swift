import CStrataServerGlue
import CWaylandServer

/// xdg_wm_dialog_v1 v1 (every client): marks xdg_toplevels as dialogs (GTK 4 for its modal
/// dialogs). One xdg_dialog_v1 per toplevel at a time: a second while the first is alive is
/// already_used; after the first is destroyed a new one may be made.
final class XdgDialogManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let compositor: Compositor

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_xdg_wm_dialog_v1_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = XdgDialogManager(compositor: compositor, client: client, version: version, id: id)
        }
    }

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_xdg_wm_dialog_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleGetDialogRequest(id: UInt32, toplevel toplevelResource: OpaquePointer?) throws(ProtocolError) {
        let toplevel = ResourceObject.from(toplevelResource, as: XdgToplevel.self)
        if let existing = toplevel?.dialog, !existing.isDestroyed {
            throw ProtocolError(
                code: XDG_WM_DIALOG_V1_ERROR_ALREADY_USED.rawValue,
                "get_xdg_dialog: the xdg_toplevel already has an xdg_dialog_v1")
        }
        guard
            let dialog = XdgDialog(compositor: compositor, toplevel: toplevel, client: client, version: version, id: id)
        else { return }
        toplevel?.dialog = dialog
    }

    static let implementation = makeImplementation(
        xdg_wm_dialog_v1_interface(
            destroy: destroyRequest,
            get_xdg_dialog: { _, resource, id, toplevel in
                handle(resource, as: XdgDialogManager.self) {
                    try $0.handleGetDialogRequest(id: id, toplevel: toplevel)
                }
            }))
}
