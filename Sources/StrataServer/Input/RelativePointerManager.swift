import CStrataServerGlue
import CWaylandServer
import Glibc

/// zwp_relative_pointer_manager_v1 v1: relative motion for a wl_pointer (games, 3D views). The
/// deltas are those of the seat's pointer position, so they stop at screen edges: Strata's
/// backends report absolute positions, not raw device motion, and "unaccelerated" is the same.
enum RelativePointerManager {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_zwp_relative_pointer_manager_v1_interface(), version: version
        ) { client, version, id in
            _ = RelativePointerManagerBinding(client: client, version: version, id: id)
        }
    }
}

final class RelativePointerManagerBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_zwp_relative_pointer_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_relative_pointer_manager_v1_interface(
            destroy: destroyRequest,
            get_relative_pointer: { client, resource, id, pointerResource in
                handle(resource, as: RelativePointerManagerBinding.self) { manager in
                    guard let client else { return }
                    // A wl_pointer that is already gone still gets an (inert) relative pointer.
                    let binding = ResourceObject.from(pointerResource, as: PointerBinding.self)
                    guard
                        let relative = RelativePointer(
                            client: client, version: manager.version, id: id, binding: binding)
                    else { return }
                    binding?.pointer.relativePointers.append(relative)
                }
            }))
}

/// zwp_relative_pointer_v1: the relative motion of one wl_pointer, while its client has the
/// pointer focus.
final class RelativePointer: ResourceObject {
    private(set) weak var binding: PointerBinding?
    /// The seat's pointer that lists this object; kept apart from `binding`, which may die first
    /// (the wl_pointer destroyed before its relative pointer): the list entry must still go.
    private weak var pointer: Pointer?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, binding: PointerBinding?) {
        self.binding = binding
        pointer = binding?.pointer
        super.init(
            client: client, interface: strata_zwp_relative_pointer_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        pointer?.relativePointers.removeAll { $0 === self }
    }

    func sendMotion(microseconds: UInt64, dx: Double, dy: Double) {
        guard !isDestroyed, let binding, !binding.isDestroyed else { return }
        let fx = wl_fixed_from_double(dx), fy = wl_fixed_from_double(dy)
        zwp_relative_pointer_v1_send_relative_motion(
            resource, UInt32(truncatingIfNeeded: microseconds >> 32),
            UInt32(truncatingIfNeeded: microseconds), fx, fy, fx, fy)
    }

    static let implementation = makeImplementation(zwp_relative_pointer_v1_interface(destroy: destroyRequest))
}
