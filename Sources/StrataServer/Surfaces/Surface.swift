import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// wl_surface: a rectangle of pixels with double-buffered state and at most one role.
public final class Surface: ResourceObject, MeasuredTreeNode {
    unowned let compositor: Compositor
    let pending = SurfaceState()
    /// State cached by commits of a synchronized subsurface, applied with its parent's commit.
    let cached = SurfaceState()
    var hasCachedState = false

    // Current state.
    public let texture = SurfaceTexture()
    /// The shm buffer the texture shows without a copy (held until replaced).
    private(set) var shownBuffer: ShmBuffer?
    public private(set) var bufferTransform = BufferTransform.identity
    /// wp_viewport's crop and scale (nil: none).
    public private(set) var viewport: Viewport?
    /// The surface's wp_viewport object, if it has one (one at most).
    weak var viewportObject: SurfaceViewport?
    /// The surface's wp_fractional_scale_v1, if any (the resource owns it).
    weak var fractionalScaleObject: FractionalScale?
    /// The surface's zwp_keyboard_shortcuts_inhibitor_v1, wp_content_type_v1 and
    /// wp_alpha_modifier_surface_v1, if any (one each at most; each resource owns its object).
    weak var shortcutsInhibitor: KeyboardShortcutsInhibitor?
    weak var contentTypeObject: ContentTypeObject?
    weak var alphaModifierObject: AlphaModifierSurface?
    /// wp_content_type_v1's type (0 none, 1 photo, 2 video, 3 game): stored, shown in nothing.
    public private(set) var contentType: UInt32 = 0
    /// wp_alpha_modifier_v1's factor (0 transparent … UInt32.max unchanged): the scene
    /// multiplies the surface's alpha by it when drawing.
    public private(set) var alphaMultiplier: UInt32 = .max
    /// Size in surface-local coordinates (0×0 without a buffer).
    public private(set) var width: Int32 = 0
    public private(set) var height: Int32 = 0
    public let opaqueRegion = PixmanRegion()
    public let inputRegion = PixmanRegion()
    /// Damage (surface-local) committed and not yet handed to the screens: the scene takes it
    /// (and clears it) when told of the commit.
    let damage = PixmanRegion()
    /// Frame callbacks of applied commits, done after the next frame that shows this surface.
    var frameCallbacks: [FrameCallback] = []
    /// wp_presentation feedback of the applied commit, answered by the next frame showing it.
    var presentationFeedbacks: [PresentationFeedback] = []
    /// The scene's state for this surface (where it was last shown, its part of the frame being
    /// drawn): held here so the frame path needs no lookup; only the scene reads and writes it.
    let render = SurfaceRenderState()
    /// The wl_surface.offset (or attach dx, dy) of the commit being applied (cursor hotspots).
    private(set) var committedOffset: (x: Int32, y: Int32) = (0, 0)

    /// The role's name once the surface has one (it keeps it after the role object dies).
    public private(set) var roleName: String?
    public private(set) weak var role: SurfaceRole?

    /// Set when this surface is a subsurface's child.
    weak var subsurface: Subsurface?
    /// This surface and its subsurfaces' surfaces, bottom to top (current and pending order).
    var stack = SubsurfaceStack()
    var pendingStack = SubsurfaceStack()
    /// The height and size of the subsurface tree below this surface (`TreeLimits`).
    var subtreeMeasure = SubtreeMeasure()
    var measuredParent: Surface? { subsurface?.parent }

    /// Told when the surface dies (roles, seat focus, popups; test-support windows).
    @_spi(TestSupport) public let didDestroy = Signal<Surface>()

    public var hasContent: Bool { texture.hasPixels && width > 0 && height > 0 }

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_wl_surface_interface(), version: version, id: id,
            implementation: Self.implementation, dispatcher: strata_wl_surface_dispatch)
        inputRegion.setInfinite()
    }

    public override func resourceDidDestroy() {
        compositor.surfaceWillDestroy(self)
        didDestroy.emit(self)
        for feedback in presentationFeedbacks + pending.presentationFeedbacks + cached.presentationFeedbacks {
            feedback.discard()
        }
        presentationFeedbacks.removeAll()
        shownBuffer?.unhold()
        shownBuffer = nil
        texture.clear()
        pending.reset()
        cached.reset()
        stack = SubsurfaceStack()
        pendingStack = SubsurfaceStack()
        frameCallbacks.removeAll()
    }

    /// Gives the surface a role. Fails when it already has a different one, or the same one
    /// with a live role object.
    public func setRole(_ role: SurfaceRole) -> Bool {
        if let roleName, roleName != role.roleName { return false }
        if self.role != nil { return false }
        roleName = role.roleName
        self.role = role
        return true
    }

    /// Ends the role object's hold (role object destroyed); the role name stays.
    public func clearRole(_ role: SurfaceRole) {
        if self.role === role { self.role = nil }
    }

    /// Where the surface's origin is shown now (the scene's answer; nil: not shown).
    public var placement: SurfacePlacement? { compositor.scene.placement(of: self) }

    // MARK: Requests

    static let implementation = makeImplementation(
        wl_surface_interface(
            destroy: destroyRequest,
            attach: { _, resource, buffer, x, y in
                handle(resource, as: Surface.self) { try $0.handleAttachRequest(buffer: buffer, x: x, y: y) }
            },
            damage: { _, resource, x, y, width, height in
                handle(resource, as: Surface.self) {
                    $0.pending.addSurfaceDamage(x: x, y: y, width: width, height: height)
                }
            },
            frame: { client, resource, id in
                handle(resource, as: Surface.self) { surface in
                    guard let client else { return }
                    try surface.checkFrameCallbackBudget()
                    guard let callback = FrameCallback(client: client, id: id, surface: surface) else { return }
                    surface.pending.frameCallbacks.append(callback)
                }
            },
            set_opaque_region: { _, resource, region in
                handle(resource, as: Surface.self) { $0.handleSetRegion(region, opaque: true) }
            },
            set_input_region: { _, resource, region in
                handle(resource, as: Surface.self) { $0.handleSetRegion(region, opaque: false) }
            },
            commit: { _, resource in
                handle(resource, as: Surface.self) { try $0.handleCommitRequest() }
            },
            set_buffer_transform: { _, resource, transform in
                handle(resource, as: Surface.self) { surface throws(ProtocolError) in
                    guard (0...7).contains(transform) else {
                        throw ProtocolError(
                            code: WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue,
                            "buffer transform \(transform) is not a wl_output.transform")
                    }
                    surface.pending.transform = transform
                    surface.pending.transformChanged = true
                }
            },
            set_buffer_scale: { _, resource, scale in
                handle(resource, as: Surface.self) { surface throws(ProtocolError) in
                    guard scale >= 1 else {
                        throw ProtocolError(
                            code: WL_SURFACE_ERROR_INVALID_SCALE.rawValue, "buffer scale \(scale) is not positive")
                    }
                    surface.pending.scale = scale
                    surface.pending.scaleChanged = true
                }
            },
            damage_buffer: { _, resource, x, y, width, height in
                handle(resource, as: Surface.self) {
                    $0.pending.addBufferDamage(x: x, y: y, width: width, height: height)
                }
            },
            offset: { _, resource, x, y in
                handle(resource, as: Surface.self) { surface in
                    surface.pending.offsetX = x
                    surface.pending.offsetY = y
                }
            }))

    /// Room for one more frame callback (`ClientBudget.maxFrameCallbacksPerSurface`): applied
    /// callbacks still waiting for a frame are done at once when the surface holds the cap; more
    /// than the cap asked for without an applied commit is no_memory.
    func checkFrameCallbackBudget() throws(ProtocolError) {
        let cap = ClientBudget.maxFrameCallbacksPerSurface
        guard pending.frameCallbacks.count + cached.frameCallbacks.count + frameCallbacks.count >= cap else { return }
        if !frameCallbacks.isEmpty {
            let now = compositor.clock.milliseconds
            for callback in frameCallbacks { callback.done(timeMilliseconds: now) }
            frameCallbacks.removeAll(keepingCapacity: true)
        }
        guard pending.frameCallbacks.count + cached.frameCallbacks.count < cap else {
            throw .noMemory(
                "more than \(cap) frame callbacks on wl_surface@\(wl_resource_get_id(resource)) without a commit applying them",
                client: client)
        }
    }

    func handleAttachRequest(buffer: OpaquePointer?, x: Int32, y: Int32) throws(ProtocolError) {
        if version >= 5, x != 0 || y != 0 {
            throw ProtocolError(
                code: WL_SURFACE_ERROR_INVALID_OFFSET.rawValue,
                "attach with a non-zero offset (\(x), \(y)) on wl_surface v5: use wl_surface.offset")
        }
        try role?.surfaceWillAttach(self, buffer: buffer)
        pending.bufferChanged = true
        pending.buffer.watch(buffer)
        if version < 5 {
            pending.offsetX = x
            pending.offsetY = y
        }
    }

    func handleSetRegion(_ region: OpaquePointer?, opaque: Bool) {
        let target = opaque ? pending.opaque : pending.input
        if let region, let r = ResourceObject.from(region, as: Region.self) {
            target.set(r.region)
        } else if opaque {
            target.clear()
        } else {
            target.setInfinite()
        }
        if opaque { pending.opaqueChanged = true } else { pending.inputChanged = true }
    }

    func handleCommitRequest() throws(ProtocolError) {
        try role?.surfaceWillCommit(self)
        if let sub = subsurface, sub.isEffectivelySynchronized {
            cached.absorb(pending)
            hasCachedState = true
            return
        }
        if hasCachedState {
            cached.absorb(pending)
            hasCachedState = false
            try apply(cached)
        } else {
            try apply(pending)
        }
    }

    /// Applies the cached state of a synchronized subsurface (its parent committed). Without
    /// cached state nothing applies, not even its own children's pending order and positions:
    /// those are this surface's state and wait for its own commit.
    func applyCachedState() {
        guard hasCachedState else { return }
        hasCachedState = false
        do { try apply(cached) } catch { post(error) }
    }

    /// Makes `state` current and resets it.
    func apply(_ state: SurfaceState) throws(ProtocolError) {
        defer { state.reset() }
        let newTransform = BufferTransform(
            transform: state.transformChanged ? state.transform : bufferTransform.transform,
            scale: state.scaleChanged ? state.scale : bufferTransform.scale)
        var newViewport = viewport ?? Viewport()
        if state.viewportSourceChanged { newViewport.source = state.viewportSource }
        if state.viewportDestinationChanged { newViewport.destination = state.viewportDestination }
        let viewportActive = !newViewport.isEmpty
        if state.bufferChanged {
            if let resource = state.buffer.resource {
                try takeBuffer(resource, transform: newTransform)
            } else {
                replaceShownBuffer(with: nil)
                texture.clear()
            }
        }
        var fullDamage = newTransform != bufferTransform || newViewport != (viewport ?? Viewport())
        bufferTransform = newTransform
        var size =
            !texture.hasPixels
            ? (width: Int32(0), height: Int32(0))
            : bufferTransform.surfaceSize(bufferWidth: texture.width, bufferHeight: texture.height)
        if viewportActive, texture.hasPixels {
            guard newViewport.sourceFits(contentWidth: size.width, contentHeight: size.height) else {
                throw ProtocolError(
                    on: viewportObject?.resource, code: WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue,
                    "the viewport's source rectangle is outside the \(size.width)x\(size.height) buffer")
            }
            guard let viewed = newViewport.surfaceSize(contentWidth: size.width, contentHeight: size.height) else {
                throw ProtocolError(
                    on: viewportObject?.resource, code: WP_VIEWPORT_ERROR_BAD_SIZE.rawValue,
                    "the viewport's source size is not whole and no destination size is set")
            }
            size = (viewed.width, viewed.height)
        }
        viewport = viewportActive ? newViewport : nil
        // A viewport's destination may be anything up to Int32.max: sizes stay in the clamped range.
        if Coordinate.size(size.width) != width || Coordinate.size(size.height) != height {
            fullDamage = true
            width = Coordinate.size(size.width)
            height = Coordinate.size(size.height)
        }
        if state.opaqueChanged { opaqueRegion.set(state.opaque) }
        if state.inputChanged { inputRegion.set(state.input) }
        if state.contentTypeChanged { contentType = state.contentType }
        if state.alphaMultiplierChanged, state.alphaMultiplier != alphaMultiplier {
            alphaMultiplier = state.alphaMultiplier
            render.alphaMask = alphaMultiplier == .max ? nil : SolidMask(alpha: alphaMultiplier)
            fullDamage = true
        }

        // Damage in surface coordinates; the compositor damages the old place when size or
        // position changed.
        if fullDamage {
            damage.addRect(x: 0, y: 0, width: width, height: height)
        } else {
            damage.union(state.surfaceDamage)
            if viewport != nil, !state.bufferDamage.isEmpty {
                // Buffer damage through a crop and scale: the whole surface, simply.
                damage.addRect(x: 0, y: 0, width: width, height: height)
            } else if bufferTransform.isIdentity {
                damage.union(state.bufferDamage)
            } else {
                state.bufferDamage.forEachBox { box in
                    let s = bufferTransform.surfaceBox(fromBuffer: box, surfaceWidth: width, surfaceHeight: height)
                    damage.addRect(x: s.x1, y: s.y1, width: s.width, height: s.height)
                }
            }
        }
        damage.intersect(x: 0, y: 0, width: width, height: height)
        damage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)

        frameCallbacks.append(contentsOf: state.frameCallbacks)
        state.frameCallbacks.removeAll(keepingCapacity: true)
        if state.bufferChanged {
            // New content replaces the update still waiting for a frame: it will never be shown.
            for feedback in presentationFeedbacks { feedback.discard() }
            presentationFeedbacks.removeAll(keepingCapacity: true)
        }
        presentationFeedbacks.append(contentsOf: state.presentationFeedbacks)
        state.presentationFeedbacks.removeAll(keepingCapacity: true)
        let offsetX = state.offsetX, offsetY = state.offsetY
        committedOffset = (offsetX, offsetY)

        applyChildrenOrder()
        role?.surfaceDidCommit(self)
        compositor.surfaceDidCommit(self, offsetX: offsetX, offsetY: offsetY)
    }

    /// The pending subsurface order and positions become current; synchronized children apply
    /// their cached state with this commit.
    private func applyChildrenOrder() {
        if !stack.hasSameOrder(as: pendingStack, owner: self) {
            compositor.scene.surfaceTreeDidChange(self)
            stack = pendingStack
        }
        forEachChild { child, sub in
            sub.applyPendingPosition()
            if sub.isEffectivelySynchronized {
                child.applyCachedState()
            }
        }
    }

    /// Calls `body` with each subsurface's surface in the current order, bottom to top (on a
    /// copy of the order: `body` may change it).
    func forEachChild(_ body: (Surface, Subsurface) -> Void) {
        let order = stack
        order.forEach(owner: self) { surface, sub in
            if let sub { body(surface, sub) }
        }
    }

    /// Makes a committed buffer the surface's content: a single-pixel buffer is filled in and
    /// released at once; an shm buffer is shown from the client's memory and held until another
    /// buffer replaces it (`ShmBuffer`), which saves copying every frame.
    private func takeBuffer(_ resource: OpaquePointer, transform: BufferTransform) throws(ProtocolError) {
        // Only a resource with our implementation carries a ResourceObject (shm buffers carry
        // libwayland's data).
        if wl_resource_instance_of(resource, strata_wl_buffer_interface(), SinglePixelBuffer.implementation) != 0,
            let pixel = ResourceObject.from(resource, as: SinglePixelBuffer.self)
        {
            replaceShownBuffer(with: nil)
            texture.fill(width: 1, height: 1, argb: pixel.argb)
            wl_buffer_send_release(resource)
            return
        }
        guard let buffer = ShmBuffer.of(resource) else {
            if let shm = wl_shm_buffer_get(resource) {
                throw ProtocolError(
                    on: resource, code: WL_SHM_ERROR_INVALID_FORMAT.rawValue,
                    "buffer format \(wl_shm_buffer_get_format(shm)) is not supported")
            }
            throw ProtocolError(
                on: resource, code: WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue,
                "only wl_shm and single-pixel buffers are supported")
        }
        guard buffer.width % transform.scale == 0, buffer.height % transform.scale == 0 else {
            throw ProtocolError(
                code: WL_SURFACE_ERROR_INVALID_SIZE.rawValue,
                "buffer size \(buffer.width)x\(buffer.height) is not a multiple of the buffer scale \(transform.scale)")
        }
        // The buffer already shown, committed again (new damage): it stays held.
        if buffer === shownBuffer, texture.isBorrowed { return }
        buffer.probe()
        let shown = texture.attach(buffer, width: buffer.width, height: buffer.height, hasAlpha: buffer.hasAlpha)
        buffer.hold(by: self)
        replaceShownBuffer(with: shown ? buffer : nil)
        // Nothing to show (its memory cannot be read): the client may have it back at once.
        if !shown { buffer.unhold() }
    }

    /// The surface stops showing its shm buffer (another buffer or none replaces it): the client
    /// may reuse it, told so with the next frame's callbacks (one message a frame for a client
    /// drawing one buffer per callback; at once when no frame is coming).
    private func replaceShownBuffer(with buffer: ShmBuffer?) {
        if let previous = shownBuffer { compositor.scene.releaseAfterFrame(previous) }
        shownBuffer = buffer
    }

    /// The shown buffer's pixels are gone (destroyed by the client past its copy budget): what
    /// the surface covered is drawn again (as nothing) at the next frame.
    func contentDidVanish() {
        compositor.scene.surfaceTreeDidChange(self)
    }

    /// Whether a surface-local point hits this surface (its size and input region).
    public func accepts(x: Double, y: Double) -> Bool {
        guard hasContent, x >= 0, y >= 0, x < Double(width), y < Double(height) else { return false }
        return inputRegion.contains(x: Int32(x.rounded(.down)), y: Int32(y.rounded(.down)))
    }

    /// Calls `body` with each surface of this tree that has content, bottom to top, and its
    /// offset from this surface's origin.
    public func forEachSurface(x: Int32 = 0, y: Int32 = 0, _ body: (Surface, Int32, Int32) -> Void) {
        // A surface without content is unmapped, and so are its subsurfaces ("a sub-surface
        // becomes mapped when a non-NULL wl_buffer is applied and the parent surface is mapped").
        // Recursion as deep as the tree: at most `TreeLimits.maxSubsurfaceDepth`.
        guard hasContent else { return }
        let order = stack
        order.forEach(owner: self) { surface, sub in
            if let sub {
                surface.forEachSurface(x: Coordinate.sum(x, sub.x), y: Coordinate.sum(y, sub.y), body)
            } else {
                body(self, x, y)
            }
        }
    }

    /// The topmost surface of this tree accepting the point (surface-local to this surface), with
    /// the point in that surface's coordinates.
    public func surface(atX x: Double, y: Double) -> (Surface, Double, Double)? {
        guard hasContent else { return nil }  // unmapped, with its subsurfaces
        let order = stack
        return order.firstFromTop(owner: self) { surface, sub in
            if let sub { return surface.surface(atX: x - Double(sub.x), y: y - Double(sub.y)) }
            return accepts(x: x, y: y) ? (self, x, y) : nil
        }
    }
}
