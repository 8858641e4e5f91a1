import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_surface: the configure/ack handshake, the window geometry and the mapped state shared by
/// xdg_toplevel and xdg_popup. It is the wl_surface's role object; the toplevel or popup is its
/// `roleObject`. A surface is mapped by the first commit with a buffer after an acknowledged
/// initial configure, and unmapped by a commit without one.
final class XdgSurface: ResourceObject, SurfaceRole, PopupParent {
    var roleName: String { flavor.surfaceRoleName }

    enum RoleKind: String { case toplevel = "xdg_toplevel", popup = "xdg_popup" }

    unowned let compositor: Compositor
    let flavor: XdgShellFlavor
    private(set) weak var wmBase: XdgWmBase?
    private(set) weak var surface: Surface?
    private(set) weak var roleObject: XdgRoleObject?
    /// The role this xdg_surface was given (it keeps it after the role object dies).
    private(set) var roleKind: RoleKind?
    /// Popups whose parent is this surface, bottom to top.
    var popups: [XdgPopup] = []

    private var pendingGeometry: Rect?
    private var requestedGeometry: Rect?
    /// The effective window geometry, in surface-local coordinates. Its popups hang on its
    /// origin: a new one re-anchors them.
    private(set) var geometry: Rect = .zero {
        didSet {
            if geometry.x != oldValue.x || geometry.y != oldValue.y {
                for popup in popups { popup.xdgSurface?.updateAnchor() }
            }
        }
    }

    /// Serials of configure events sent and not yet acknowledged (or superseded).
    private var unackedSerials: [UInt32] = []
    private(set) var isInitialConfigureSent = false
    /// The client acknowledged a configure since the initial one.
    private(set) var isConfigured = false
    private(set) var isMapped = false
    private var surfaceDestroyed: Signal<Surface>.Token?

    init?(
        wmBase: XdgWmBase, flavor: XdgShellFlavor, client: OpaquePointer, version: UInt32, id: UInt32, surface: Surface
    ) {
        self.compositor = wmBase.compositor
        self.flavor = flavor
        self.wmBase = wmBase
        self.surface = surface
        super.init(
            client: client, interface: flavor.surfaceInterface, version: version, id: id,
            implementation: Self.implementation)
        _ = surface.setRole(self)
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.goInert() }
    }

    /// The wl_surface died first: requests are ignored (role objects are still made, inert).
    var isInert: Bool { surface.map { $0.isDestroyed } ?? true }

    /// An xdg_surface error, raised on this xdg_surface (also from the wl_surface's commit).
    private func error(_ code: xdg_surface_error, _ message: String) -> ProtocolError {
        ProtocolError(on: isDestroyed ? nil : resource, code: code.rawValue, message)
    }

    /// An xdg_surface error only the stable protocol names: zxdg_shell_v6.invalid_surface_state
    /// on the shell for a v6 surface.
    private func stableOnlyError(_ code: xdg_surface_error, _ message: String) -> ProtocolError {
        flavor == .stable ? error(code, message) : invalidSurfaceState(message)
    }

    /// What a v6 client gets for a violation the v6 spec names no error for (see XdgShellFlavor).
    func invalidSurfaceState(_ message: String) -> ProtocolError {
        wmBaseError(XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE, message)
    }

    /// An xdg_wm_base error, raised on the xdg_wm_base when it is still alive.
    func wmBaseError(_ code: xdg_wm_base_error, _ message: String) -> ProtocolError {
        if let wmBase, !wmBase.isDestroyed { return wmBase.error(code, message) }
        return ProtocolError(on: resource, code: code.rawValue, message)
    }

    // MARK: Role objects

    /// Checks that a role object of `kind` may be made now.
    func checkCanConstruct(_ kind: RoleKind) throws(ProtocolError) {
        if let roleObject, !roleObject.isDestroyed {
            throw error(
                XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
                "the xdg_surface already has a \(roleKind?.rawValue ?? "role") object")
        }
        if let roleKind, roleKind != kind {
            throw wmBaseError(
                XDG_WM_BASE_ERROR_ROLE,
                "the xdg_surface was an \(roleKind.rawValue) and cannot become an \(kind.rawValue)")
        }
    }

    func attachRole(_ role: XdgRoleObject, kind: RoleKind) {
        roleObject = role
        roleKind = kind
        resetHandshake()
    }

    /// The role object died: the surface is unmapped, and a new role object starts over.
    func roleObjectDidDestroy(_ role: XdgRoleObject) {
        guard roleObject === role || roleObject == nil else { return }
        dismissPopups()
        roleObject = nil
        isMapped = false
        updateAnchor()
        resetHandshake()
    }

    private func resetHandshake() {
        isInitialConfigureSent = false
        isConfigured = false
        unackedSerials.removeAll()
    }

    /// The xdg_surface or the wl_surface died: tell the role object and the popups.
    private func goInert() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        dismissPopups()
        let role = roleObject
        isMapped = false
        roleObject = nil
        updateAnchor()
        role?.xdgSurfaceDidGoAway()
    }

    // MARK: Configure

    /// Sends xdg_surface.configure with a new serial the client must acknowledge.
    func sendConfigure() -> UInt32? {
        guard !isDestroyed else { return nil }
        let serial = compositor.display.nextSerial()
        unackedSerials.append(serial)
        if unackedSerials.count > 256 { unackedSerials.removeFirst(unackedSerials.count - 256) }
        switch flavor {
        case .stable: xdg_surface_send_configure(resource, serial)
        case .v6: zxdg_surface_v6_send_configure(resource, serial)
        }
        return serial
    }

    func handleAckConfigureRequest(serial: UInt32) throws(ProtocolError) {
        guard !isInert else { return }
        guard roleKind != nil else {
            throw error(XDG_SURFACE_ERROR_NOT_CONSTRUCTED, "ack_configure before get_toplevel or get_popup")
        }
        guard let index = unackedSerials.firstIndex(of: serial) else {
            throw stableOnlyError(
                XDG_SURFACE_ERROR_INVALID_SERIAL, "ack_configure(\(serial)): no such configure is waiting for an ack")
        }
        unackedSerials.removeFirst(index + 1)
        isConfigured = true
        roleObject?.didAckConfigure(serial)
    }

    func handleSetWindowGeometryRequest(x: Int32, y: Int32, width: Int32, height: Int32) throws(ProtocolError) {
        guard !isInert else { return }
        guard roleKind != nil else {
            throw error(XDG_SURFACE_ERROR_NOT_CONSTRUCTED, "set_window_geometry before get_toplevel or get_popup")
        }
        guard width > 0, height > 0 else {
            throw stableOnlyError(
                XDG_SURFACE_ERROR_INVALID_SIZE, "set_window_geometry \(width)x\(height): the size must be positive")
        }
        pendingGeometry = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }

    // MARK: SurfaceRole

    /// A buffer attached before the initial configure is `unconfigured_buffer` at once ("any
    /// attempts by a client to attach or manipulate a buffer prior to the first
    /// xdg_surface.configure call must also be treated as errors"); with a lenient handshake
    /// only while the xdg_surface has no role object.
    func surfaceWillAttach(_ surface: Surface, buffer: OpaquePointer?) throws(ProtocolError) {
        guard !isDestroyed, buffer != nil, !isInitialConfigureSent else { return }
        guard roleKind == nil || compositor.xdgHandshake == .strict else { return }
        throw error(
            XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
            "buffer attached before the initial configure (commit without a buffer first)")
    }

    func surfaceWillCommit(_ surface: Surface) throws(ProtocolError) {
        guard !isDestroyed else { return }
        guard roleKind != nil else {
            throw error(
                XDG_SURFACE_ERROR_NOT_CONSTRUCTED, "commit of an xdg_surface without a role (get_toplevel or get_popup)"
            )
        }
        guard let role = roleObject, !role.isDestroyed else { return }
        if !isConfigured, compositor.xdgHandshake == .strict, surface.pending.bufferChanged,
            surface.pending.buffer.resource != nil
        {
            throw error(
                XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
                isInitialConfigureSent
                    ? "buffer committed before the initial configure was acknowledged"
                    : "buffer committed before the initial configure (commit without a buffer first)")
        }
        try role.roleWillCommit()
    }

    func surfaceDidCommit(_ surface: Surface) {
        guard !isDestroyed else { return }
        if let pendingGeometry {
            requestedGeometry = pendingGeometry
            self.pendingGeometry = nil
        }
        updateGeometry(surface)
        // The anchor of the new geometry before the role moves the window (a toplevel keeps its
        // surface in place on screen), and again after the commit took effect (a popup's new
        // rectangle, a map or unmap); the scene damages at this commit, after the role.
        updateAnchor()
        defer { updateAnchor() }
        guard let role = roleObject, !role.isDestroyed else { return }
        role.didCommit()
        let lenient = compositor.xdgHandshake == .lenient
        if !isInitialConfigureSent {
            isInitialConfigureSent = true
            role.sendInitialConfigure()
            guard lenient, surface.hasContent, roleObject === role, !role.isDestroyed else { return }
        }
        if !isMapped {
            if isConfigured || lenient, surface.hasContent {
                isMapped = true
                // Placed before the role shows the window: the show's observers find it.
                updateAnchor()
                role.didMap()
            }
        } else if !surface.hasContent {
            isMapped = false
            dismissPopups()
            resetHandshake()
            role.didUnmap()
        }
    }

    /// Tells the scene where the surface hangs: the role's anchor while mapped, else nowhere.
    func updateAnchor() {
        guard let surface, !surface.isDestroyed else { return }
        var anchor: SurfaceAnchor?
        if isMapped, !isDestroyed, let role = roleObject, !role.isDestroyed { anchor = role.anchor }
        compositor.scene.setAnchor(anchor, of: surface)
    }

    /// The set window geometry clamped to the surface tree's extents, or those extents.
    private func updateGeometry(_ surface: Surface) {
        var extents: Rect?
        surface.forEachSurface { s, x, y in
            let r = Rect(x: Int(x), y: Int(y), width: Int(s.width), height: Int(s.height))
            extents = extents.map { $0.union(r) } ?? r
        }
        if let requestedGeometry {
            geometry = extents.flatMap { requestedGeometry.intersection($0) } ?? requestedGeometry
        } else {
            geometry = extents ?? .zero
        }
    }

    // MARK: Popups

    /// This surface moved on screen: its reactive popups (and theirs) are placed again.
    func parentDidMove() {
        for popup in popups { popup.parentDidMove() }
    }

    /// Dismisses the popups of this surface, topmost first.
    func dismissPopups() {
        for popup in popups.reversed() { popup.dismiss() }
    }

    /// The surfaces of this surface's shown popups, bottom to top, nested popups after their parent.
    func forEachPopupSurface(_ body: (Surface) -> Void) {
        for popup in popups { popup.forEachShownSurface(body) }
    }

    /// This surface's popups moved with it (outside their commits): the scene damages where
    /// they were and are.
    func popupsDidMove() {
        forEachPopupSurface { compositor.scene.surfaceTreeDidChange($0) }
    }

    // MARK: Requests

    static let implementation = makeImplementation(
        xdg_surface_interface(
            destroy: { _, resource in
                handle(resource, as: XdgSurface.self) { xdgSurface throws(ProtocolError) in
                    if let role = xdgSurface.roleObject, !role.isDestroyed {
                        throw xdgSurface.stableOnlyError(
                            XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
                            "xdg_surface destroyed before its \(xdgSurface.roleKind?.rawValue ?? "role") object")
                    }
                    xdgSurface.destroyResource()
                }
            },
            get_toplevel: { client, resource, id in
                handle(resource, as: XdgSurface.self) { xdgSurface throws(ProtocolError) in
                    guard let client else { return }
                    if xdgSurface.isInert {
                        // Back the client's new id with an object that does nothing.
                        _ = XdgToplevel(
                            inertWith: xdgSurface.compositor, flavor: xdgSurface.flavor, client: client,
                            version: xdgSurface.version, id: id)
                        return
                    }
                    try xdgSurface.checkCanConstruct(.toplevel)
                    guard
                        let toplevel = XdgToplevel(
                            xdgSurface: xdgSurface, client: client, version: xdgSurface.version, id: id)
                    else { return }
                    xdgSurface.attachRole(toplevel, kind: .toplevel)
                }
            },
            get_popup: { client, resource, id, parent, positioner in
                handle(resource, as: XdgSurface.self) { xdgSurface throws(ProtocolError) in
                    guard let client else { return }
                    try xdgSurface.handleGetPopupRequest(client: client, id: id, parent: parent, positioner: positioner)
                }
            },
            set_window_geometry: { _, resource, x, y, width, height in
                handle(resource, as: XdgSurface.self) {
                    try $0.handleSetWindowGeometryRequest(x: x, y: y, width: width, height: height)
                }
            },
            ack_configure: { _, resource, serial in
                handle(resource, as: XdgSurface.self) { try $0.handleAckConfigureRequest(serial: serial) }
            }))

    func handleGetPopupRequest(
        client: OpaquePointer, id: UInt32, parent parentResource: OpaquePointer?,
        positioner positionerResource: OpaquePointer?
    ) throws(ProtocolError) {
        if isInert {
            _ = XdgPopup(
                xdgSurface: self, parent: nil, rules: XdgPositionerRules(), client: client, version: version, id: id)
            return
        }
        try checkCanConstruct(.popup)
        guard let positioner = ResourceObject.from(positionerResource, as: XdgPositioner.self),
            positioner.rules.isComplete
        else {
            throw wmBaseError(
                XDG_WM_BASE_ERROR_INVALID_POSITIONER,
                "get_popup with an incomplete xdg_positioner (set_size and set_anchor_rect first)")
        }
        var parent: PopupParent?
        if let parentResource {
            guard let p = ResourceObject.from(parentResource, as: XdgSurface.self), p !== self, p.roleKind != nil,
                let role = p.roleObject, !role.isDestroyed
            else {
                throw wmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT, "the popup's parent is not an xdg_toplevel or xdg_popup")
            }
            // Bounded chains and lists (`TreeLimits`): the walk up is at most the depth limit long.
            let depth = ((p.roleObject as? XdgPopup)?.chainDepth ?? 0) + 1
            guard depth <= TreeLimits.maxPopupDepth else {
                throw wmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
                    "the popup would be \(depth) popups deep (at most \(TreeLimits.maxPopupDepth))")
            }
            guard p.popups.count < TreeLimits.maxPopupsPerParent else {
                throw wmBaseError(
                    XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
                    "the parent has \(p.popups.count) popups (at most \(TreeLimits.maxPopupsPerParent))")
            }
            parent = p
        }
        guard
            let popup = XdgPopup(
                xdgSurface: self, parent: parent, rules: positioner.rules, client: client, version: version, id: id)
        else { return }
        attachRole(popup, kind: .popup)
        parent?.popups.append(popup)
    }

    override func resourceDidDestroy() {
        goInert()
        surface?.clearRole(self)
    }
}
