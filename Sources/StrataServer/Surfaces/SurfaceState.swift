import CWaylandServer
import StrataRender

/// A wl_buffer a surface has been given. The reference turns empty when the client destroys
/// the buffer before the state that names it is applied.
final class BufferReference {
    private(set) var resource: OpaquePointer?
    /// Made once and moved from buffer to buffer (no allocation per attach).
    private var listener: Listener?

    init() {
        listener = Listener { [weak self] _ in self?.resource = nil }
    }

    /// Watches `resource` (nil: none) instead of the buffer watched so far.
    func watch(_ resource: OpaquePointer?) {
        listener?.remove()
        guard let resource, let listener else {
            self.resource = nil
            return
        }
        self.resource = resource
        listener.listen(toResourceDestroy: resource)
    }
}

/// The double-buffered state of a wl_surface: requests write the pending copy, commit applies it
/// (or caches it, for a synchronized subsurface).
final class SurfaceState {
    var bufferChanged = false
    /// The attached buffer (its `resource` nil: none, or destroyed since).
    let buffer = BufferReference()
    var offsetX: Int32 = 0
    var offsetY: Int32 = 0
    let surfaceDamage = PixmanRegion()
    let bufferDamage = PixmanRegion()
    var opaqueChanged = false
    let opaque = PixmanRegion()
    var inputChanged = false
    let input = PixmanRegion()
    var scaleChanged = false
    var scale: Int32 = 1
    var transformChanged = false
    var transform: Int32 = 0
    var frameCallbacks: [FrameCallback] = []
    /// wp_viewport's source and destination, each set (nil: unset) or left as is.
    var viewportSourceChanged = false
    var viewportSource: Viewport.Source?
    var viewportDestinationChanged = false
    var viewportDestination: Viewport.Size?
    /// wp_content_type_v1's type and wp_alpha_modifier_surface_v1's factor, when set.
    var contentTypeChanged = false
    var contentType: UInt32 = 0
    var alphaMultiplierChanged = false
    var alphaMultiplier: UInt32 = .max
    /// wp_presentation feedback for this commit.
    var presentationFeedbacks: [PresentationFeedback] = []

    /// Damage requests: past `TreeLimits.maxDamageBoxes` boxes the damage is its extents, so
    /// each request costs a bounded time however many rectangles came before.
    func addSurfaceDamage(x: Int32, y: Int32, width: Int32, height: Int32) {
        surfaceDamage.addRect(x: x, y: y, width: width, height: height)
        surfaceDamage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
    }

    func addBufferDamage(x: Int32, y: Int32, width: Int32, height: Int32) {
        bufferDamage.addRect(x: x, y: y, width: width, height: height)
        bufferDamage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
    }

    /// Moves everything set in `other` into self and resets `other` (caching a sync commit).
    func absorb(_ other: SurfaceState) {
        if other.bufferChanged {
            bufferChanged = true
            buffer.watch(other.buffer.resource)
            // A new buffer resets what the cached damage described: keep both, union is safe.
        }
        // Offsets of cached commits add up; a client can send Int32.max in each: saturate.
        offsetX = Int32(clamping: Int(offsetX) + Int(other.offsetX))
        offsetY = Int32(clamping: Int(offsetY) + Int(other.offsetY))
        surfaceDamage.union(other.surfaceDamage)
        surfaceDamage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
        bufferDamage.union(other.bufferDamage)
        bufferDamage.collapse(ifMoreThan: TreeLimits.maxDamageBoxes)
        if other.opaqueChanged { opaqueChanged = true; opaque.set(other.opaque) }
        if other.inputChanged { inputChanged = true; input.set(other.input) }
        if other.scaleChanged { scaleChanged = true; scale = other.scale }
        if other.transformChanged { transformChanged = true; transform = other.transform }
        frameCallbacks.append(contentsOf: other.frameCallbacks)
        presentationFeedbacks.append(contentsOf: other.presentationFeedbacks)
        if other.contentTypeChanged { contentTypeChanged = true; contentType = other.contentType }
        if other.alphaMultiplierChanged { alphaMultiplierChanged = true; alphaMultiplier = other.alphaMultiplier }
        if other.viewportSourceChanged { viewportSourceChanged = true; viewportSource = other.viewportSource }
        if other.viewportDestinationChanged {
            viewportDestinationChanged = true
            viewportDestination = other.viewportDestination
        }
        other.reset()
    }

    func reset() {
        bufferChanged = false
        buffer.watch(nil)
        offsetX = 0
        offsetY = 0
        surfaceDamage.clear()
        bufferDamage.clear()
        opaqueChanged = false
        inputChanged = false
        scaleChanged = false
        transformChanged = false
        frameCallbacks.removeAll(keepingCapacity: true)
        presentationFeedbacks.removeAll(keepingCapacity: true)
        contentTypeChanged = false
        alphaMultiplierChanged = false
        viewportSourceChanged = false
        viewportSource = nil
        viewportDestinationChanged = false
        viewportDestination = nil
    }
}
