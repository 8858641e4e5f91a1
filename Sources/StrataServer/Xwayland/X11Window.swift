import StrataModel

/// An X toplevel managed by the XWM, shown as a model `Window` (kind `x11`): the window content
/// whose root surface is the wl_surface Xwayland made for it (associated by the `WL_SURFACE_ID`
/// client message). It is shown while the X window is mapped and its surface has a buffer;
/// override-redirect windows (menus, tooltips) sit at their X position at the popup level and
/// never become key. Frames the model decides are sent back to X (`XWM.configure`).
final class X11Window: WindowContent, SurfaceRole {
    let id: UInt32
    unowned let wm: any X11WindowHost
    let isOverrideRedirect: Bool
    /// The X geometry (root coordinates), as last configured or requested.
    var x: Int32, y: Int32, width: Int32, height: Int32
    /// The last frame the X side gave the model window (`XWM.setModelFrame`): the model's
    /// notification of it is not configured back to X.
    var frameGivenToModel: Rect?
    var geometry: XGeometry { XGeometry(x: x, y: y, width: width, height: height) }
    /// The model window (made when the window maps; nil after it closed).
    private(set) var window: Window?
    private(set) weak var surface: Surface?
    /// The WL_SURFACE_ID not yet found among Xwayland's surfaces.
    var pendingSurfaceID: UInt32?
    /// The serial of the last `WL_SURFACE_SERIAL` message (xwayland_shell_v1), 0 for none.
    var surfaceSerial: UInt64 = 0
    /// A MapRequest waits for the window's properties: it is granted when they arrive.
    var mapsWhenPropertiesArrive = false
    /// Mapped in X (MapRequest granted, or an override-redirect MapNotify).
    private(set) var isMapped = false
    private var wasShown = false
    /// Whether the content is showable now (mapped, with a buffer) as last seen by `update`.
    private var isShowing = false
    private var surfaceDestroyed: Signal<Surface>.Token?

    var title = ""
    var appID = ""
    var pid: Int32 = 0
    /// The pid came (or is coming) from X-Resource, not `_NET_WM_PID`.
    var pidFromXRes = false
    /// `WM_TRANSIENT_FOR` (0: none): the model window's parent when it names another managed,
    /// mapped X toplevel (`applyTransientParent`).
    var transientFor: UInt32 = 0
    /// `_NET_WM_STATE_MODAL` (at map, or by the client's `_NET_WM_STATE` message): the model
    /// window is modal for its parent.
    var isModal = false
    /// A refused parent (a cycle of `WM_TRANSIENT_FOR`) was logged for this window.
    var loggedRefusedParent = false
    /// The window id `WM_TRANSIENT_FOR` names while that window has no model window yet (0:
    /// none): listed under it in `X11WindowController.transientsAwaitingParent`.
    var awaitedParent: UInt32 = 0
    /// The X window whose model window `applyTransientParent` made this one's parent (nil:
    /// none); its `subtreeMeasure` counts this window's transient tree.
    weak var transientLink: X11Window?
    /// How deep and big the transient tree below this window is (`MeasuredTreeNode`).
    var subtreeMeasure = SubtreeMeasure()
    var type: X11WindowType = .normal
    /// `_NET_WM_STATE_ABOVE` at map time: a normal window goes to `X11WindowType.aboveLevel`.
    var isAbove = false
    var supportsDelete = false
    var supportsTakeFocus = false
    /// `_NET_WM_PING` in `WM_PROTOCOLS`: pinged when asked to close (`XWMPing`).
    var supportsPing = false
    /// The ICCCM input hint (WM_HINTS): whether the WM should give it the input focus.
    var acceptsInput = true

    /// `_NET_WM_STATE_MAXIMIZED_VERT` / `_HORZ` and `_FULLSCREEN` as X has them (written back by
    /// the XWM): the model window is maximized when both directions are set
    /// (`Window.isMaximized`, `isFullscreen`, `restoreFrame` are the model's).
    private(set) var maximizedVertically = false
    private(set) var maximizedHorizontally = false
    /// `_NET_WM_STATE_FULLSCREEN`.
    private(set) var wantsFullscreen = false
    /// Iconic (ICCCM `IconicState`, `_NET_WM_STATE_HIDDEN`): hidden in the model and unmapped in
    /// X by the XWM (so that the client's map un-iconifies it, as ICCCM says).
    var isIconic = false
    /// A refused `_NET_ACTIVE_WINDOW` marked it (`_NET_WM_STATE_DEMANDS_ATTENTION`) until it
    /// becomes key.
    var demandsAttention = false
    /// Set while the window hides itself in the model (its X window unmapped, its surface gone),
    /// so that the XWM does not take the hide for an iconify.
    private(set) var isHidingItself = false
    /// Shown at least once (its state frames apply from then on; before, at the first show).
    var hasShownOnce: Bool { wasShown }

    var roleName: String { "xwayland_surface" }
    var kind: String { "x11" }
    /// Listed by `ext_foreign_toplevel_list_v1` unless override-redirect (menus, tooltips).
    var isToplevel: Bool { !isOverrideRedirect }

    init(id: UInt32, wm: any X11WindowHost, overrideRedirect: Bool, x: Int32, y: Int32, width: Int32, height: Int32) {
        self.id = id
        self.wm = wm
        self.isOverrideRedirect = overrideRedirect
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    private var compositor: Compositor { wm.compositor }

    // MARK: Map, surface

    /// The X window is mapped: the model window is made (or reused) with the properties read.
    func didMap() {
        isMapped = true
        if window == nil || window?.isClosed == true {
            let effective: X11WindowType = isOverrideRedirect ? .overrideRedirect : type
            let level = isAbove && effective.level == .normal ? X11WindowType.aboveLevel : effective.level
            let made = compositor.windows.createWindow(
                appID: appID, title: title, pid: pid, level: level,
                canBecomeKey: effective.canBecomeKey)
            made.content = self
            window = made
            wasShown = false
            isShowing = false
        }
        // Parent and modality before the first show: key is routed as the model says.
        applyTransientParent()
        adoptTransients()
        update()
    }

    func didUnmap() {
        isMapped = false
        update()
    }

    /// Associates the wl_surface (from WL_SURFACE_ID); false while Xwayland has not made it yet.
    /// A newer WL_SURFACE_ID replaces a surface still held (Xwayland made a new one at a map
    /// before the old one's destruction was read).
    /// `shellSurface`: the xwayland_surface_v1 holding the role (it forwards the commits).
    func associate(surface candidate: Surface, shellSurface: XwaylandShellSurface? = nil) -> Bool {
        guard candidate !== surface else { return false }
        if let shellSurface {
            guard candidate.role === shellSurface else { return false }
            shellSurface.window = self
        } else {
            guard candidate.setRole(self) else { return false }
        }
        detachSurface()
        surface = candidate
        pendingSurfaceID = nil
        surfaceDestroyed = candidate.didDestroy.observe { [weak self] _ in
            self?.surface = nil
            self?.update()
        }
        update()
        // Associated outside the surface's commit: the scene damages where it shows now.
        compositor.scene.surfaceTreeDidChange(candidate)
        return true
    }

    func surfaceDidCommit(_ surface: Surface) {
        update()
    }

    /// Shows or hides the window for the current state (mapped, surface with a buffer), keeps
    /// its frame's size that of the surface, and tells the scene where the surface hangs.
    func update() {
        guard let window, !window.isClosed else { return }
        let shown = isMapped && surface.map { !$0.isDestroyed && $0.hasContent } == true
        if let surface, !surface.isDestroyed {
            compositor.scene.setAnchor(shown ? .window(window, x: 0, y: 0) : nil, of: surface)
        }
        guard shown, let surface else {
            if isShowing {
                isShowing = false
                if window.isVisible {
                    // Hidden because X unmapped it or its surface went: not an iconify.
                    isHidingItself = true
                    compositor.withClientCause(window, request: "x11 unmap") { compositor.windows.hide(window) }
                    isHidingItself = false
                }
            }
            return
        }
        let size = Size(width: Int(surface.width), height: Int(surface.height))
        // Shown when it becomes showable (mapped with a buffer), not at every commit: a window
        // the model hid (a taskbar) stays hidden while the client draws.
        if !isShowing {
            isShowing = true
            compositor.withMapCause(window, request: "x11 map") {
                if isOverrideRedirect {
                    wasShown = true
                    showOverrideRedirect(window, size: size)
                } else if wasShown {
                    compositor.windows.show(window, makeKey: !isOverrideRedirect && type.canBecomeKey)
                } else {
                    wasShown = true
                    showFirstTime(window, size: size)
                }
            }
        }
        if window.frame.size != size {
            var frame = window.frame
            frame.size = size
            // The surface's size is what X drew: not configured back to X.
            wm.setModelFrame(of: self, frame)
        }
    }

    /// The first show: the level rule for its class, then an override-redirect window at its X
    /// position (never key), any other where the placement policy puts it (the position the
    /// client asked for, other than the origin, as the requested origin; the size at most the
    /// work area's), told to X.
    private func showFirstTime(_ window: Window, size: Size) {
        compositor.applyConfiguredLevel(to: window)
        if let screen = window.screen ?? compositor.windows.mainScreen {
            let requested: Point? = (x != 0 || y != 0) ? Point(x: Double(x), y: Double(y)) : nil
            let placement = compositor.windows.placement
            compositor.windows.setFrame(
                window,
                placement.initialFrame(
                    for: window, size: placement.constrainedSize(size, on: screen), requestedOrigin: requested,
                    on: screen))
            // Mapped maximized or fullscreen: the state's frame, the placed one restored after.
            updateModelState(of: window)
            if isMaximized || wantsFullscreen {
                compositor.windows.setRestoreFrame(window, window.frame)
                if let frame = stateFrame(for: window) { compositor.windows.setFrame(window, frame) }
            }
        }
        compositor.windows.show(window, makeKey: type.canBecomeKey && acceptsInput || supportsTakeFocus)
        wm.configure(self, to: window.frame)
    }

    // MARK: _NET_WM_STATE

    /// The state read from `_NET_WM_STATE` before the first show (applied then).
    func takeInitialState(maximizedVertically v: Bool, maximizedHorizontally h: Bool, fullscreen f: Bool) {
        guard !wasShown else { return }
        maximizedVertically = v
        maximizedHorizontally = h
        wantsFullscreen = f
        if let window { updateModelState(of: window) }
    }

    /// The model window's maximized and fullscreen flags from `_NET_WM_STATE`'s.
    private func updateModelState(of window: Window) {
        compositor.windows.setFullscreen(window, wantsFullscreen)
        compositor.windows.setMaximized(window, maximizedVertically && maximizedHorizontally)
    }

    /// Maximize (both directions) and fullscreen, from the client's `_NET_WM_STATE` message or a
    /// taskbar: the frame is the placement policy's maximized or fullscreen frame, and the frame
    /// before is restored after. `_NET_WM_STATE` is written back.
    func setState(maximizedVertically v: Bool, maximizedHorizontally h: Bool, fullscreen f: Bool) {
        guard !isOverrideRedirect else { return }
        let wasPlaced = isMaximized || wantsFullscreen
        maximizedVertically = v
        maximizedHorizontally = h
        wantsFullscreen = f
        let isPlaced = isMaximized || wantsFullscreen
        wm.writeState(of: self)
        guard let window, !window.isClosed else { return }
        updateModelState(of: window)
        guard wasShown else { return }
        if isPlaced != wasPlaced || isPlaced { applyPlacementState() }
    }

    /// `_NET_WM_STATE_ABOVE` added or removed by the client's message: a window at the normal
    /// level goes to the above level, and back (other levels, from its type or a rule, stay).
    func setAbove(_ above: Bool) {
        isAbove = above
        guard let window, !window.isClosed else { return }
        let level: WindowLevel
        if above, window.level == .normal {
            level = X11WindowType.aboveLevel
        } else if !above, window.level == X11WindowType.aboveLevel {
            level = .normal
        } else {
            return
        }
        let request = "_NET_WM_STATE_ABOVE \(above ? "add" : "remove")"
        compositor.withCause(.focusRequest, request: request, requester: Compositor.requester(of: window)) {
            compositor.windows.setLevel(window, level)
        }
    }

    /// The frame of the current state, as the placement policy decides it: fullscreen,
    /// maximized, or the saved frame restored (nil when nothing is to change).
    private func stateFrame(for window: Window) -> Rect? {
        if let placed = compositor.windows.placedFrame(of: window) { return placed }
        guard window.state == .normal, let saved = window.restoreFrame else { return nil }
        return compositor.windows.frame(for: window, in: .normal, size: saved.size)
    }

    /// Moves and sizes the X window to its state's frame (the model's size follows the surface).
    private func applyPlacementState() {
        guard let window, !window.isClosed, wasShown, let frame = stateFrame(for: window) else { return }
        compositor.windows.forgetRestoreFrame(window)
        wm.place(self, at: frame)
    }

    /// The frame a ConfigureRequest of a maximized or fullscreen window gets instead (nil:
    /// floating, the request goes to the placement policy).
    var fixedFrame: Rect? {
        guard let window, isMaximized || wantsFullscreen else { return nil }
        return stateFrame(for: window)
    }

    // MARK: _NET_WM_MOVERESIZE

    /// xdg_toplevel.resize_edge bits (top 1, bottom 2, left 4, right 8) of `_NET_WM_MOVERESIZE`'s
    /// directions 0–7: top-left, top, top-right, right, bottom-right, bottom, bottom-left, left.
    static let resizeEdges: [UInt32] = [5, 1, 9, 8, 10, 2, 6, 4]

    /// `_NET_WM_MOVERESIZE` from the client (a CSD title bar or border dragged): direction 8
    /// moves, 0–7 resize from that edge or corner, by the pointer button the client holds on the
    /// window, as xdg_toplevel.move and resize do. Refused (false) without a held press of
    /// Xwayland's on this window, for a window maximized or fullscreen, and for the keyboard
    /// directions (9, 10) and cancel (11): the release ends a move or resize.
    @discardableResult
    func beginMoveResize(direction: UInt32) -> Bool {
        guard !isOverrideRedirect, !isMaximized, !wantsFullscreen, let window, window.isVisible,
            let surface, !surface.isDestroyed, let seat = compositor.seat,
            let serial = seat.heldPointerPressSerial(client: surface.client, window: window)
        else { return false }
        if direction == 8 { return seat.beginInteractiveMove(window, serial: serial, client: surface.client) }
        guard direction < 8 else { return false }
        let edges = Self.resizeEdges[Int(direction)]
        guard let resize = interactiveResize(edges: edges) else { return false }
        return seat.beginInteractiveResize(window, edges: edges, serial: serial, client: surface.client, resize: resize)
    }

    /// Each new size moves and sizes the X window, the opposite edge of a drag from the left or
    /// top staying where it was; (0, 0), the release, leaves the last size standing.
    func interactiveResize(edges: UInt32) -> ((_ width: Int32, _ height: Int32) -> Void)? {
        guard !isOverrideRedirect, !isMaximized, !wantsFullscreen, let window, window.isVisible else { return nil }
        let start = window.frame
        return { [weak self] width, height in
            guard let self, width > 0, height > 0 else { return }
            var frame = Rect(x: start.x, y: start.y, width: Int(width), height: Int(height))
            if edges & 4 != 0 { frame.x = start.x + start.width - frame.width }
            if edges & 1 != 0 { frame.y = start.y + start.height - frame.height }
            wm.place(self, at: frame)
        }
    }

    // MARK: Override-redirect

    /// The model window an override-redirect window is ordered above (its parent's), while shown.
    private(set) weak var orderedAbove: Window?

    /// Each show of an override-redirect window (menus are mapped again and again): at its X
    /// position, never key, directly above the window it belongs to at that window's level
    /// (`X11WindowController.parentOfOverrideRedirect`), or at the popup level when it belongs to none.
    private func showOverrideRedirect(_ window: Window, size: Size) {
        compositor.windows.setFrame(window, Rect(x: Int(x), y: Int(y), width: size.width, height: size.height))
        compositor.windows.show(window, makeKey: false)
        orderAboveParent()
    }

    /// Orders the shown override-redirect window above its parent, found again now.
    func orderAboveParent() {
        guard isOverrideRedirect, let window, window.isVisible else { return }
        if let parent = wm.controller.parentOfOverrideRedirect(self) {
            orderedAbove = parent
            compositor.windows.order(
                window, above: wm.controller.frontmostOverrideRedirect(above: parent, except: self) ?? parent)
        } else {
            orderedAbove = nil
            compositor.windows.setLevel(window, X11WindowType.popupLevel)
            compositor.windows.orderFront(window)
        }
    }

    /// An override-redirect window moved or resized itself in X.
    func didConfigure(_ geometry: XGeometry) {
        x = geometry.x
        y = geometry.y
        width = geometry.width
        height = geometry.height
        guard isOverrideRedirect, let window, window.isVisible else { return }
        compositor.windows.setFrame(
            window, Rect(x: Int(x), y: Int(y), width: window.frame.width, height: window.frame.height))
    }

    func propertiesDidChange() {
        guard let window, !window.isClosed else { return }
        // A menu's WM_TRANSIENT_FOR read after it showed: ordered above that window now.
        if isOverrideRedirect, transientFor != 0, orderedAbove?.content as? X11Window !== wm.window(transientFor) {
            orderAboveParent()
        }
        applyTransientParent()
        if window.title != title { compositor.windows.setTitle(window, title) }
        if window.appID != appID { compositor.setAppID(appID, of: window, isMapped: wasShown) }
        if window.pid != pid { compositor.windows.setPID(window, pid) }
    }

    /// Lets go of the surface (its role and place in the scene).
    private func detachSurface() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        if let surface, !surface.isDestroyed {
            compositor.scene.setAnchor(nil, of: surface)
            // Outside a commit: the scene damages where it was.
            compositor.scene.surfaceTreeDidChange(surface)
            surface.clearRole(self)
        }
        surface = nil
    }

    /// The X window was destroyed: the model window closes.
    func didDestroy() {
        isMapped = false
        stopAwaitingParent()
        leaveTransientParent()
        detachSurface()
        if let window, !window.isClosed { compositor.windowDidClose(window) }
        window = nil
    }

    // MARK: WindowContent

    var rootSurface: Surface? {
        guard let surface, !surface.isDestroyed else { return nil }
        return surface
    }

    /// An iconic window may be shown again by the model (a taskbar): the XWM maps it in X.
    var hasContentToShow: Bool { isIconic || isMapped && rootSurface?.hasContent == true }

    /// Maximized in both directions (`_NET_WM_STATE`), as the model window is.
    var isMaximized: Bool { maximizedVertically && maximizedHorizontally }

    /// A taskbar (foreign toplevel) asks to maximize or restore.
    func handleMaximizeRequest(_ maximized: Bool) {
        setState(maximizedVertically: maximized, maximizedHorizontally: maximized, fullscreen: wantsFullscreen)
    }

    /// A taskbar asks for fullscreen (on `screen`, or where the window is) or to leave it.
    func handleFullscreenRequest(_ fullscreen: Bool, on screen: Screen?) {
        if fullscreen, let window { compositor.windows.setFullscreen(window, true, on: screen) }
        setState(
            maximizedVertically: maximizedVertically, maximizedHorizontally: maximizedHorizontally,
            fullscreen: fullscreen)
    }

    /// The control socket asks for a size: out of maximized and fullscreen, the X window is
    /// configured to `size` at its frame's origin (X windows take the size they are given).
    func handleSizeRequest(_ size: Size) -> Size? {
        guard !isOverrideRedirect, let window, !window.isClosed, wasShown else { return nil }
        if maximizedVertically || maximizedHorizontally || wantsFullscreen {
            setState(maximizedVertically: false, maximizedHorizontally: false, fullscreen: false)
        }
        wm.place(self, at: Rect(x: window.frame.x, y: window.frame.y, width: size.width, height: size.height))
        return size
    }

    func screenDidChangeUsableArea() { applyPlacementState() }
    func screenDidChangeGeometry() { applyPlacementState() }

    func windowDidChangeKeyState(isKey: Bool) {
        wm.windowDidChangeKeyState(self, isKey: isKey)
    }

    func closeRequest() {
        wm.close(self)
    }
}
