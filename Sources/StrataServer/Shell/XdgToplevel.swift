import CStrataServerGlue
import CWaylandServer
import StrataModel

/// xdg_toplevel (or zxdg_toplevel_v6): a model `Window` shown by an xdg_surface. The window is made at get_toplevel
/// (hidden), shown when the surface maps, hidden when it unmaps, and closed when the toplevel,
/// its xdg_surface or its wl_surface dies.
///
/// Configure states: `activated` follows the model's key window and nothing else; `maximized`
/// and `fullscreen` follow the model window's state (`Window.isMaximized`, `isFullscreen`), which
/// the client's requests and a taskbar's change through the `WindowManager`; `resizing` follows
/// the seat's interactive resize. The sizes and frames of those states, and the frame a window
/// goes back to, are the model's (`WindowManager.configuredSize`, `frame(for:in:size:)`); this
/// object keeps only what it sent and what the client acknowledged. Entering fullscreen
/// orders the window front of its level (its level does not change). An interactive resize from
/// the top or left keeps the opposite edge still: the origin moves when the client commits the
/// new size of an acknowledged resize configure (weston's and sway's behaviour). A window that
/// maps larger than the work area is asked for the placement policy's `constrainedSize` until it
/// acknowledges a configure that asks it (docs/window-model.md, "Placement").
final class XdgToplevel: ResourceObject, MeasuredTreeNode, XdgRoleObject, WindowContent {
    /// What one xdg_toplevel.configure said.
    struct Configuration: Equatable {
        var width: Int32 = 0
        var height: Int32 = 0
        var maximized = false
        var fullscreen = false
        var resizing = false
        var activated = false
        /// The edges of the interactive resize this configure belongs to (xdg_toplevel.resize_edge
        /// bits), 0 for none: committing it keeps the opposite edges still. Not sent.
        var resizeEdges: UInt32 = 0
        /// Whether its size is the bound asked of a window that mapped larger than the work
        /// area: its ack ends the asking. Not sent.
        var bounded = false
        /// Whether the size is the one the control socket asked for (`requestedSize`): committing
        /// it ends that request. Not sent.
        var carriesRequestedSize = false

        var states: [xdg_toplevel_state] {
            var states: [xdg_toplevel_state] = []
            if maximized { states.append(XDG_TOPLEVEL_STATE_MAXIMIZED) }
            if fullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN) }
            if resizing { states.append(XDG_TOPLEVEL_STATE_RESIZING) }
            if activated { states.append(XDG_TOPLEVEL_STATE_ACTIVATED) }
            return states
        }
    }

    static let capabilities: [xdg_toplevel_wm_capabilities] = [
        XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN,
        XDG_TOPLEVEL_WM_CAPABILITIES_MINIMIZE,
    ]

    unowned let compositor: Compositor
    let flavor: XdgShellFlavor
    private(set) weak var xdgSurface: XdgSurface?
    /// The model window (nil only if the toplevel could not be made).
    private(set) var window: Window?
    /// The transient parent (xdg_toplevel.set_parent) and the toplevels that name this one.
    private(set) weak var parent: XdgToplevel?
    /// The toplevels that named this one, each with the link it was named by: an entry whose
    /// child died or named another parent since is stale, skipped, and dropped once stale
    /// entries are half the list (no search per set_parent or death).
    private var children: [(child: Weak<XdgToplevel>, link: Int)] = []
    private var staleChildren = 0
    /// Counts this toplevel's set_parent requests: which entry of its parent's list is its own.
    private var parentLink = 0
    /// The height and size of the transient tree below this toplevel (`TreeLimits`).
    var subtreeMeasure = SubtreeMeasure()
    var measuredParent: XdgToplevel? { parent.flatMap { $0.isDestroyed ? nil : $0 } }
    /// The window-model extension object of this toplevel (strata_window_v1), if the client made one.
    weak var strataWindow: StrataWindow?
    /// The toplevel's zxdg_toplevel_decoration_v1, if the client made one.
    weak var decoration: ToplevelDecoration?
    /// The toplevel's xdg_dialog_v1, if the client made one (at most one: already_used).
    weak var dialog: XdgDialog?
    /// The xdg-foreign import whose set_parent_of gave this toplevel its current parent (nil
    /// when xdg_toplevel.set_parent did, or no parent): that import's end ends the relation.
    private(set) weak var foreignImport: XdgImported?
    /// This toplevel's live exports (zxdg_exported_v1/v2), told when it goes.
    var exports: [ObjectIdentifier: Weak<XdgExported>] = [:]

    // Requested state beside the model window's: what the next configure says.
    private var resizeSize: Size?
    /// The size a window that mapped larger than the work area is asked for (the placement
    /// policy's `constrainedSize`): every configure carries it until the client acknowledges
    /// one; a client that insists on its size keeps it.
    private var boundedSize: Size?
    private var isResizing = false
    /// The edges of the interactive resize under way (0: none); its configures carry them.
    private var resizeEdges: UInt32 = 0
    /// The size the control socket asked for (`handleSizeRequest`), sent until the client
    /// commits a configure that carried it.
    private var requestedSize: Size?
    private var unacked: [(serial: UInt32, configuration: Configuration)] = []
    private var acked: Configuration?
    /// The configuration of the last acknowledged configure, made current by a commit.
    private(set) var current = Configuration()
    private var sentCapabilities = false
    private var sentBounds: Size?

    private var pendingMinSize: Size?
    private var pendingMaxSize: Size?
    private(set) var minSize = Size.zero
    private(set) var maxSize = Size.zero

    init?(xdgSurface: XdgSurface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = xdgSurface.compositor
        self.flavor = xdgSurface.flavor
        self.xdgSurface = xdgSurface
        super.init(
            client: client, interface: flavor.toplevelInterface, version: version, id: id,
            implementation: Self.implementation)
        let window = compositor.windows.createWindow(appID: "", title: "", pid: clientPid)
        window.content = self
        self.window = window
        // The capabilities go at once (as mutter sends them), so a client knows them before its
        // initial commit; after an unmap, again before the next initial configure.
        sendCapabilitiesOnce()
    }

    private func sendCapabilitiesOnce() {
        guard flavor == .stable, version >= 5, !sentCapabilities else { return }
        sentCapabilities = true
        Self.withArray(Self.capabilities.map(\.rawValue)) { xdg_toplevel_send_wm_capabilities(resource, $0) }
    }

    /// A toplevel for an xdg_surface whose wl_surface is gone: no window, requests do nothing.
    init?(inertWith compositor: Compositor, flavor: XdgShellFlavor, client: OpaquePointer, version: UInt32, id: UInt32)
    {
        self.compositor = compositor
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.toplevelInterface, version: version, id: id,
            implementation: Self.implementation)
    }

    private var isMapped: Bool { xdgSurface?.isMapped ?? false }

    var hasContentToShow: Bool { isMapped && window?.isClosed == false }
    var isToplevel: Bool { true }
    private var isMaximized: Bool { window?.isMaximized ?? false }
    private var isFullscreen: Bool { window?.isFullscreen ?? false }

    private var screen: Screen? { window?.screen ?? compositor.windows.mainScreen }

    /// Where windows go (`WindowPlacementPolicy`): the work area, for configure_bounds.
    private var placement: any WindowPlacementPolicy { compositor.windows.placement }

    // MARK: Configure

    private func makeConfiguration() -> Configuration {
        var c = Configuration(
            maximized: isMaximized, fullscreen: isFullscreen, resizing: isResizing,
            activated: window?.isKeyWindow ?? false, resizeEdges: resizeEdges)
        var size = Size.zero
        let placed = window.flatMap { compositor.windows.placedFrame(of: $0) }
        if let placed {
            size = placed.size
        } else if let resizeSize {
            size = resizeSize
        } else if let requestedSize {
            size = requestedSize
            c.carriesRequestedSize = true
        } else if let boundedSize {
            size = boundedSize
            c.bounded = true
        } else if let window, let restored = compositor.windows.configuredSize(of: window) {
            size = restored
        }
        // Otherwise 0×0: a floating window's size is the client's (weston's behaviour); a
        // configure that only changes `activated` does not echo the size back.
        if !isFullscreen, !size.isEmpty {
            if minSize.width > 0 { size.width = max(size.width, minSize.width) }
            if minSize.height > 0 { size.height = max(size.height, minSize.height) }
            if maxSize.width > 0 { size.width = min(size.width, maxSize.width) }
            if maxSize.height > 0 { size.height = min(size.height, maxSize.height) }
        }
        c.width = Int32(clamping: size.width)
        c.height = Int32(clamping: size.height)
        return c
    }

    /// Sends a configure sequence with the current requested state, once the initial one went out.
    func sendConfigure() {
        guard let xdgSurface, !isDestroyed, !xdgSurface.isDestroyed, !xdgSurface.isInert,
            xdgSurface.isInitialConfigureSent
        else { return }
        sendConfigureSequence()
    }

    func sendInitialConfigure() {
        sendConfigureSequence()
    }

    private func sendConfigureSequence() {
        guard let xdgSurface, !isDestroyed else { return }
        sendCapabilitiesOnce()
        if flavor == .stable, version >= 4, let screen {
            let bounds = placement.workArea(of: screen).size
            if bounds != sentBounds {
                sentBounds = bounds
                xdg_toplevel_send_configure_bounds(
                    resource, Int32(clamping: bounds.width), Int32(clamping: bounds.height))
            }
        }
        let configuration = makeConfiguration()
        Self.withArray(configuration.states.map(\.rawValue)) {
            switch flavor {
            case .stable: xdg_toplevel_send_configure(resource, configuration.width, configuration.height, $0)
            case .v6: zxdg_toplevel_v6_send_configure(resource, configuration.width, configuration.height, $0)
            }
        }
        decoration?.sendConfigureIfNeeded()
        guard let serial = xdgSurface.sendConfigure() else { return }
        unacked.append((serial, configuration))
        if unacked.count > 256 { unacked.removeFirst(unacked.count - 256) }
    }

    /// Calls `body` with a wl_array of 32-bit values.
    private static func withArray(_ values: [UInt32], _ body: (UnsafeMutablePointer<wl_array>) -> Void) {
        var array = wl_array()
        wl_array_init(&array)
        defer { wl_array_release(&array) }
        for value in values {
            guard let slot = wl_array_add(&array, MemoryLayout<UInt32>.size) else { return }
            slot.storeBytes(of: value, as: UInt32.self)
        }
        body(&array)
    }

    func didAckConfigure(_ serial: UInt32) {
        guard let index = unacked.firstIndex(where: { $0.serial == serial }) else { return }
        acked = unacked[index].configuration
        if unacked[index].configuration.bounded { boundedSize = nil }
        unacked.removeFirst(index + 1)
    }

    // MARK: Commit, map, unmap

    func roleWillCommit() throws(ProtocolError) {
        let minimum = pendingMinSize ?? minSize, maximum = pendingMaxSize ?? maxSize
        if (maximum.width > 0 && minimum.width > maximum.width)
            || (maximum.height > 0 && minimum.height > maximum.height)
        {
            throw toplevelError(
                XDG_TOPLEVEL_ERROR_INVALID_SIZE,
                "the minimum size \(minimum) is larger than the maximum size \(maximum)")
        }
    }

    func didCommit() {
        if let pendingMinSize { minSize = pendingMinSize }
        if let pendingMaxSize { maxSize = pendingMaxSize }
        pendingMinSize = nil
        pendingMaxSize = nil
        let wasFullscreen = current.fullscreen
        let applied = acked
        if let acked {
            current = acked
            self.acked = nil
            if acked.carriesRequestedSize { requestedSize = nil }
        }
        // Not on the commit that unmaps: a content-less surface's geometry would move the frame
        // the remap keeps.
        guard isMapped, xdgSurface?.surface?.hasContent == true else { return }
        updateFrame(anchoring: applied?.resizeEdges ?? 0)
        // Entering fullscreen orders the window front of its level.
        if current.fullscreen, !wasFullscreen, let window, window.isVisible { window.orderFront() }
    }

    /// Whether the window was mapped before (a remap keeps its place).
    private var wasPlaced = false
    /// The geometry origin the frame was last placed for (surface-local).
    private var placedGeometryOrigin: (x: Int, y: Int)?

    /// Shown by its client: the changes have the cause `.map` (`ChangeCause`).
    func didMap() {
        guard let window, !window.isClosed else { return }
        compositor.withMapCause(window, request: "xdg_toplevel map") { showMapped() }
    }

    private func showMapped() {
        guard let window, let xdgSurface, !window.isClosed else { return }
        // Levels are decided at map time, when the app id is known: the user's rule for the app
        // id, then the client's strata_window_v1 request (which may also ask not to become key).
        compositor.applyConfiguredLevel(to: window)
        let makeKey = strataWindow?.windowWillMap() ?? true
        let geometry = xdgSurface.geometry
        var bounded: Size?
        if current.maximized || current.fullscreen {
            compositor.windows.setFrame(window, frame(for: geometry.size))
            compositor.windows.show(window, makeKey: makeKey)
        } else if wasPlaced {
            // Shown again after an unmap: where it was, like a UIWindow that stops being hidden.
            var frame = window.frame
            frame.size = geometry.size
            compositor.windows.setFrame(window, frame)
            compositor.windows.show(window, makeKey: makeKey)
        } else {
            bounded = compositor.placeAndShow(
                window, width: Int32(clamping: geometry.width), height: Int32(clamping: geometry.height),
                makeKey: makeKey)
        }
        wasPlaced = true
        placedGeometryOrigin = (geometry.x, geometry.y)
        if let parent, let parentWindow = parent.window, parentWindow.isVisible {
            window.orderFront()
        }
        // Larger than the work area: the client is asked for the policy's bounded size (its
        // minimum size wins; then nothing is asked).
        if let bounded, !isMaximized, !isFullscreen {
            boundedSize = bounded
            let asked = makeConfiguration()
            if Size(width: Int(asked.width), height: Int(asked.height)) != geometry.size {
                sendConfigure()
            } else {
                boundedSize = nil
            }
        }
    }

    func didUnmap() {
        // The toplevel returns to its state right after get_toplevel (title and app id are kept).
        if let window { compositor.windows.resetState(window) }
        resizeSize = nil
        boundedSize = nil
        requestedSize = nil
        isResizing = false
        resizeEdges = 0
        unacked.removeAll()
        acked = nil
        current = Configuration()
        sentCapabilities = false
        sentBounds = nil
        if let window {
            compositor.withClientCause(window, request: "xdg_toplevel unmap") { compositor.windows.hide(window) }
        }
    }

    /// The state the client last drew (the acknowledged configure's), which lags the model's.
    private var committedState: WindowState {
        current.fullscreen ? .fullscreen : current.maximized ? .maximized : .normal
    }

    /// The window frame for a committed geometry size in the committed state.
    private func frame(for size: Size) -> Rect {
        guard let window else { return .zero }
        return compositor.windows.frame(for: window, in: committedState, size: size)
    }

    /// Follows the committed geometry and state with the window's frame. `anchoring` holds the
    /// resize edges of the configure this commit acknowledged: from the left (top) edge, the
    /// right (bottom) edge stays where it was.
    private func updateFrame(anchoring edges: UInt32 = 0) {
        guard let window, let xdgSurface, !window.isClosed else { return }
        let geometry = xdgSurface.geometry
        var rect = frame(for: geometry.size)
        let normal = committedState == .normal && window.restoreFrame == nil
        if normal, edges & (Self.leftEdge | Self.topEdge) != 0 {
            let old = window.frame
            if edges & Self.leftEdge != 0 { rect.x = old.maxX - geometry.width }
            if edges & Self.topEdge != 0 { rect.y = old.maxY - geometry.height }
        } else if normal, let last = placedGeometryOrigin {
            // A new geometry origin (subsurfaces grew the implicit geometry to the left or top,
            // or the client moved its window geometry) leaves the surface where it is on screen:
            // the frame moves with the geometry, as weston keeps a view's position.
            rect.x += geometry.x - last.x
            rect.y += geometry.y - last.y
        }
        placedGeometryOrigin = (geometry.x, geometry.y)
        if committedState == .normal { compositor.windows.forgetRestoreFrame(window) }
        compositor.windows.setFrame(window, rect)
    }

    /// The surface hangs on the window's frame, less the window geometry's origin.
    var anchor: SurfaceAnchor? {
        guard let window, let xdgSurface else { return nil }
        return .window(window, x: -xdgSurface.geometry.x, y: -xdgSurface.geometry.y)
    }

    // MARK: WindowContent

    var rootSurface: Surface? {
        guard let xdgSurface, !xdgSurface.isDestroyed, let surface = xdgSurface.surface, !surface.isDestroyed else {
            return nil
        }
        return surface
    }

    func forEachRootSurface(_ body: (Surface) -> Void) {
        guard let root = rootSurface else { return }
        body(root)
        xdgSurface?.forEachPopupSurface(body)
    }

    func windowDidChangeKeyState(isKey: Bool) {
        sendConfigure()
        if isKey { orderChildrenFront() }
    }

    /// The usable area of the window's screen changed (a panel's exclusive zone): a maximized
    /// window is configured to the new area.
    func screenDidChangeUsableArea() {
        guard isMaximized, !isFullscreen else { return }
        sendConfigure()
    }

    /// The screen's mode, transform or scale changed: maximized and fullscreen windows are
    /// configured for its new size.
    func screenDidChangeGeometry() {
        guard isMaximized || isFullscreen else { return }
        sendConfigure()
    }

    /// The window moved: its reactive popups are placed again.
    func windowDidChangePlacement() {
        xdgSurface?.parentDidMove()
    }

    /// The surface's new buffer origin is that far from the old one's: the window moves with it.
    func rootSurfaceDidCommitOffset(dx: Int32, dy: Int32) {
        guard let window else { return }
        compositor.windows.setFrame(window, window.frame.offsetBy(dx: Int(dx), dy: Int(dy)))
    }

    func closeRequest() {
        guard !isDestroyed else { return }
        switch flavor {
        case .stable: xdg_toplevel_send_close(resource)
        case .v6: zxdg_toplevel_v6_send_close(resource)
        }
    }

    /// Keeps visible transient children above this window (a dialog above its parent).
    private func orderChildrenFront() {
        // Recursion as deep as the transient tree: at most `TreeLimits.maxTransientDepth`.
        compactChildren()
        for (child, _) in children {
            guard let toplevel = child.value, let window = toplevel.window, window.isVisible else { continue }
            window.orderFront()
            toplevel.orderChildrenFront()
        }
    }

    // MARK: Death

    /// Closes the model window for good.
    private func closeWindow() {
        guard let window, !window.isClosed else { return }
        compositor.windowDidClose(window)
    }

    func xdgSurfaceDidGoAway() {
        closeWindow()
    }

    override func resourceDidDestroy() {
        xdgSurface?.dismissPopups()
        closeWindow()
        xdgSurface?.roleObjectDidDestroy(self)
        leaveParent()
        let gone = exports.values.compactMap(\.value)
        exports.removeAll()
        for exported in gone { exported.toplevelDidGoAway() }
    }

    private func isLiveChild(_ entry: (child: Weak<XdgToplevel>, link: Int)) -> Bool {
        guard let child = entry.child.value, !child.isDestroyed else { return false }
        return child.parent === self && child.parentLink == entry.link
    }

    private func compactChildren() {
        children.removeAll { !isLiveChild($0) }
        staleChildren = 0
    }

    /// Leaves the transient parent: its measure forgets this tree, its entry turns stale.
    private func leaveParent() {
        guard let parent else { return }
        if !parent.isDestroyed { parent.childSubtree(self, joins: false) }
        self.parent = nil
        parent.staleChildren += 1
        if parent.staleChildren * 2 > parent.children.count { parent.compactChildren() }
    }

    // MARK: Requests

    /// An xdg_toplevel error; zxdg_toplevel_v6 names none, so a v6 client gets
    /// zxdg_shell_v6.invalid_surface_state for the same violation.
    private func toplevelError(_ code: xdg_toplevel_error, _ message: String) -> ProtocolError {
        if flavor == .v6, let xdgSurface { return xdgSurface.invalidSurfaceState(message) }
        return ProtocolError(on: isDestroyed ? nil : resource, code: code.rawValue, message)
    }

    static let implementation = makeImplementation(
        xdg_toplevel_interface(
            destroy: { _, resource in
                handle(resource, as: XdgToplevel.self) { toplevel throws(ProtocolError) in
                    if let decoration = toplevel.decoration, !decoration.isDestroyed {
                        throw ProtocolError(
                            on: decoration.resource, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue,
                            "the xdg_toplevel was destroyed before its decoration object")
                    }
                    toplevel.destroyResource()
                }
            },
            set_parent: { _, resource, parent in
                handle(resource, as: XdgToplevel.self) { try $0.handleSetParentRequest(parent) }
            },
            set_title: { _, resource, title in
                handle(resource, as: XdgToplevel.self) { toplevel in
                    guard let title, let window = toplevel.window else { return }
                    toplevel.compositor.windows.setTitle(window, String(cString: title))
                }
            },
            set_app_id: { _, resource, appID in
                handle(resource, as: XdgToplevel.self) { toplevel in
                    guard let appID, let window = toplevel.window else { return }
                    toplevel.compositor.setAppID(String(cString: appID), of: window, isMapped: toplevel.isMapped)
                }
            },
            show_window_menu: { _, _, _, _, _, _ in
                // No window menu (not advertised in wm_capabilities).
            },
            move: { _, resource, _, serial in
                handle(resource, as: XdgToplevel.self) { toplevel in
                    guard toplevel.isMapped, let window = toplevel.window, window.isVisible else { return }
                    _ = toplevel.compositor.seat.beginInteractiveMove(window, serial: serial, client: toplevel.client)
                }
            },
            resize: { _, resource, _, serial, edges in
                handle(resource, as: XdgToplevel.self) { try $0.handleResizeRequest(serial: serial, edges: edges) }
            },
            set_max_size: { _, resource, width, height in
                handle(resource, as: XdgToplevel.self) { toplevel throws(ProtocolError) in
                    guard width >= 0, height >= 0 else {
                        throw toplevel.toplevelError(
                            XDG_TOPLEVEL_ERROR_INVALID_SIZE, "set_max_size \(width)x\(height): negative size")
                    }
                    toplevel.pendingMaxSize = Size(width: Int(width), height: Int(height))
                }
            },
            set_min_size: { _, resource, width, height in
                handle(resource, as: XdgToplevel.self) { toplevel throws(ProtocolError) in
                    guard width >= 0, height >= 0 else {
                        throw toplevel.toplevelError(
                            XDG_TOPLEVEL_ERROR_INVALID_SIZE, "set_min_size \(width)x\(height): negative size")
                    }
                    toplevel.pendingMinSize = Size(width: Int(width), height: Int(height))
                }
            },
            set_maximized: { _, resource in
                handle(resource, as: XdgToplevel.self) { $0.handleMaximizeRequest(true) }
            },
            unset_maximized: { _, resource in
                handle(resource, as: XdgToplevel.self) { $0.handleMaximizeRequest(false) }
            },
            set_fullscreen: { _, resource, output in
                handle(resource, as: XdgToplevel.self) { toplevel in
                    let screen = output.flatMap { ResourceObject.from($0, as: OutputBinding.self) }?.output?.screen
                    toplevel.handleFullscreenRequest(true, on: screen)
                }
            },
            unset_fullscreen: { _, resource in
                handle(resource, as: XdgToplevel.self) { $0.handleFullscreenRequest(false, on: nil) }
            },
            set_minimized: { _, resource in
                handle(resource, as: XdgToplevel.self) { toplevel in
                    guard toplevel.isMapped, let window = toplevel.window else { return }
                    toplevel.compositor.withClientCause(window, request: "xdg_toplevel.set_minimized") {
                        toplevel.compositor.windows.minimize(window)
                    }
                }
            }))

    func handleSetParentRequest(_ parentResource: OpaquePointer?) throws(ProtocolError) {
        let newParent = parentResource.flatMap { ResourceObject.from($0, as: XdgToplevel.self) }
        try adoptParent(newParent)
        foreignImport = nil
    }

    /// xdg-foreign's set_parent_of: `newParent` (another client's toplevel, or nil) becomes this
    /// toplevel's parent as by set_parent, remembered as `imported`'s. A parent that would make a
    /// cycle or a chain deeper than `TreeLimits.maxTransientDepth` is refused without an error
    /// (the client cannot see the other client's tree): false, nothing changes.
    func adoptForeignParent(_ newParent: XdgToplevel?, by imported: XdgImported?) -> Bool {
        guard !isDestroyed, window != nil else { return false }
        do {
            try adoptParent(newParent)
        } catch {
            return false
        }
        foreignImport = newParent == nil ? nil : imported
        return true
    }

    /// The import that set this toplevel's parent ended (destroyed, or its export went): the
    /// relation ends, as set_parent(null).
    func foreignImportDidEnd(_ imported: XdgImported) {
        guard foreignImport === imported, !isDestroyed else { return }
        _ = adoptForeignParent(nil, by: nil)
    }

    /// Makes `newParent` the transient parent (nil: none) in the wire's tree and the model.
    private func adoptParent(_ newParent: XdgToplevel?) throws(ProtocolError) {
        // No cycles, and a chain at most `maxTransientDepth` long with this toplevel's own
        // transient tree below it. The walk up is bounded by that limit.
        var levels = 0
        var ancestor = newParent
        while let a = ancestor {
            if a === self {
                throw toplevelError(
                    XDG_TOPLEVEL_ERROR_INVALID_PARENT, "set_parent would make the toplevel its own ancestor")
            }
            levels += 1
            ancestor = a.measuredParent
        }
        guard levels + subtreeMeasure.height <= TreeLimits.maxTransientDepth else {
            throw toplevelError(
                XDG_TOPLEVEL_ERROR_INVALID_PARENT,
                "set_parent would make a chain of \(levels + subtreeMeasure.height) parents (at most \(TreeLimits.maxTransientDepth))"
            )
        }
        leaveParent()
        if let window { compositor.windows.setParent(window, newParent?.window) }
        guard let newParent else { return }
        parent = newParent
        parentLink += 1
        newParent.children.append((Weak(self), parentLink))
        newParent.childSubtree(self, joins: true)
        if let window, window.isVisible, let parentWindow = newParent.window, parentWindow.isVisible {
            window.orderFront()
        }
    }

    func handleResizeRequest(serial: UInt32, edges: UInt32) throws(ProtocolError) {
        let valid: Set<UInt32> = [0, 1, 2, 4, 5, 6, 8, 9, 10]
        guard valid.contains(edges) else {
            throw toplevelError(
                XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE, "resize edge \(edges) is not an xdg_toplevel.resize_edge")
        }
        guard let window, let resize = interactiveResize(edges: edges) else { return }
        _ = compositor.seat.beginInteractiveResize(window, edges: edges, serial: serial, client: client, resize: resize)
    }

    /// The seat calls back with each new geometry size; (0, 0) ends the resize. Every configure
    /// of the resize, the last one included, carries its edges.
    func interactiveResize(edges: UInt32) -> ((_ width: Int32, _ height: Int32) -> Void)? {
        guard isMapped, let window, window.isVisible, !isMaximized, !isFullscreen else { return nil }
        return { [weak self] width, height in
            guard let self, !self.isDestroyed else { return }
            let ended = width <= 0 || height <= 0
            if ended {
                guard self.isResizing else { return }
                self.isResizing = false
            } else {
                self.isResizing = true
                self.resizeSize = Size(width: Int(width), height: Int(height))
            }
            // The last configure (not resizing) still asks for the last size and carries the
            // edges: the client may commit that size only in answer to it.
            self.resizeEdges = edges
            self.sendConfigure()
            if ended {
                self.resizeEdges = 0
                self.resizeSize = nil
            }
        }
    }

    static let topEdge = XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue
    static let leftEdge = XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue

    /// xdg_toplevel.set_maximized / unset_maximized, and a taskbar's requests.
    func handleMaximizeRequest(_ maximized: Bool) {
        if let window { compositor.windows.setMaximized(window, maximized) }
        if maximized { requestedSize = nil }
        // The spec asks for a configure even when nothing changed.
        sendConfigure()
    }

    /// xdg_toplevel.set_fullscreen / unset_fullscreen, and a taskbar's requests: `target` is the
    /// screen asked for (nil: the window's own).
    func handleFullscreenRequest(_ fullscreen: Bool, on target: Screen?) {
        if let window { compositor.windows.setFullscreen(window, fullscreen, on: target) }
        if fullscreen { requestedSize = nil }
        sendConfigure()
    }

    /// The control socket asks for a size: out of maximized and fullscreen (back to the frame
    /// before, at the new size), a configure with `size` within the client's minimum and maximum
    /// size. Before the first configure, that one carries it.
    func handleSizeRequest(_ size: Size) -> Size? {
        guard let window, !window.isClosed, !isDestroyed else { return nil }
        compositor.windows.setFullscreen(window, false)
        compositor.windows.setMaximized(window, false)
        requestedSize = size
        let asked = makeConfiguration()
        sendConfigure()
        return Size(width: Int(asked.width), height: Int(asked.height))
    }
}
