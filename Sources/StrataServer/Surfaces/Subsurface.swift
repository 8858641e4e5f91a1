import CStrataServerGlue
import CWaylandServer
import StrataModel

/// wl_subsurface: a surface drawn relative to its parent, stacked among its siblings, with
/// synchronized (cached until the parent commits) or desynchronized commits.
final class Subsurface: ResourceObject, SurfaceRole {
    static let roleName = "wl_subsurface"
    var roleName: String { Self.roleName }

    private(set) weak var surface: Surface?
    private(set) weak var parent: Surface?
    private(set) var x: Int32 = 0
    private(set) var y: Int32 = 0
    private var pendingPosition: (Int32, Int32)?
    private(set) var isSynchronized = true
    private var parentDestroyed: Signal<Surface>.Token?
    private var surfaceDestroyed: Signal<Surface>.Token?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, surface: Surface, parent: Surface) {
        self.surface = surface
        self.parent = parent
        super.init(
            client: client, interface: strata_wl_subsurface_interface(), version: version, id: id,
            implementation: Self.implementation)
        parentDestroyed = parent.didDestroy.observe { [weak self] _ in self?.detach() }
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.detach() }
        parent.compositor.scene.setAnchor(.surface(parent, x: 0, y: 0), of: surface)
    }

    /// Synchronized when set so, or when any ancestor subsurface is (a walk up at most
    /// `TreeLimits.maxSubsurfaceDepth` long).
    var isEffectivelySynchronized: Bool {
        if isSynchronized { return true }
        return parent?.subsurface?.isEffectivelySynchronized ?? false
    }

    func applyPendingPosition() {
        if let (px, py) = pendingPosition {
            x = px
            y = py
            pendingPosition = nil
            // The parent's commit (being applied) damages the children's old and new places.
            if let surface, let parent {
                parent.compositor.scene.setAnchor(.surface(parent, x: Int(x), y: Int(y)), of: surface)
            }
        }
    }

    /// The parent or the surface died, or the subsurface was destroyed: unlink from the parent.
    /// O(1) for the parent's order (its entry turns stale) and O(depth limit) for the measures
    /// of the tree, so tearing down any tree is linear in its size.
    private func detach() {
        guard let surface else { return }
        if let parent {
            // Not shown from now on (the parent's other children are not shown without content
            // either: the scene checks the parent's content).
            parent.compositor.scene.setAnchor(nil, of: surface)
            parent.compositor.scene.surfaceTreeDidChange(surface)
            self.parent = nil
            // A dying parent's order and measure are no longer asked for.
            if !parent.isDestroyed {
                parent.childSubtree(surface, joins: false)
                parent.stack.childDidLeave(owner: parent)
                parent.pendingStack.childDidLeave(owner: parent)
            }
        }
        parentDestroyed?.remove()
        surfaceDestroyed?.remove()
    }

    override func resourceDidDestroy() {
        detach()
        if let surface {
            surface.subsurface = nil
            surface.clearRole(self)
        }
    }

    static let implementation = makeImplementation(
        wl_subsurface_interface(
            destroy: destroyRequest,
            set_position: { _, resource, x, y in
                handle(resource, as: Subsurface.self) { $0.pendingPosition = (x, y) }
            },
            place_above: { _, resource, sibling in
                handle(resource, as: Subsurface.self) { try $0.handlePlaceRequest(sibling: sibling, above: true) }
            },
            place_below: { _, resource, sibling in
                handle(resource, as: Subsurface.self) { try $0.handlePlaceRequest(sibling: sibling, above: false) }
            },
            set_sync: { _, resource in
                handle(resource, as: Subsurface.self) { $0.isSynchronized = true }
            },
            set_desync: { _, resource in
                handle(resource, as: Subsurface.self) { sub in
                    guard sub.isSynchronized else { return }
                    sub.isSynchronized = false
                    // Leaving sync mode applies the cached state, unless an ancestor is still synchronized.
                    if !sub.isEffectivelySynchronized, let surface = sub.surface, surface.hasCachedState {
                        surface.applyCachedState()
                    }
                }
            }))

    func handlePlaceRequest(sibling siblingResource: OpaquePointer?, above: Bool) throws(ProtocolError) {
        guard let surface, let parent, let sibling = ResourceObject.from(siblingResource, as: Surface.self) else {
            return
        }
        guard sibling !== surface, sibling === parent || (sibling.subsurface?.parent === parent) else {
            throw ProtocolError(
                code: WL_SUBSURFACE_ERROR_BAD_SURFACE.rawValue,
                "place_\(above ? "above" : "below"): the reference surface is neither the parent nor a sibling")
        }
        parent.pendingStack.place(self, relativeTo: sibling, above: above, owner: parent)
    }
}
