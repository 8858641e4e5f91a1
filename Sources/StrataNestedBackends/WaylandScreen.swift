import CStrataClientGlue
import CWaylandClient
import StrataRender
import StrataServer

/// One Strata screen shown as an xdg_toplevel of the parent compositor.
///
/// Pacing: a frame is committed to the parent only while no parent frame callback is pending.
/// Strata's own frame clock keeps repainting the canvas; each `present` adds its damage to
/// `pendingDamage`, and the next commit (now, or when the parent's frame callback is done, or
/// when a busy buffer is released) copies that region from the canvas as it is then.
final class WaylandScreen {
    unowned let backend: WaylandBackend
    let output: ScreenOutput
    let surface: OpaquePointer
    let xdgSurface: OpaquePointer
    let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    private var frameCallback: OpaquePointer?
    /// True after the first xdg_surface.configure was acknowledged: buffers may be attached.
    private(set) var isConfigured = false
    /// The parent's proposed size from the last xdg_toplevel.configure (0: our choice).
    private var proposedWidth: Int32 = 0
    private var proposedHeight: Int32 = 0
    /// Whether the last configure had a state that dictates the size (fullscreen, maximized).
    private var proposedStateDictatesSize = false
    /// The size the window had while floating: restored when the parent leaves the choice to
    /// us again (0×0 after unfullscreen or unmaximize).
    private var floatingWidth: Int32
    private var floatingHeight: Int32
    /// Screen damage not yet committed to the parent.
    let pendingDamage = PixmanRegion()
    private var buffers: [ParentBuffer] = []
    /// Frames committed to the parent (tests).
    private(set) var committedFrames = 0
    private(set) var isClosed = false
    /// The parent's outputs the window is on (wl_surface.enter/leave).
    private var enteredOutputs: [OpaquePointer] = []
    /// The largest scale of those outputs: the buffer scale frames are committed with, and the
    /// screen's own scale (its mode is the parent-side size times it).
    private(set) var bufferScale: Int32 = 1
    /// The buffer scale last set on the parent surface.
    private var committedScale: Int32 = 1
    /// The window's size in the parent (its surface coordinates), as last configured.
    private var parentWidth: Int32
    private var parentHeight: Int32
    /// Parent surface coordinates → the screen's logical coordinates: ×bufferScale gives canvas
    /// pixels, ÷ the screen's scale logical ones.
    var parentToLogical: Double { Double(bufferScale) / output.scale }
    /// At most this many buffers: two alternate, a third when the parent holds both.
    private static let maximumBuffers = 3

    init?(
        backend: WaylandBackend, output: ScreenOutput, compositor wlCompositor: OpaquePointer,
        wmBase: OpaquePointer, decorationManager: OpaquePointer?
    ) {
        guard let surface = wl_compositor_create_surface(wlCompositor) else { return nil }
        guard let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface) else {
            wl_surface_destroy(surface)
            return nil
        }
        guard let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            xdg_surface_destroy(xdgSurface)
            wl_surface_destroy(surface)
            return nil
        }
        self.backend = backend
        self.output = output
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        floatingWidth = output.canvas.width
        floatingHeight = output.canvas.height
        parentWidth = floatingWidth
        parentHeight = floatingHeight
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(surface, &WaylandScreen.surfaceListener, me)
        xdg_surface_add_listener(xdgSurface, &WaylandScreen.xdgSurfaceListener, me)
        xdg_toplevel_add_listener(toplevel, &WaylandScreen.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, output.screen.name)
        xdg_toplevel_set_app_id(toplevel, "strata")
        if let decorationManager,
            let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(decorationManager, toplevel)
        {
            self.decoration = decoration
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
        // The initial commit without a buffer asks the parent for the first configure.
        wl_surface_commit(surface)
    }

    // MARK: Frames

    /// The compositor repainted `damage` of the canvas.
    func present(damage: PixmanRegion) {
        if output.displayCanvas !== output.canvas {
            // The damage is in the presented image's pixels (turned, dimmed, placed in an
            // overscan safe area) and the window shows the canvas: take all of it.
            pendingDamage.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
        } else {
            pendingDamage.union(damage)
        }
        commitIfReady()
    }

    /// Commits the pending damage in a buffer, unless the parent still owes a frame callback, the
    /// surface is not configured yet, or every buffer is held by the parent.
    func commitIfReady() {
        guard !isClosed, isConfigured, frameCallback == nil, !pendingDamage.isEmpty, backend.isConnected,
            let shm = backend.shm
        else { return }
        let canvas = output.canvas
        for buffer in buffers where buffer.width != canvas.width || buffer.height != canvas.height {
            buffer.retire()
        }
        buffers.removeAll { $0.width != canvas.width || $0.height != canvas.height }
        var chosen = buffers.first { !$0.isBusy }
        if chosen == nil, buffers.count < Self.maximumBuffers,
            let fresh = ParentBuffer(shm: shm, width: canvas.width, height: canvas.height)
        {
            fresh.didRelease = { [unowned self] in self.commitIfReady() }
            buffers.append(fresh)
            chosen = fresh
        }
        guard let buffer = chosen else { return }  // a release will call back
        // A canvas the scale does not divide (clamped sizes) is committed at scale 1.
        let scale = canvas.width % bufferScale == 0 && canvas.height % bufferScale == 0 ? bufferScale : 1
        if scale != committedScale, wl_proxy_get_version(surface) >= 3 {
            wl_surface_set_buffer_scale(surface, scale)
            committedScale = scale
        }
        pendingDamage.intersect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        for other in buffers { other.missing.union(pendingDamage) }
        buffer.update(from: canvas)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        let damageBuffer = wl_proxy_get_version(surface) >= 4
        pendingDamage.forEachBox { box in
            if damageBuffer {
                wl_surface_damage_buffer(surface, box.x1, box.y1, box.width, box.height)
            } else {
                wl_surface_damage(surface, box.x1, box.y1, box.width, box.height)
            }
        }
        pendingDamage.clear()
        if let callback = wl_surface_frame(surface) {
            frameCallback = callback
            wl_callback_add_listener(callback, &WaylandScreen.frameListener, Unmanaged.passUnretained(self).toOpaque())
        }
        wl_surface_commit(surface)
        buffer.isBusy = true
        committedFrames += 1
        backend.flush()
    }

    private func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        commitIfReady()
    }

    // MARK: Configure and close

    private func toplevelConfigure(width: Int32, height: Int32, states: UnsafeMutablePointer<wl_array>?) {
        proposedWidth = width
        proposedHeight = height
        proposedStateDictatesSize = false
        if let states, let data = states.pointee.data {
            let count = states.pointee.size / MemoryLayout<UInt32>.size
            for state in UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count)
            where state == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue || state == XDG_TOPLEVEL_STATE_MAXIMIZED.rawValue {
                proposedStateDictatesSize = true
            }
        }
    }

    /// A configure's size (if any) becomes the screen's mode; 0×0 after fullscreen or maximized
    /// brings back the floating size.
    private func surfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        if proposedWidth > 0, proposedHeight > 0 {
            if !proposedStateDictatesSize {
                floatingWidth = proposedWidth
                floatingHeight = proposedHeight
            }
            resize(width: proposedWidth, height: proposedHeight)
        } else if !proposedStateDictatesSize {
            resize(width: floatingWidth, height: floatingHeight)
        }
        if !isConfigured {
            isConfigured = true
            pendingDamage.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
        }
        commitIfReady()
    }

    /// The window is `width`×`height` in the parent: the screen's mode is that times the buffer
    /// scale.
    private func resize(width: Int32, height: Int32) {
        parentWidth = width
        parentHeight = height
        let w = width.multipliedReportingOverflow(by: bufferScale),
            h = height.multipliedReportingOverflow(by: bufferScale)
        backend.screen(
            self, wasResizedToWidth: w.overflow ? width : w.partialValue,
            height: h.overflow ? height : h.partialValue)
    }

    /// Recomputes the buffer scale from the outputs the window is on; when it changes, the
    /// screen takes it as its scale and its mode follows (same size in the parent, more pixels).
    func updateParentScale() {
        guard !isClosed else { return }
        let scale = enteredOutputs.map { backend.parentScale(of: $0) }.max() ?? 1
        guard scale != bufferScale else { return }
        bufferScale = scale
        backend.screen(self, didChangeParentScaleTo: scale)
        resize(width: parentWidth, height: parentHeight)
        pendingDamage.addRect(x: 0, y: 0, width: output.canvas.width, height: output.canvas.height)
        commitIfReady()
    }

    /// A parent output is going: the window is no longer on it.
    func parentOutputWillGo(_ proxy: OpaquePointer) {
        enteredOutputs.removeAll { $0 == proxy }
    }

    /// Destroys the parent-side objects (the parent closed the window, or Strata stops).
    func destroy() {
        guard !isClosed else { return }
        isClosed = true
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        for buffer in buffers { buffer.retire() }
        buffers.removeAll()
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        decoration = nil
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    // MARK: Listeners (user data: the WaylandScreen, alive while the proxies are)

    private static func screen(_ data: UnsafeMutableRawPointer?) -> WaylandScreen? {
        data.map { Unmanaged<WaylandScreen>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var xdgSurfaceListener = xdg_surface_listener(configure: { data, _, serial in
        guard let screen = screen(data), !screen.isClosed else { return }
        screen.surfaceConfigure(serial: serial)
    })

    private static var toplevelListener: xdg_toplevel_listener = {
        var listener = xdg_toplevel_listener()
        listener.configure = { data, _, width, height, states in
            screen(data)?.toplevelConfigure(width: width, height: height, states: states)
        }
        listener.close = { data, _ in
            guard let screen = screen(data), !screen.isClosed else { return }
            screen.backend.parentDidClose(screen)
        }
        listener.configure_bounds = { _, _, _, _ in }
        listener.wm_capabilities = { _, _, _ in }
        return listener
    }()

    private static var surfaceListener = wl_surface_listener(
        enter: { data, _, output in
            guard let screen = screen(data), !screen.isClosed, let output else { return }
            if !screen.enteredOutputs.contains(output) { screen.enteredOutputs.append(output) }
            screen.updateParentScale()
        },
        leave: { data, _, output in
            guard let screen = screen(data), !screen.isClosed, let output else { return }
            screen.enteredOutputs.removeAll { $0 == output }
            screen.updateParentScale()
        })

    private static var frameListener = wl_callback_listener(done: { data, _, _ in
        guard let screen = screen(data), !screen.isClosed else { return }
        screen.frameDone()
    })
}
