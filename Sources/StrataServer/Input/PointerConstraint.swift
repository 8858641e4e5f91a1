import CStrataServerGlue
import CWaylandServer
import StrataRender

/// zwp_locked_pointer_v1 or zwp_confined_pointer_v1: one constraint of one surface.
///
/// The region (surface-local; nil: the whole surface) and, for a lock, the cursor position hint
/// are double-buffered: the surface's next commit applies them. A one-shot constraint that
/// stops being in effect is spent for good; a persistent one comes back when its surface is
/// focused and key again. The object turns inert when its surface dies.
final class PointerConstraint: ResourceObject {
    enum Kind { case lock, confine }

    let kind: Kind
    private unowned let pointer: Pointer
    private(set) weak var surface: Surface?
    let persistent: Bool
    /// nil: no region given (the whole surface, through its input region).
    private var region: PixmanRegion?
    private var pendingRegion: PixmanRegion?
    private var hasPendingRegion = false
    /// The lock's cursor position hint (surface-local), applied when the lock ends.
    private(set) var hint: (x: Double, y: Double)?
    private var pendingHint: (x: Double, y: Double)?
    private(set) var isActive = false
    /// A one-shot constraint that was in effect once.
    private var isSpent = false
    /// The region the pointer may be in: surface bounds ∩ input region ∩ constraint region.
    private let effective = PixmanRegion()

    init?(
        kind: Kind, client: OpaquePointer, version: UInt32, id: UInt32, pointer: Pointer, surface: Surface?,
        region: PixmanRegion?, persistent: Bool
    ) {
        self.kind = kind
        self.pointer = pointer
        self.surface = surface
        self.persistent = persistent
        if let region {
            let copy = PixmanRegion()
            copy.set(region)
            self.region = copy
        }
        super.init(
            client: client,
            interface: kind == .lock
                ? strata_zwp_locked_pointer_v1_interface() : strata_zwp_confined_pointer_v1_interface(),
            version: version, id: id,
            implementation: kind == .lock ? Self.lockedImplementation : Self.confinedImplementation)
    }

    override func resourceDidDestroy() {
        pointer.constraintWillDestroy(self)
        surface = nil
    }

    /// Whether the pointer may put it in effect now.
    var canActivate: Bool { !isDestroyed && !isSpent && surface.map { !$0.isDestroyed } == true }

    func activate() {
        guard !isActive, !isDestroyed else { return }
        isActive = true
        if kind == .lock {
            zwp_locked_pointer_v1_send_locked(resource)
        } else {
            zwp_confined_pointer_v1_send_confined(resource)
        }
    }

    func deactivate() {
        guard isActive else { return }
        isActive = false
        if !persistent { isSpent = true }
        guard !isDestroyed else { return }
        if kind == .lock {
            zwp_locked_pointer_v1_send_unlocked(resource)
        } else {
            zwp_confined_pointer_v1_send_unconfined(resource)
        }
    }

    /// The surface died first: the constraint is inert from now on.
    func surfaceWillDestroy() {
        isActive = false
        isSpent = true
        surface = nil
    }

    /// The surface committed: the pending region and hint become current.
    func surfaceDidCommit() {
        var changed = false
        if hasPendingRegion {
            region = pendingRegion
            pendingRegion = nil
            hasPendingRegion = false
            changed = true
        }
        if let pendingHint {
            hint = pendingHint
            self.pendingHint = nil
        }
        if changed || !isActive { pointer.constraintDidChange(self) }
    }

    private func updateEffectiveRegion() -> Bool {
        guard let surface, !surface.isDestroyed, surface.width > 0, surface.height > 0 else {
            effective.clear()
            return false
        }
        effective.setIntersection(surface.inputRegion, x: 0, y: 0, width: surface.width, height: surface.height)
        if let region { effective.intersect(region) }
        return !effective.isEmpty
    }

    /// Whether a surface-local point is where the constraint may activate.
    func contains(x: Double, y: Double) -> Bool {
        guard updateEffectiveRegion() else { return false }
        return effective.contains(x: CursorLayer.pixel(x), y: CursorLayer.pixel(y))
    }

    /// The point of the region nearest to a surface-local point (the point itself when inside):
    /// a confined pointer goes there. Edges are whole pixels (the last pixel of a box).
    func clamp(x: Double, y: Double) -> (x: Double, y: Double) {
        guard updateEffectiveRegion() else { return (x, y) }
        if effective.contains(x: CursorLayer.pixel(x), y: CursorLayer.pixel(y)) { return (x, y) }
        var best: (x: Double, y: Double, distance: Double)?
        effective.forEachBox { box in
            let cx = min(max(x, Double(box.x1)), Double(box.x2 - 1))
            let cy = min(max(y, Double(box.y1)), Double(box.y2 - 1))
            let d = (cx - x) * (cx - x) + (cy - y) * (cy - y)
            if let b = best, b.distance <= d { return }
            best = (cx, cy, d)
        }
        return best.map { ($0.x, $0.y) } ?? (x, y)
    }

    // MARK: Requests

    func handleSetRegionRequest(_ regionResource: OpaquePointer?) {
        if let r = regionResource.flatMap({ ResourceObject.from($0, as: Region.self) }) {
            let copy = PixmanRegion()
            copy.set(r.region)
            pendingRegion = copy
        } else {
            pendingRegion = nil
        }
        hasPendingRegion = true
    }

    static let lockedImplementation = makeImplementation(
        zwp_locked_pointer_v1_interface(
            destroy: destroyRequest,
            set_cursor_position_hint: { _, resource, x, y in
                handle(resource, as: PointerConstraint.self) { constraint in
                    let hx = wl_fixed_to_double(x), hy = wl_fixed_to_double(y)
                    guard hx.isFinite, hy.isFinite else { return }
                    constraint.pendingHint = (hx, hy)
                }
            },
            set_region: { _, resource, region in
                handle(resource, as: PointerConstraint.self) { $0.handleSetRegionRequest(region) }
            }))

    static let confinedImplementation = makeImplementation(
        zwp_confined_pointer_v1_interface(
            destroy: destroyRequest,
            set_region: { _, resource, region in
                handle(resource, as: PointerConstraint.self) { $0.handleSetRegionRequest(region) }
            }))
}
