import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_popup (or zxdg_popup_v6): a surface placed by positioner rules relative to its parent's window geometry,
/// drawn above the parent by the toplevel's `forEachRootSurface`, kept inside the parent's
/// screen's usable area by the constraint adjustments. With an explicit grab it belongs to the
/// client's grab chain; the seat ends the grab with `grabDidEnd`, which dismisses it.
final class XdgPopup: ResourceObject, XdgRoleObject, PopupGrab {
    unowned let compositor: Compositor
    let flavor: XdgShellFlavor
    private(set) weak var xdgSurface: XdgSurface?
    /// The parent: an xdg_surface (a toplevel's or a popup's) or a layer surface.
    private(set) weak var parent: PopupParent?
    private var rules: XdgPositionerRules
    private var unacked: [(serial: UInt32, rect: Rect)] = []
    private var acked: Rect?
    /// Position and size relative to the parent's window geometry, as last committed.
    private(set) var rect: Rect = .zero
    private(set) var isDismissed = false {
        didSet { if isDismissed != oldValue { xdgSurface?.updateAnchor() } }
    }
    private(set) var hasGrab = false

    init?(
        xdgSurface: XdgSurface, parent: PopupParent?, rules: XdgPositionerRules, client: OpaquePointer, version: UInt32,
        id: UInt32
    ) {
        self.compositor = xdgSurface.compositor
        self.flavor = xdgSurface.flavor
        self.xdgSurface = xdgSurface
        self.parent = parent
        self.rules = rules
        super.init(
            client: client, interface: flavor.popupInterface, version: version, id: id,
            implementation: Self.implementation)
    }

    private var wmBase: XdgWmBase? { xdgSurface?.wmBase }

    private var parentPopup: XdgPopup? { (parent as? XdgSurface)?.roleObject as? XdgPopup }

    /// Popups from this one up to its chain's toplevel or layer surface (a popup of a toplevel
    /// is 1). Chains are made top down, each link checked against `TreeLimits.maxPopupDepth`,
    /// so the walk is that short.
    var chainDepth: Int {
        var depth = 1
        var node = parentPopup
        while let popup = node, depth <= TreeLimits.maxPopupDepth {
            depth += 1
            node = popup.parentPopup
        }
        return depth
    }

    // MARK: Placement

    /// The popup's rectangle (relative to the parent's window geometry) for the current rules,
    /// constrained to the work area of the parent's screen (the placement policy's: the screen
    /// less its panels) when the parent is shown.
    func computeRect() -> Rect {
        var bounds: Rect?
        if let parent, let parentSurface = parent.surface, let p = parentSurface.placement,
            let screen = compositor.scene.output(for: p.screen)?.screen
        {
            let area = compositor.windows.placement.workArea(of: screen)
            bounds = area.offsetBy(dx: -(Int(p.x) + parent.geometry.x), dy: -(Int(p.y) + parent.geometry.y))
        }
        return rules.place(within: bounds)
    }

    /// The surface hangs on the parent's surface: the parent's window geometry, then this
    /// popup's rectangle in it, less its own window geometry's origin. (The scene shows it while
    /// the parent's surface is shown.)
    var anchor: SurfaceAnchor? {
        guard !isDismissed, let xdgSurface, let parent, let parentSurface = parent.surface else { return nil }
        return .surface(
            parentSurface, x: parent.geometry.x + rect.x - xdgSurface.geometry.x,
            y: parent.geometry.y + rect.y - xdgSurface.geometry.y)
    }

    /// This popup's surface if it is shown, then its own popups' (bottom to top).
    func forEachShownSurface(_ body: (Surface) -> Void) {
        guard !isDismissed, !isDestroyed, let xdgSurface, xdgSurface.isMapped, let surface = xdgSurface.surface else {
            return
        }
        body(surface)
        xdgSurface.forEachPopupSurface(body)
    }

    // MARK: Configure

    func sendInitialConfigure() {
        sendConfigureSequence(token: nil)
    }

    private func sendConfigureSequence(token: UInt32?) {
        guard !isDestroyed, let xdgSurface else { return }
        let rect = computeRect()
        let (x, y) = (Int32(clamping: rect.x), Int32(clamping: rect.y))
        let (width, height) = (Int32(clamping: rect.width), Int32(clamping: rect.height))
        switch flavor {
        case .stable:
            if let token, version >= 3 { xdg_popup_send_repositioned(resource, token) }
            xdg_popup_send_configure(resource, x, y, width, height)
        case .v6:
            zxdg_popup_v6_send_configure(resource, x, y, width, height)
        }
        guard let serial = xdgSurface.sendConfigure() else { return }
        unacked.append((serial, rect))
        if unacked.count > 64 { unacked.removeFirst(unacked.count - 64) }
    }

    /// The parent moved on screen (its window moved, or a popup below moved): a reactive popup
    /// whose constrained place changed gets a new configure (without `repositioned`: the client
    /// did not ask), applied as any other when acked and committed. Nested popups follow.
    func parentDidMove() {
        guard !isDismissed, !isDestroyed, let xdgSurface else { return }
        if rules.isReactive, xdgSurface.isInitialConfigureSent, computeRect() != (unacked.last?.rect ?? rect) {
            sendConfigureSequence(token: nil)
        }
        xdgSurface.parentDidMove()
    }

    func didAckConfigure(_ serial: UInt32) {
        guard let index = unacked.firstIndex(where: { $0.serial == serial }) else { return }
        acked = unacked[index].rect
        unacked.removeFirst(index + 1)
    }

    func roleWillCommit() throws(ProtocolError) {
        guard let xdgSurface, !xdgSurface.isInitialConfigureSent, !isDismissed else { return }
        // (A parent that died after get_popup dismissed the popup; only a null parent is an error.)
        if parent == nil {
            throw xdgSurface.wmBaseError(
                XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT, "the popup has no parent (get_popup with a null parent)")
        }
    }

    func didCommit() {
        guard let acked else { return }
        self.acked = nil
        guard acked != rect else { return }
        rect = acked
        // Nested popups move with this one (they hang on its surface); reactive ones are placed again.
        xdgSurface?.updateAnchor()
        xdgSurface?.popupsDidMove()
        xdgSurface?.parentDidMove()
    }

    /// A popup mapped before it acknowledged any configure (a lenient handshake) is placed
    /// where the newest configure put it, not at its parent's origin.
    func didMap() {
        guard let xdgSurface, !xdgSurface.isConfigured, let sent = unacked.last, sent.rect != rect else { return }
        rect = sent.rect
    }

    func didUnmap() {
        unacked.removeAll()
        acked = nil
    }

    // MARK: Grab and dismissal

    var grabSurface: Surface? { xdgSurface?.surface }

    func grabDidEnd() {
        // The seat ended this grab itself: do not hand it back.
        removeFromGrabChain()
        dismiss()
    }

    private func removeFromGrabChain() {
        guard hasGrab else { return }
        hasGrab = false
        wmBase?.grabChain.removeAll { $0 === self }
    }

    /// Hides the popup and its nested popups (topmost first) and sends popup_done to each.
    func dismiss() {
        guard !isDismissed, !isDestroyed else { return }
        xdgSurface?.dismissPopups()
        isDismissed = true
        if hasGrab {
            removeFromGrabChain()
            compositor.seat.endPopupGrab(self)
        }
        switch flavor {
        case .stable: xdg_popup_send_popup_done(resource)
        case .v6: zxdg_popup_v6_send_popup_done(resource)
        }
        if let surface = xdgSurface?.surface { compositor.scene.surfaceTreeDidChange(surface) }
    }

    func handleGrabRequest(serial: UInt32) throws(ProtocolError) {
        guard let xdgSurface else { return }
        if xdgSurface.isInitialConfigureSent {
            throw ProtocolError(code: XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "grab after the popup's initial commit")
        }
        guard !isDismissed, !hasGrab else { return }
        if let parentPopup {
            if parentPopup.isDismissed {
                dismiss()
                return
            }
            guard parentPopup.hasGrab else {
                throw ProtocolError(
                    code: XDG_POPUP_ERROR_INVALID_GRAB.rawValue,
                    "grab on a popup whose parent popup has no explicit grab")
            }
        }
        if let wmBase, let top = wmBase.grabChain.last, top !== parentPopup {
            throw xdgSurface.wmBaseError(
                XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP,
                "a grabbing popup must be made on the topmost grabbing popup of the client")
        }
        guard compositor.seat.beginPopupGrab(self, serial: serial) else {
            dismiss()
            return
        }
        hasGrab = true
        wmBase?.grabChain.append(self)
    }

    /// zwlr_layer_surface_v1.get_popup: a popup made with a null parent gets a layer surface as
    /// its parent, before its initial commit. Returns false (and changes nothing) otherwise.
    func adoptParent(_ newParent: PopupParent) -> Bool {
        guard parent == nil, !isDismissed, !isDestroyed, let xdgSurface, !xdgSurface.isInitialConfigureSent,
            newParent.popups.count < TreeLimits.maxPopupsPerParent
        else { return false }
        parent = newParent
        newParent.popups.append(self)
        return true
    }

    func handleRepositionRequest(positioner positionerResource: OpaquePointer?, token: UInt32) throws(ProtocolError) {
        guard let xdgSurface else { return }
        guard let positioner = ResourceObject.from(positionerResource, as: XdgPositioner.self),
            positioner.rules.isComplete
        else {
            throw xdgSurface.wmBaseError(
                XDG_WM_BASE_ERROR_INVALID_POSITIONER, "reposition with an incomplete xdg_positioner")
        }
        rules = positioner.rules
        guard xdgSurface.isInitialConfigureSent, !isDismissed else { return }
        sendConfigureSequence(token: token)
    }

    /// Whether destroying this popup now breaks the "topmost first" order.
    private var isTopmost: Bool {
        if let xdgSurface, xdgSurface.popups.contains(where: { !$0.isDestroyed && !$0.isDismissed }) { return false }
        if hasGrab, let top = wmBase?.grabChain.last, top !== self { return false }
        return true
    }

    // MARK: Death

    /// Unlinks the popup from its parent, the grab chain and the seat; nested popups are dismissed.
    private func tearDown() {
        xdgSurface?.dismissPopups()
        isDismissed = true
        if hasGrab {
            removeFromGrabChain()
            compositor.seat.endPopupGrab(self)
        }
        parent?.popups.removeAll { $0 === self }
        if let surface = xdgSurface?.surface, !surface.isDestroyed { compositor.scene.surfaceTreeDidChange(surface) }
    }

    func xdgSurfaceDidGoAway() {
        tearDown()
    }

    override func resourceDidDestroy() {
        tearDown()
        xdgSurface?.roleObjectDidDestroy(self)
    }

    static let implementation = makeImplementation(
        xdg_popup_interface(
            destroy: { _, resource in
                handle(resource, as: XdgPopup.self) { popup throws(ProtocolError) in
                    guard popup.isTopmost else {
                        throw popup.xdgSurface?.wmBaseError(
                            XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP, "destroying a popup that is not the topmost")
                            ?? ProtocolError(
                                code: XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP.rawValue,
                                "destroying a popup that is not the topmost")
                    }
                    popup.destroyResource()
                }
            },
            grab: { _, resource, _, serial in
                handle(resource, as: XdgPopup.self) { try $0.handleGrabRequest(serial: serial) }
            },
            reposition: { _, resource, positioner, token in
                handle(resource, as: XdgPopup.self) {
                    try $0.handleRepositionRequest(positioner: positioner, token: token)
                }
            }))
}
