import CStrataServerGlue
import CWaylandServer

/// zwp_pointer_constraints_v1 v1: a client locks the pointer in place (3D views, games) or
/// confines it to a region of a surface. The seat's `Pointer` decides when a constraint is in
/// effect (its surface has the pointer focus, its window is key, the pointer is in its region)
/// and applies it to motion; `PointerConstraint` is the wire object. See docs/seat.md.
enum PointerConstraints {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_pointer_constraints_v1_interface(), version: version)
        { client, version, id in
            _ = PointerConstraintsBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class PointerConstraintsBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zwp_pointer_constraints_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_pointer_constraints_v1_interface(
            destroy: destroyRequest,
            lock_pointer: { _, resource, id, surface, pointer, region, lifetime in
                handle(resource, as: PointerConstraintsBinding.self) {
                    try $0.handleConstrainRequest(
                        .lock, id: id, surface: surface, pointer: pointer, region: region, lifetime: lifetime)
                }
            },
            confine_pointer: { _, resource, id, surface, pointer, region, lifetime in
                handle(resource, as: PointerConstraintsBinding.self) {
                    try $0.handleConstrainRequest(
                        .confine, id: id, surface: surface, pointer: pointer, region: region, lifetime: lifetime)
                }
            }))

    func handleConstrainRequest(
        _ kind: PointerConstraint.Kind, id: UInt32, surface surfaceResource: OpaquePointer?,
        pointer pointerResource: OpaquePointer?, region regionResource: OpaquePointer?,
        lifetime: UInt32
    ) throws(ProtocolError) {
        guard
            lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT.rawValue
                || lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue
        else {
            throw .invalidMethod("lifetime \(lifetime) is not a zwp_pointer_constraints_v1.lifetime")
        }
        let pointer: Pointer = compositor.seat.pointer
        let surface = ResourceObject.from(surfaceResource, as: Surface.self)
        if let surface, pointer.constraints.contains(where: { $0.surface === surface && !$0.isDestroyed }) {
            throw ProtocolError(
                code: ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has a pointer constraint")
        }
        let region = ResourceObject.from(regionResource, as: Region.self)?.region
        guard
            let constraint = PointerConstraint(
                kind: kind, client: client, version: version, id: id, pointer: pointer,
                surface: surface, region: region,
                persistent: lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue)
        else { return }
        // A constraint on a surface that is already gone, or of a wl_pointer already released,
        // stays inert.
        guard surface != nil, ResourceObject.from(pointerResource, as: PointerBinding.self) != nil else { return }
        pointer.constraints.append(constraint)
        pointer.constraintDidChange(constraint)
    }
}
