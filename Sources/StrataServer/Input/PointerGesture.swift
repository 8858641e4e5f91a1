import CStrataServerGlue
import CWaylandServer

/// zwp_pointer_gesture_swipe_v1, zwp_pointer_gesture_pinch_v1 or zwp_pointer_gesture_hold_v1 of
/// one wl_pointer: told begin, update and end of the gestures of its kind while its client has
/// the pointer focus. Inert once its wl_pointer is released.
final class PointerGesture: ResourceObject {
    let kind: PointerGestureKind
    private weak var binding: PointerBinding?
    /// The tracker that lists it (kept apart from `binding`, which may die first).
    private weak var tracker: PointerGestureTracker?
    /// Its place in the tracker's list of its client's gestures (O(1) removal).
    var slot = -1
    /// Told the current gesture's begin (so it is told its updates and end).
    var isInGesture = false

    init?(kind: PointerGestureKind, client: OpaquePointer, version: UInt32, id: UInt32, binding: PointerBinding?) {
        self.kind = kind
        self.binding = binding
        tracker = binding?.pointer.seat.gestures
        let interface: UnsafePointer<wl_interface>!
        let implementation: UnsafeRawPointer
        switch kind {
        case .swipe:
            (interface, implementation) = (strata_zwp_pointer_gesture_swipe_v1_interface(), Self.swipeImplementation)
        case .pinch:
            (interface, implementation) = (strata_zwp_pointer_gesture_pinch_v1_interface(), Self.pinchImplementation)
        case .hold:
            (interface, implementation) = (strata_zwp_pointer_gesture_hold_v1_interface(), Self.holdImplementation)
        }
        super.init(client: client, interface: interface, version: version, id: id, implementation: implementation)
    }

    override func resourceDidDestroy() {
        tracker?.remove(self)
    }

    /// Whether events may go to it: alive, and its wl_pointer too.
    var isLive: Bool {
        guard !isDestroyed, let binding else { return false }
        return !binding.isDestroyed
    }

    func sendBegin(serial: UInt32, time: UInt32, surface: Surface, fingers: UInt32) {
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_begin(resource, serial, time, surface.resource, fingers)
        case .pinch: zwp_pointer_gesture_pinch_v1_send_begin(resource, serial, time, surface.resource, fingers)
        case .hold: zwp_pointer_gesture_hold_v1_send_begin(resource, serial, time, surface.resource, fingers)
        }
    }

    func sendUpdate(time: UInt32, dx: wl_fixed_t, dy: wl_fixed_t, scale: wl_fixed_t, rotation: wl_fixed_t) {
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_update(resource, time, dx, dy)
        case .pinch: zwp_pointer_gesture_pinch_v1_send_update(resource, time, dx, dy, scale, rotation)
        case .hold: break
        }
    }

    func sendEnd(serial: UInt32, time: UInt32, cancelled: Bool) {
        let flag: Int32 = cancelled ? 1 : 0
        switch kind {
        case .swipe: zwp_pointer_gesture_swipe_v1_send_end(resource, serial, time, flag)
        case .pinch: zwp_pointer_gesture_pinch_v1_send_end(resource, serial, time, flag)
        case .hold: zwp_pointer_gesture_hold_v1_send_end(resource, serial, time, flag)
        }
    }

    static let swipeImplementation = makeImplementation(zwp_pointer_gesture_swipe_v1_interface(destroy: destroyRequest))
    static let pinchImplementation = makeImplementation(zwp_pointer_gesture_pinch_v1_interface(destroy: destroyRequest))
    static let holdImplementation = makeImplementation(zwp_pointer_gesture_hold_v1_interface(destroy: destroyRequest))
}
