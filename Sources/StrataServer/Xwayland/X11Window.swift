import StrataModel

/// An X toplevel managed by the XWM, shown as a model `Window` (kind `x11`): the window content
/// whose root surface is the wl_surface Xwayland made for it (associated by the `WL_SURFACE_ID`
/// client message). It is shown while the X window is mapped and its surface has a buffer;
/// override-redirect windows (menus, tooltips) sit at their X position at the popup level and
/// never become key. Frames the model decides are sent back to X (`XWM.configure`).
final class X11Window: WindowContent, SurfaceRole {
    let id: UInt32
    unowned let wm: XWM
    let isOverrideRedirect: Bool
    /// The X geometry (root coordinates), as last configured or requested.
    var x: Int32, y: Int32, width: Int32, height: Int32
    /// The model window (made when the window maps; nil after it closed).
    private(set) var window: Window?
    private(set) weak var surface: Surface?
    /// The WL_SURFACE_ID not yet found among Xwayland's surfaces.
    var pendingSurfaceID: UInt32?
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
    var transientFor: UInt32 = 0
    var type: X11WindowType = .normal
    /// `_NET_WM_STATE_ABOVE` at map time: a normal window goes to `X11WindowType.aboveLevel`.
    var isAbove = false
    var supportsDelete = false
    var supportsTakeFocus = false
    /// The ICCCM input hint (WM_HINTS): whether the WM should give it the input focus.
    var acceptsInput = true

    var roleName: String { "xwayland_surface" }
    var kind: String { "x11" }
    /// Listed by `ext_foreign_toplevel_list_v1` unless override-redirect (menus, tooltips).
    var isToplevel: Bool { !isOverrideRedirect }

    init(id: UInt32, wm: XWM, overrideRedirect: Bool, x: Int32, y: Int32, width: Int32, height: Int32) {
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
            let made = compositor.windows.createWindow(appID: appID, title: title, pid: pid, level: level,
                                                       canBecomeKey: effective.canBecomeKey)
            made.content = self
            window = made
            wasShown = false
            isShowing = false
        }
        update()
    }

    func didUnmap() {
        isMapped = false
        update()
    }

    /// Associates the wl_surface (from WL_SURFACE_ID); false while Xwayland has not made it yet.
    func associate(surface candidate: Surface) -> Bool {
        guard surface == nil, candidate.setRole(self) else { return false }
        surface = candidate
        pendingSurfaceID = nil
        surfaceDestroyed = candidate.didDestroy.observe { [weak self] _ in
            self?.surface = nil
            self?.update()
        }
        update()
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
                if window.isVisible { compositor.windows.hide(window) }
            }
            return
        }
        let size = Size(width: Int(surface.width), height: Int(surface.height))
        // Shown when it becomes showable (mapped with a buffer), not at every commit: a window
        // the model hid (a taskbar) stays hidden while the client draws.
        if !isShowing {
            isShowing = true
            if wasShown {
                compositor.windows.show(window, makeKey: !isOverrideRedirect && type.canBecomeKey)
            } else {
                wasShown = true
                showFirstTime(window, size: size)
            }
        }
        if window.frame.size != size {
            var frame = window.frame
            frame.size = size
            compositor.setFrame(window, frame)
        }
    }

    /// The first show: the level rule for its class, then an override-redirect window at its X
    /// position (never key), any other where the placement policy puts it (the position the
    /// client asked for, other than the origin, as the requested origin), told to X.
    private func showFirstTime(_ window: Window, size: Size) {
        compositor.applyConfiguredLevel(to: window)
        if isOverrideRedirect {
            compositor.setFrame(window, Rect(x: Int(x), y: Int(y), width: size.width, height: size.height))
            compositor.windows.show(window, makeKey: false)
            return
        }
        if let screen = window.screen ?? compositor.windows.mainScreen {
            let requested: Point? = (x != 0 || y != 0) ? Point(x: Double(x), y: Double(y)) : nil
            compositor.setFrame(window, compositor.windows.placement.initialFrame(
                for: window, size: size, requestedOrigin: requested, on: screen))
        }
        compositor.windows.show(window, makeKey: type.canBecomeKey && acceptsInput || supportsTakeFocus)
        if transientFor != 0, transientFor != id, let parent = wm.window(transientFor)?.window, parent.isVisible {
            window.orderFront()
        }
        wm.configure(self, to: window.frame)
    }

    /// An override-redirect window moved or resized itself in X.
    func didConfigure(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        guard isOverrideRedirect, let window, window.isVisible else { return }
        compositor.setFrame(window, Rect(x: Int(x), y: Int(y), width: window.frame.width, height: window.frame.height))
    }

    func propertiesDidChange() {
        guard let window, !window.isClosed else { return }
        if window.title != title { compositor.setTitle(title, of: window) }
        if window.appID != appID { compositor.setAppID(appID, of: window, isMapped: wasShown) }
        if window.pid != pid { window.pid = pid }
    }

    /// The X window was destroyed: the model window closes.
    func didDestroy() {
        isMapped = false
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        if let surface, !surface.isDestroyed {
            compositor.scene.setAnchor(nil, of: surface)
            surface.clearRole(self)
        }
        surface = nil
        if let window, !window.isClosed { compositor.windowDidClose(window) }
        window = nil
    }

    // MARK: WindowContent

    var rootSurface: Surface? {
        guard let surface, !surface.isDestroyed else { return nil }
        return surface
    }

    var hasContentToShow: Bool { isMapped && rootSurface?.hasContent == true }

    func windowDidChangeKeyState(isKey: Bool) {
        wm.windowDidChangeKeyState(self, isKey: isKey)
    }

    func closeRequest() {
        wm.close(self)
    }
}
