import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_layer_surface_v1: the role of a wl_surface shown as a desktop layer. Its model `Window`
/// is made at get_layer_surface (hidden, at the layer's level, on the chosen screen), shown when
/// the surface maps, hidden when it unmaps, closed when the layer surface or its wl_surface dies.
/// The shell arranges it (`LayerShell.arrange(screen:)`); the frame is that box, in the screen's
/// coordinates.
///
/// Keyboard interactivity goes through the key window policy: `none` → `canBecomeKey == false`;
/// `exclusive` → may be key, and on the top or overlay layer it takes key when it maps (or when the
/// interactivity changes to it) and holds it (`WindowManager.setHoldsKey`); `on_demand` →
/// may be key, and becomes key as the policy says (a click under `uikit`).
final class LayerSurface: ResourceObject, SurfaceRole, WindowContent, PopupParent {
    static let roleName = "zwlr_layer_surface_v1"
    var roleName: String { Self.roleName }

    private unowned let shell: LayerShell
    private var compositor: Compositor { shell.compositor }
    private(set) weak var surface: Surface?
    private(set) var window: Window?
    let namespace: String
    /// The screen chosen at creation; nil once it is gone (the surface was closed).
    private(set) var screenID: ScreenID?
    var pending: LayerSurfaceState
    private(set) var current: LayerSurfaceState
    /// Popups made with a null parent and given to this surface by get_popup, bottom to top.
    var popups: [XdgPopup] = []

    private var unackedSerials: [(serial: UInt32, width: Int, height: Int)] = []
    private var sentSize: (width: Int, height: Int)?
    private(set) var isInitialCommitDone = false
    private(set) var isConfigured = false
    private(set) var isMapped = false
    private(set) var isClosed = false
    /// The box the shell placed the surface in (screen coordinates).
    private(set) var box = Rect.zero
    private var surfaceDestroyed: Signal<Surface>.Token?

    init?(
        shell: LayerShell, surface: Surface, screen: Screen?, layer: UInt32, namespace: String,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.shell = shell
        self.surface = surface
        self.namespace = namespace
        self.screenID = screen?.id
        pending = LayerSurfaceState(layer: layer)
        current = pending
        super.init(
            client: client, interface: strata_zwlr_layer_surface_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
        _ = surface.setRole(self)
        let window = shell.compositor.windows.createWindow(
            appID: "", title: namespace, pid: clientPid, level: LayerShell.level(ofLayer: layer), canBecomeKey: false,
            screen: screen)
        window.content = self
        self.window = window
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.tearDown() }
        // The surface is the window: shown where and while the window is (the window is hidden
        // until the surface maps, and again when it unmaps or closes).
        shell.compositor.scene.setAnchor(.window(window, x: 0, y: 0), of: surface)
    }

    /// Whether the shell places this surface (after its initial commit, until it is closed).
    var isArranged: Bool { isInitialCommitDone && !isClosed && !isDestroyed }

    var geometry: Rect {
        guard let surface else { return .zero }
        return Rect(x: 0, y: 0, width: Int(surface.width), height: Int(surface.height))
    }

    private func error(_ code: zwlr_layer_surface_v1_error, _ message: String) -> ProtocolError {
        ProtocolError(on: isDestroyed ? nil : resource, code: code.rawValue, message)
    }

    // MARK: Arrangement

    /// The shell placed the surface in `box`: a configure when its size changed (or the first),
    /// and the window's frame when it is shown.
    func arranged(_ box: Rect) {
        self.box = box
        if sentSize.map({ $0 != (box.width, box.height) }) ?? true {
            sendConfigure(width: box.width, height: box.height)
        }
        if isMapped { updateFrame() }
    }

    private func updateFrame() {
        guard let window, let surface, !window.isClosed else { return }
        compositor.windows.setFrame(
            window, Rect(x: box.x, y: box.y, width: Int(surface.width), height: Int(surface.height)))
    }

    private func sendConfigure(width: Int, height: Int) {
        guard !isDestroyed, !isClosed else { return }
        let serial = compositor.display.nextSerial()
        sentSize = (width, height)
        unackedSerials.append((serial, width, height))
        if unackedSerials.count > 64 { unackedSerials.removeFirst(unackedSerials.count - 64) }
        zwlr_layer_surface_v1_send_configure(
            resource, serial, UInt32(clamping: max(0, width)), UInt32(clamping: max(0, height)))
    }

    private func rearrange() {
        if let screenID { shell.arrange(screen: screenID) }
    }

    // MARK: SurfaceRole

    func surfaceWillCommit(_ surface: Surface) throws(ProtocolError) {
        guard !isDestroyed, !isClosed else { return }
        if let message = pending.sizeError { throw error(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE, message) }
        if !isConfigured, compositor.xdgHandshake == .strict, surface.pending.bufferChanged,
            surface.pending.buffer.resource != nil
        {
            throw error(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
                "buffer committed before the first configure was acknowledged")
        }
    }

    func surfaceDidCommit(_ surface: Surface) {
        guard !isDestroyed, !isClosed, let window else { return }
        let old = current
        current = pending
        if old.layer != current.layer { compositor.windows.setLevel(window, LayerShell.level(ofLayer: current.layer)) }
        if old.keyboardInteractivity != current.keyboardInteractivity || !isInitialCommitDone {
            compositor.windows.setCanBecomeKey(
                window, current.keyboardInteractivity != ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
        }
        // `exclusive` on the top or overlay layer holds key: a shown surface takes it now (also
        // when the interactivity or layer just changed), and no other window takes it away.
        compositor.windows.setHoldsKey(window, wantsKeyOnMap)
        let lenient = compositor.xdgHandshake == .lenient
        if !isInitialCommitDone {
            isInitialCommitDone = true
            rearrange()
            // A lenient handshake maps a first commit that carries a buffer (after the configure).
            guard lenient, surface.hasContent else { return }
        }
        if !isMapped {
            guard isConfigured || lenient, surface.hasContent else {
                // Configured but not mapped yet: a new size, anchor, margin or zone is answered
                // with a configure for the new box (arranged() sends one when the size changed).
                if old != current { rearrange() }
                return
            }
            isMapped = true
            rearrange()
            updateFrame()
            compositor.withMapCause(window, request: "zwlr_layer_surface_v1 map") {
                compositor.windows.show(window, makeKey: wantsKeyOnMap)
            }
        } else if !surface.hasContent {
            unmap()
        } else {
            if old != current { rearrange() }
            updateFrame()
        }
    }

    /// `exclusive` on the top or overlay layer takes key when it maps and holds it while shown.
    private var wantsKeyOnMap: Bool {
        current.keyboardInteractivity == ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue
            && current.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue
    }

    /// Back to the state right after get_layer_surface: the next commit starts the handshake again.
    private func unmap() {
        isMapped = false
        isInitialCommitDone = false
        isConfigured = false
        sentSize = nil
        unackedSerials.removeAll()
        dismissPopups()
        if let window { compositor.windows.hide(window) }
        rearrange()
    }

    // MARK: WindowContent

    var rootSurface: Surface? {
        guard let surface, !surface.isDestroyed else { return nil }
        return surface
    }

    func forEachRootSurface(_ body: (Surface) -> Void) {
        guard let root = rootSurface else { return }
        body(root)
        for popup in popups { popup.forEachShownSurface(body) }
    }

    func closeRequest() {
        close()
    }

    // MARK: Popups

    func dismissPopups() {
        for popup in popups.reversed() { popup.dismiss() }
    }

    // MARK: Closing and death

    /// The compositor is done with the surface (its screen went, or it was asked to close):
    /// `closed`, then it stays hidden; the client should destroy it.
    private func close() {
        guard !isClosed else { return }
        isClosed = true
        dismissPopups()
        if let window, !window.isClosed { compositor.windows.hide(window) }
        if !isDestroyed { zwlr_layer_surface_v1_send_closed(resource) }
        rearrange()
    }

    func screenDidDisconnect() {
        close()
        screenID = nil
    }

    /// The layer surface or its wl_surface died: the window closes for good.
    private func tearDown() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        dismissPopups()
        isMapped = false
        isClosed = true
        if let window, !window.isClosed { compositor.windowDidClose(window) }
        window = nil
        shell.remove(self)
        rearrange()
    }

    override func resourceDidDestroy() {
        tearDown()
        surface?.clearRole(self)
    }

    // MARK: Requests

    func handleAckConfigureRequest(serial: UInt32) throws(ProtocolError) {
        guard !isClosed else { return }
        guard let index = unackedSerials.firstIndex(where: { $0.serial == serial }) else {
            throw error(
                ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
                "ack_configure(\(serial)): no such configure is waiting for an ack")
        }
        unackedSerials.removeFirst(index + 1)
        isConfigured = true
    }

    func handleGetPopupRequest(_ popupResource: OpaquePointer?) {
        guard !isClosed, let popup = ResourceObject.from(popupResource, as: XdgPopup.self) else { return }
        _ = popup.adoptParent(self)
    }

    static let implementation = makeImplementation(
        zwlr_layer_surface_v1_interface(
            set_size: { _, resource, width, height in
                handle(resource, as: LayerSurface.self) { surface in
                    surface.pending.width = width
                    surface.pending.height = height
                }
            },
            set_anchor: { _, resource, anchor in
                handle(resource, as: LayerSurface.self) { surface throws(ProtocolError) in
                    guard anchor <= 15 else {
                        throw surface.error(
                            ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR,
                            "anchor \(anchor) is not a bitfield of the four edges")
                    }
                    surface.pending.anchor = anchor
                }
            },
            set_exclusive_zone: { _, resource, zone in
                handle(resource, as: LayerSurface.self) { $0.pending.exclusiveZone = zone }
            },
            set_margin: { _, resource, top, right, bottom, left in
                handle(resource, as: LayerSurface.self) { surface in
                    surface.pending.marginTop = top
                    surface.pending.marginRight = right
                    surface.pending.marginBottom = bottom
                    surface.pending.marginLeft = left
                }
            },
            set_keyboard_interactivity: { _, resource, value in
                handle(resource, as: LayerSurface.self) { surface throws(ProtocolError) in
                    let limit =
                        surface.version >= 4
                        ? ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue
                        : ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE.rawValue
                    guard value <= limit else {
                        throw surface.error(
                            ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY,
                            "keyboard interactivity \(value) is not valid in version \(surface.version)")
                    }
                    surface.pending.keyboardInteractivity = value
                }
            },
            get_popup: { _, resource, popup in
                handle(resource, as: LayerSurface.self) { $0.handleGetPopupRequest(popup) }
            },
            ack_configure: { _, resource, serial in
                handle(resource, as: LayerSurface.self) { try $0.handleAckConfigureRequest(serial: serial) }
            },
            destroy: destroyRequest,
            set_layer: { _, resource, layer in
                handle(resource, as: LayerSurface.self) { surface throws(ProtocolError) in
                    guard layer <= ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue else {
                        throw ProtocolError(
                            code: ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue,
                            "layer \(layer) is not a zwlr_layer_shell_v1.layer")
                    }
                    surface.pending.layer = layer
                }
            }))
}
