import CStrataServerGlue
import CWaylandServer

/// zwp_pointer_gestures_v1 v3: touchpad swipe, pinch and hold gestures for a wl_pointer. The
/// gestures come from the seat's injection API (`Seat.pointerGestureBegin`…: a backend, the
/// control socket, a test) and go to the client of the surface with the pointer focus when the
/// gesture begins (`PointerGestureTracker`).
enum PointerGestures {
    static let version: UInt32 = 3

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_pointer_gestures_v1_interface(), version: version) {
            client, version, id in
            _ = PointerGesturesBinding(client: client, version: version, id: id)
        }
    }
}

/// One client's zwp_pointer_gestures_v1: makes the gesture objects of its wl_pointers.
final class PointerGesturesBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_zwp_pointer_gestures_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// A gesture object for `pointerResource`; one of a wl_pointer already released is inert.
    func handleGetGestureRequest(_ kind: PointerGestureKind, id: UInt32, pointer pointerResource: OpaquePointer?)
        throws(ProtocolError)
    {
        let binding = ResourceObject.from(pointerResource, as: PointerBinding.self)
        let tracker = binding?.pointer.seat.gestures
        if let tracker, !tracker.hasRoom(for: client) {
            throw .noMemory(
                "more than \(ClientBudget.maxPointerGesturesPerClient) pointer gesture objects", client: client)
        }
        guard let gesture = PointerGesture(kind: kind, client: client, version: version, id: id, binding: binding)
        else { return }
        tracker?.add(gesture)
    }

    static let implementation = makeImplementation(
        zwp_pointer_gestures_v1_interface(
            get_swipe_gesture: { _, resource, id, pointer in
                handle(resource, as: PointerGesturesBinding.self) {
                    try $0.handleGetGestureRequest(.swipe, id: id, pointer: pointer)
                }
            },
            get_pinch_gesture: { _, resource, id, pointer in
                handle(resource, as: PointerGesturesBinding.self) {
                    try $0.handleGetGestureRequest(.pinch, id: id, pointer: pointer)
                }
            },
            release: destroyRequest,
            get_hold_gesture: { _, resource, id, pointer in
                handle(resource, as: PointerGesturesBinding.self) {
                    try $0.handleGetGestureRequest(.hold, id: id, pointer: pointer)
                }
            }))
}
