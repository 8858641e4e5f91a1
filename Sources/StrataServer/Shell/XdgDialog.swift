import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_dialog_v1: the dialog hints of one xdg_toplevel. set_modal and unset_modal set the
/// model's `Window.isModal` at once (the requests are not double-buffered); the model decides
/// what that means for key (`WindowManager.setModal`, docs/window-model.md, "Modal windows").
/// Destroying the object while its toplevel lives unsets modal (the spec: "unapply its
/// effects"); once the toplevel is gone the object is inert.
final class XdgDialog: ResourceObject {
    unowned let compositor: Compositor
    private(set) weak var toplevel: XdgToplevel?
    /// Whether this object made the window modal (so its end undoes only its own effect).
    private var setModal = false

    init?(compositor: Compositor, toplevel: XdgToplevel?, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        self.toplevel = toplevel
        super.init(
            client: client, interface: strata_xdg_dialog_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    private var window: Window? {
        guard let toplevel, !toplevel.isDestroyed, let window = toplevel.window, !window.isClosed else { return nil }
        return window
    }

    func handleModalRequest(_ modal: Bool) {
        guard let window else { return }
        setModal = modal
        compositor.windows.setModal(window, modal)
    }

    override func resourceDidDestroy() {
        if setModal, let window { compositor.windows.setModal(window, false) }
        if toplevel?.dialog === self { toplevel?.dialog = nil }
    }

    static let implementation = makeImplementation(
        xdg_dialog_v1_interface(
            destroy: destroyRequest,
            set_modal: { _, resource in
                handle(resource, as: XdgDialog.self) { $0.handleModalRequest(true) }
            },
            unset_modal: { _, resource in
                handle(resource, as: XdgDialog.self) { $0.handleModalRequest(false) }
            }))
}
