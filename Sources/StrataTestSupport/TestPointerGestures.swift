import CStrataClientGlue
import CWaylandClient

/// A test client's zwp_pointer_gestures_v1 and the gesture objects it made, recording every
/// event of them in order as text: `swipe.begin(serial, surface, fingers)`,
/// `pinch.update(dx, dy, scale, rotation)`, `hold.end(serial, cancelled)` (surfaces by object id).
public final class TestPointerGestures {
    public let manager: OpaquePointer
    public private(set) var events: [String] = []
    /// The serials of the begin and end events, in order.
    public private(set) var serials: [UInt32] = []

    public init(client: TestClient, version: UInt32 = 3) throws {
        manager = try client.bind(zwp_pointer_gestures_v1_interface_ptr(), version: version)
    }

    public func swipe(pointer: OpaquePointer) -> OpaquePointer? {
        guard let made = zwp_pointer_gestures_v1_get_swipe_gesture(manager, pointer) else { return nil }
        zwp_pointer_gesture_swipe_v1_add_listener(made, &Self.swipeListener, me)
        return made
    }

    public func pinch(pointer: OpaquePointer) -> OpaquePointer? {
        guard let made = zwp_pointer_gestures_v1_get_pinch_gesture(manager, pointer) else { return nil }
        zwp_pointer_gesture_pinch_v1_add_listener(made, &Self.pinchListener, me)
        return made
    }

    public func hold(pointer: OpaquePointer) -> OpaquePointer? {
        guard let made = zwp_pointer_gestures_v1_get_hold_gesture(manager, pointer) else { return nil }
        zwp_pointer_gesture_hold_v1_add_listener(made, &Self.holdListener, me)
        return made
    }

    /// The events since the last call; clears them.
    public func takeEvents() -> [String] {
        defer { events.removeAll() }
        return events
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPointerGestures? {
        data.map { Unmanaged<TestPointerGestures>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func id(_ proxy: OpaquePointer?) -> UInt32 { proxy.map { wl_proxy_get_id($0) } ?? 0 }
    private static func d(_ f: wl_fixed_t) -> Double { wl_fixed_to_double(f) }

    private func begin(_ kind: String, _ serial: UInt32, _ surface: OpaquePointer?, _ fingers: UInt32) {
        serials.append(serial)
        events.append("\(kind).begin(\(Self.id(surface)), \(fingers))")
    }

    private func end(_ kind: String, _ serial: UInt32, _ cancelled: Int32) {
        serials.append(serial)
        events.append("\(kind).end(\(cancelled))")
    }

    private static var swipeListener = zwp_pointer_gesture_swipe_v1_listener(
        begin: { data, _, serial, _, surface, fingers in from(data)?.begin("swipe", serial, surface, fingers) },
        update: { data, _, _, dx, dy in from(data)?.events.append("swipe.update(\(d(dx)), \(d(dy)))") },
        end: { data, _, serial, _, cancelled in from(data)?.end("swipe", serial, cancelled) })
    private static var pinchListener = zwp_pointer_gesture_pinch_v1_listener(
        begin: { data, _, serial, _, surface, fingers in from(data)?.begin("pinch", serial, surface, fingers) },
        update: { data, _, _, dx, dy, scale, rotation in
            from(data)?.events.append("pinch.update(\(d(dx)), \(d(dy)), \(d(scale)), \(d(rotation)))")
        },
        end: { data, _, serial, _, cancelled in from(data)?.end("pinch", serial, cancelled) })
    private static var holdListener = zwp_pointer_gesture_hold_v1_listener(
        begin: { data, _, serial, _, surface, fingers in from(data)?.begin("hold", serial, surface, fingers) },
        end: { data, _, serial, _, cancelled in from(data)?.end("hold", serial, cancelled) })
}
