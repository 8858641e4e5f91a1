import CStrataServerGlue
import CWaylandServer
import StrataModel

/// wl_shell_surface: the wl_surface's role object, shown as a model `Window` like an
/// xdg_toplevel (levels and `--level` rules, the key-window policy, notifications, foreign
/// toplevel, the control socket) in the toplevel, transient, maximized and fullscreen modes,
/// and like an xdg_popup (drawn above its parent, a popup grab, `popup_done`) in popup mode.
///
/// There is no configure handshake: the surface maps at the first commit with a buffer once a
/// `set_*` request gave it a mode, and unmaps at a commit without one. The window is made by the
/// first window mode and closed when the wl_shell_surface or its wl_surface dies; a
/// wl_shell_surface whose wl_surface died is inert (the protocol has no destructor: the
/// resource lives until the client disconnects).
final class WlShellSurface: ResourceObject, SurfaceRole, WindowContent, PopupGrab {
    static let roleName = "wl_shell_surface"
    var roleName: String { Self.roleName }

    enum Mode: Equatable { case none, toplevel, transient, maximized, fullscreen, popup }

    unowned let compositor: Compositor
    private(set) weak var surface: Surface?
    /// The model window (made by the first window mode; nil for a surface that only was a popup).
    private(set) var window: Window? {
        didSet { updateAnchor() }
    }
    private(set) var mode: Mode = .none {
        didSet { updateAnchor() }
    }
    private(set) var isMapped = false {
        didSet { updateAnchor() }
    }
    private var title = ""
    private var appID = ""

    /// Transient and popup: the parent surface and the offset from its origin.
    private weak var parentSurface: Surface?
    private var offset = (x: 0, y: 0) {
        didSet { updateAnchor() }
    }
    /// set_transient with the inactive flag: shown without becoming key.
    private var showsWithoutKey = false
    /// Transients of this surface (kept above it when it becomes key) and its shown popups.
    /// Each with the link it joined by: an entry whose transient died or left since is stale,
    /// skipped, and dropped once stale entries are half the list (no search per request).
    private var transients: [(surface: Weak<WlShellSurface>, link: Int)] = []
    private var staleTransients = 0
    /// Counts this surface's joins of a transient parent: which entry of its list is its own.
    private var transientLink = 0
    private(set) var popups: [WlShellSurface] = []
    private weak var popupParent: WlShellSurface? {
        didSet { updateAnchor() }
    }
    /// The wl_shell parent whose `transients` hold this surface.
    private weak var transientParent: WlShellSurface?
    private(set) var isDismissed = false {
        didSet { updateAnchor() }
    }
    private(set) var hasGrab = false

    private var wasPlaced = false
    private(set) var pendingPingSerial: UInt32?
    private var surfaceDestroyed: Signal<Surface>.Token?

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32, surface: Surface) {
        self.compositor = compositor
        self.surface = surface
        super.init(
            client: client, interface: strata_wl_shell_surface_interface(), version: version, id: id,
            implementation: Self.implementation)
        _ = surface.setRole(self)
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.goInert() }
    }

    private var isInert: Bool { surface.map { $0.isDestroyed } ?? true }

    private var screen: Screen? { window?.screen ?? compositor.windows.mainScreen }

    /// Where windows go (`WindowPlacementPolicy`): transients (the model asks it for the
    /// maximized, fullscreen and restored frames).
    private var placement: any WindowPlacementPolicy { compositor.windows.placement }

    // MARK: Modes

    /// Enters a window mode (set_toplevel, set_transient, set_maximized, set_fullscreen).
    private func enterWindowMode(_ newMode: Mode) {
        if mode == .popup { leavePopupMode() }
        if window == nil {
            let window = compositor.windows.createWindow(appID: appID, title: title, pid: clientPid)
            window.content = self
            self.window = window
        }
        if mode == .popup || (mode == .none && isMapped) { isMapped = false }
        mode = newMode
        // The maximized and fullscreen modes are the model window's state (which keeps the frame
        // to go back to).
        if let window {
            let windows = compositor.windows
            if newMode == .fullscreen {
                windows.setFullscreen(window, true)
                windows.setMaximized(window, false)
            } else {
                windows.setMaximized(window, newMode == .maximized)
                windows.setFullscreen(window, false)
            }
        }
        if newMode != .transient {
            showsWithoutKey = false
            leaveTransientParent()
        }
        // A surface that already has content maps (or takes its new place) at once.
        if let surface, surface.hasContent {
            if isMapped { updateFrame() } else { map() }
        }
    }

    private func leaveTransientParent() {
        guard let parent = transientParent else { return }
        transientParent = nil
        parent.staleTransients += 1
        if parent.staleTransients * 2 > parent.transients.count { parent.compactTransients() }
    }

    private func compactTransients() {
        transients.removeAll { entry in
            guard let transient = entry.surface.value, !transient.isDestroyed else { return true }
            return transient.transientParent !== self || transient.transientLink != entry.link
        }
        staleTransients = 0
    }

    /// Shown popups from this surface up, this one included (0: it is not a shown popup). Chains
    /// are joined top down (a surface ends its own popups when it becomes one), each link
    /// checked against `TreeLimits.maxPopupDepth`, so the walk is that short.
    private var shownPopupDepth: Int {
        var depth = 0
        var node: WlShellSurface? = self
        while let current = node, current.mode == .popup, !current.isDismissed, depth <= TreeLimits.maxPopupDepth {
            depth += 1
            node = current.popupParent
        }
        return depth
    }

    private func leavePopupMode() {
        dismiss()
        popupParent?.popups.removeAll { $0 === self }
        popupParent = nil
        isMapped = false
    }

    func handleSetToplevelRequest() {
        guard !isInert else { return }
        parentSurface = nil
        enterWindowMode(.toplevel)
    }

    func handleSetTransientRequest(parent parentResource: OpaquePointer?, x: Int32, y: Int32, flags: UInt32) {
        guard !isInert, let parent = ResourceObject.from(parentResource, as: Surface.self), parent !== surface else {
            return
        }
        parentSurface = parent
        offset = (Int(x), Int(y))
        showsWithoutKey = flags & WL_SHELL_SURFACE_TRANSIENT_INACTIVE.rawValue != 0
        leaveTransientParent()
        if let shellParent = parent.role as? WlShellSurface {
            transientLink += 1
            shellParent.transients.append((Weak(self), transientLink))
            transientParent = shellParent
        }
        enterWindowMode(.transient)
        if isMapped, let window { placeTransient(window) }
    }

    func handleSetMaximizedRequest(output: OpaquePointer?) {
        guard !isInert else { return }
        moveWindow(toOutput: output)
        enterWindowMode(.maximized)
        guard let window, let size = compositor.windows.configuredSize(of: window) else { return }
        sendConfigure(edges: 0, size: size)
    }

    func handleSetFullscreenRequest(output: OpaquePointer?) {
        guard !isInert else { return }
        moveWindow(toOutput: output)
        enterWindowMode(.fullscreen)
        guard let window, let size = compositor.windows.configuredSize(of: window) else { return }
        sendConfigure(edges: 0, size: size)
    }

    private func moveWindow(toOutput output: OpaquePointer?) {
        if let window, let binding = output.flatMap({ ResourceObject.from($0, as: OutputBinding.self) }),
            let target = binding.output?.screen, target !== window.screen
        {
            compositor.windows.move(window, to: target)
        }
    }

    func handleSetPopupRequest(serial: UInt32, parent parentResource: OpaquePointer?, x: Int32, y: Int32) {
        guard !isInert else { return }
        if mode == .popup { leavePopupMode() }
        leaveTransientParent()
        if let window, !window.isHidden { compositor.windows.hide(window) }
        isMapped = false
        mode = .popup
        isDismissed = false
        offset = (Int(x), Int(y))
        // Its own popups end: the chain below a popup is always made after it joined its parent,
        // so no cycle can form and the depth is its parent's plus one.
        dismissPopups()
        let parent = ResourceObject.from(parentResource, as: Surface.self)
        parentSurface = parent
        // Popups are drawn with a wl_shell parent's window; any other parent cannot show one,
        // nor can a dismissed popup (one that was this surface's own descendant, too). Chains
        // and lists past `TreeLimits` are refused the same way (wl_shell has no error for
        // them): the popup is dismissed at once.
        guard let parent, parent !== surface, let shellParent = parent.role as? WlShellSurface,
            !shellParent.isDestroyed, !(shellParent.mode == .popup && shellParent.isDismissed),
            shellParent.shownPopupDepth < TreeLimits.maxPopupDepth,
            shellParent.popups.count < TreeLimits.maxPopupsPerParent
        else {
            dismiss()
            return
        }
        popupParent = shellParent
        shellParent.popups.append(self)
        guard compositor.seat.beginPopupGrab(self, serial: serial) else {
            dismiss()
            return
        }
        hasGrab = true
        if let surface, surface.hasContent { isMapped = true }
    }

    // MARK: Configure and ping

    private func sendConfigure(edges: UInt32, size: Size) {
        guard !isDestroyed, !isInert else { return }
        wl_shell_surface_send_configure(resource, edges, Int32(clamping: size.width), Int32(clamping: size.height))
    }

    /// Pings the client (when its window becomes key, like weston); the pong clears it.
    @discardableResult
    func ping() -> UInt32? {
        guard !isDestroyed, !isInert else { return nil }
        let serial = compositor.display.nextSerial()
        pendingPingSerial = serial
        wl_shell_surface_send_ping(resource, serial)
        return serial
    }

    var isResponsive: Bool { pendingPingSerial == nil }

    // MARK: SurfaceRole

    func surfaceDidCommit(_ surface: Surface) {
        guard !isDestroyed, !isInert else { return }
        switch mode {
        case .none:
            return
        case .popup:
            if !isMapped, !isDismissed, popupParent != nil, surface.hasContent {
                isMapped = true
            } else if isMapped, !surface.hasContent {
                isMapped = false
                dismissPopups()
            }
        case .toplevel, .transient, .maximized, .fullscreen:
            if !isMapped, surface.hasContent {
                map()
            } else if isMapped, !surface.hasContent {
                unmap()
            } else if isMapped {
                updateFrame()
            }
        }
    }

    /// Tells the scene where the surface hangs (each time what it depends on changes): a popup
    /// on its parent's surface at the offset, a window mode on the window's frame, an unmapped
    /// surface nowhere. A parent that unmaps dismisses its popups, which re-anchors them.
    private func updateAnchor() {
        guard let surface, !surface.isDestroyed else { return }
        var anchor: SurfaceAnchor?
        if isMapped {
            if mode == .popup {
                // (Shown while the parent's surface is: the scene checks the parent's anchor.)
                if !isDismissed, let parent = popupParent, let parentSurface = parent.surface {
                    anchor = .surface(parentSurface, x: offset.x, y: offset.y)
                }
            } else if let window {
                anchor = .window(window, x: 0, y: 0)
            }
        }
        compositor.scene.setAnchor(anchor, of: surface)
    }

    // MARK: Map, unmap, frame

    /// Shown by its client: the changes have the cause `.map` (`ChangeCause`).
    private func map() {
        guard let window, !window.isClosed else { return }
        compositor.withMapCause(window, request: "wl_shell_surface map") { showMapped() }
    }

    private func showMapped() {
        guard let window, let surface, !window.isClosed else { return }
        isMapped = true
        // Levels are decided at map time, when the class (app id) is known.
        compositor.applyConfiguredLevel(to: window)
        let size = (width: Int(surface.width), height: Int(surface.height))
        switch mode {
        case .maximized, .fullscreen:
            compositor.windows.setFrame(window, frame(width: size.width, height: size.height))
            compositor.windows.show(window, makeKey: true)
        case .transient:
            var frame = window.frame
            frame.size = Size(width: size.width, height: size.height)
            compositor.windows.setFrame(window, frame)
            placeTransient(window)
            compositor.windows.show(window, makeKey: !showsWithoutKey)
            if let parentWindow = parentSurface.flatMap({ compositor.scene.window(showing: $0) }),
                parentWindow.isVisible
            {
                window.orderFront()
            }
        default:
            if wasPlaced {
                compositor.windows.setFrame(window, frame(width: size.width, height: size.height))
                compositor.windows.show(window, makeKey: true)
            } else {
                // Larger than the work area: the client is asked for the bounded size (once).
                if let bounded = compositor.placeAndShow(
                    window, width: Int32(clamping: size.width), height: Int32(clamping: size.height))
                {
                    sendConfigure(edges: 0, size: bounded)
                }
            }
        }
        wasPlaced = true
    }

    /// A transient goes to its parent surface's origin plus the offset, on the parent's screen:
    /// a position the client asks for, which the placement policy decides on.
    private func placeTransient(_ window: Window) {
        guard let parent = parentSurface, let p = parent.placement,
            let screen = compositor.scene.output(for: p.screen)?.screen
        else { return }
        if window.screen !== screen { compositor.windows.move(window, to: screen) }
        let requested = Point(x: Double(Int(p.x) + offset.x), y: Double(Int(p.y) + offset.y))
        compositor.windows.setFrame(
            window, placement.initialFrame(for: window, size: window.frame.size, requestedOrigin: requested, on: screen)
        )
    }

    private func unmap() {
        isMapped = false
        dismissPopups()
        if let window { compositor.windows.hide(window) }
    }

    /// The frame for a committed surface size in the current mode (the model's: a normal mode
    /// after maximized or fullscreen goes back to the frame from before, once).
    private func frame(width: Int, height: Int) -> Rect {
        guard let window else { return .zero }
        let frame = compositor.windows.frame(for: window, in: window.state, size: Size(width: width, height: height))
        compositor.windows.forgetRestoreFrame(window)
        return frame
    }

    private func updateFrame() {
        guard let window, let surface, !window.isClosed else { return }
        compositor.windows.setFrame(window, frame(width: Int(surface.width), height: Int(surface.height)))
    }

    // MARK: WindowContent

    /// Its window exists only in the window modes (toplevel, transient, maximized, fullscreen).
    var isToplevel: Bool { true }

    var rootSurface: Surface? {
        guard let surface, !surface.isDestroyed else { return nil }
        return surface
    }

    func forEachRootSurface(_ body: (Surface) -> Void) {
        guard let root = rootSurface else { return }
        body(root)
        forEachPopupSurface(body)
    }

    /// The shown popups' surfaces, bottom to top, nested popups after their parent.
    private func forEachPopupSurface(_ body: (Surface) -> Void) {
        for popup in popups where popup.isMapped && !popup.isDismissed {
            guard let surface = popup.rootSurface else { continue }
            body(surface)
            popup.forEachPopupSurface(body)
        }
    }

    func windowDidChangeKeyState(isKey: Bool) {
        guard isKey else { return }
        ping()
        compactTransients()
        for (transient, _) in transients {
            guard let window = transient.value?.window, window.isVisible else { continue }
            window.orderFront()
        }
    }

    /// The screen's size or usable area changed: maximized and fullscreen windows are told.
    private func screenDidChange() {
        guard isMapped, let window, let placed = compositor.windows.placedFrame(of: window) else { return }
        sendConfigure(edges: 0, size: placed.size)
    }

    func screenDidChangeUsableArea() { screenDidChange() }
    func screenDidChangeGeometry() { screenDidChange() }

    /// The surface's new buffer origin is that far from the old one's: the window moves with it.
    func rootSurfaceDidCommitOffset(dx: Int32, dy: Int32) {
        guard let window else { return }
        compositor.windows.setFrame(window, window.frame.offsetBy(dx: Int(dx), dy: Int(dy)))
    }

    // MARK: Popup grab

    var grabSurface: Surface? { surface }

    func grabDidEnd() {
        hasGrab = false
        dismiss()
    }

    /// Dismisses this popup's own popups, topmost first.
    private func dismissPopups() {
        for popup in popups.reversed() { popup.dismiss() }
    }

    /// Hides the popup (and its popups) and sends popup_done.
    func dismiss() {
        guard mode == .popup, !isDismissed else { return }
        dismissPopups()
        isDismissed = true
        if hasGrab {
            hasGrab = false
            compositor.seat.endPopupGrab(self)
        }
        if !isDestroyed, !isInert { wl_shell_surface_send_popup_done(resource) }
        if let surface, !surface.isDestroyed { compositor.scene.surfaceTreeDidChange(surface) }
    }

    // MARK: Death

    /// The wl_surface or the wl_shell_surface died: the window closes, popups go, the rest is inert.
    private func tearDown() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        dismissPopups()
        if hasGrab {
            hasGrab = false
            compositor.seat.endPopupGrab(self)
        }
        isDismissed = true
        popupParent?.popups.removeAll { $0 === self }
        popupParent = nil
        leaveTransientParent()
        isMapped = false
        if let window, !window.isClosed { compositor.windowDidClose(window) }
    }

    private func goInert() {
        tearDown()
    }

    override func resourceDidDestroy() {
        tearDown()
        surface?.clearRole(self)
    }

    // MARK: Requests

    static let implementation = makeImplementation(
        wl_shell_surface_interface(
            pong: { _, resource, serial in
                handle(resource, as: WlShellSurface.self) { shellSurface in
                    if shellSurface.pendingPingSerial == serial { shellSurface.pendingPingSerial = nil }
                }
            },
            move: { _, resource, _, serial in
                handle(resource, as: WlShellSurface.self) { shellSurface in
                    guard shellSurface.isMapped, let window = shellSurface.window, window.isVisible else { return }
                    _ = shellSurface.compositor.seat.beginInteractiveMove(
                        window, serial: serial, client: shellSurface.client)
                }
            },
            resize: { _, resource, _, serial, edges in
                handle(resource, as: WlShellSurface.self) { $0.handleResizeRequest(serial: serial, edges: edges) }
            },
            set_toplevel: { _, resource in
                handle(resource, as: WlShellSurface.self) { $0.handleSetToplevelRequest() }
            },
            set_transient: { _, resource, parent, x, y, flags in
                handle(resource, as: WlShellSurface.self) {
                    $0.handleSetTransientRequest(parent: parent, x: x, y: y, flags: flags)
                }
            },
            set_fullscreen: { _, resource, _, _, output in
                handle(resource, as: WlShellSurface.self) { $0.handleSetFullscreenRequest(output: output) }
            },
            set_popup: { _, resource, _, serial, parent, x, y, _ in
                handle(resource, as: WlShellSurface.self) {
                    $0.handleSetPopupRequest(serial: serial, parent: parent, x: x, y: y)
                }
            },
            set_maximized: { _, resource, output in
                handle(resource, as: WlShellSurface.self) { $0.handleSetMaximizedRequest(output: output) }
            },
            set_title: { _, resource, title in
                handle(resource, as: WlShellSurface.self) { shellSurface in
                    guard let title else { return }
                    shellSurface.title = String(cString: title)
                    if let window = shellSurface.window {
                        shellSurface.compositor.windows.setTitle(window, shellSurface.title)
                    }
                }
            },
            set_class: { _, resource, appClass in
                handle(resource, as: WlShellSurface.self) { shellSurface in
                    guard let appClass else { return }
                    shellSurface.appID = String(cString: appClass)
                    guard let window = shellSurface.window else { return }
                    shellSurface.compositor.setAppID(shellSurface.appID, of: window, isMapped: shellSurface.isMapped)
                }
            }))

    func handleResizeRequest(serial: UInt32, edges: UInt32) {
        guard let window, let resize = interactiveResize(edges: edges) else { return }
        _ = compositor.seat.beginInteractiveResize(window, edges: edges, serial: serial, client: client, resize: resize)
    }

    /// The seat calls back with each new size (a configure with the edges); (0, 0) ends the resize.
    func interactiveResize(edges: UInt32) -> ((_ width: Int32, _ height: Int32) -> Void)? {
        guard isMapped, mode == .toplevel || mode == .transient, let window, window.isVisible else { return nil }
        return { [weak self] width, height in
            guard let self, width > 0, height > 0 else { return }
            self.sendConfigure(edges: edges, size: Size(width: Int(width), height: Int(height)))
        }
    }
}
