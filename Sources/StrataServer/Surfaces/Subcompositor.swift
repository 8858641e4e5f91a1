import CStrataServerGlue
import CWaylandServer

/// wl_subcompositor v1: gives surfaces the subsurface role.
enum Subcompositor {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wl_subcompositor_interface(), version: version) {
            client, version, id in
            _ = SubcompositorBinding(client: client, version: version, id: id)
        }
    }
}

final class SubcompositorBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wl_subcompositor_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wl_subcompositor_interface(
            destroy: destroyRequest,
            get_subsurface: { client, resource, id, surface, parent in
                handle(resource, as: SubcompositorBinding.self) { binding throws(ProtocolError) in
                    guard let client,
                        let surface = ResourceObject.from(surface, as: Surface.self),
                        let parent = ResourceObject.from(parent, as: Surface.self)
                    else { return }
                    try binding.handleGetSubsurfaceRequest(client: client, id: id, surface: surface, parent: parent)
                }
            }))

    /// wl_subcompositor.bad_parent (wayland 1.22; libwayland 1.21's header predates the name).
    static let badParentError: UInt32 = 1

    func handleGetSubsurfaceRequest(client: OpaquePointer, id: UInt32, surface: Surface, parent: Surface)
        throws(ProtocolError)
    {
        let bad = WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue
        if surface === parent {
            throw ProtocolError(code: bad, "a surface cannot be its own subsurface parent")
        }
        // The parent must not be a descendant of the surface (no cycles). The walk up is at most
        // the depth limit long.
        var root = parent
        var parentDepth = 0
        while let up = root.measuredParent {
            if up === surface { throw ProtocolError(code: bad, "the parent is a descendant of the surface") }
            root = up
            parentDepth += 1
        }
        if surface.role != nil || (surface.roleName != nil && surface.roleName != Subsurface.roleName) {
            throw ProtocolError(code: bad, "the surface already has the role \(surface.roleName ?? "?")")
        }
        // The surface brings its own subtree: both limits count it whole.
        let depth = parentDepth + 1 + surface.subtreeMeasure.height
        guard depth <= TreeLimits.maxSubsurfaceDepth else {
            throw ProtocolError(
                code: Self.badParentError,
                "the subsurface tree would be \(depth) levels deep (at most \(TreeLimits.maxSubsurfaceDepth))")
        }
        let size = root.subtreeMeasure.descendants + surface.subtreeMeasure.descendants + 1
        guard size <= TreeLimits.maxSubsurfacesPerTree else {
            throw ProtocolError(
                code: Self.badParentError,
                "the subsurface tree would hold \(size) subsurfaces (at most \(TreeLimits.maxSubsurfacesPerTree))")
        }
        guard let sub = Subsurface(client: client, version: version, id: id, surface: surface, parent: parent) else {
            return
        }
        _ = surface.setRole(sub)
        surface.subsurface = sub
        parent.stack.append(sub)
        parent.pendingStack.append(sub)
        parent.childSubtree(surface, joins: true)
    }
}
