import CStrataServerGlue
import CWaylandServer

/// The seat's touchpad gestures (zwp_pointer_gestures_v1): at most one at a time, as the spec
/// asks. A gesture belongs to the surface that had the pointer focus when it began, until it
/// ends: its client's gesture objects of that kind are told begin, each update and end. A new
/// begin while one lasts ends the old one as cancelled; so does the death of its surface and a
/// change of the session lock.
///
/// The gesture objects are kept per client, each knowing its place in its client's list, so
/// making or destroying one costs the same however many there are, and a gesture's events
/// cost what its own client made (at most `ClientBudget.maxPointerGesturesPerClient`).
final class PointerGestureTracker {
    unowned let seat: Seat
    private var gesturesByClient: [OpaquePointer: [PointerGesture]] = [:]

    /// Most fingers a gesture reports (a touchpad senses up to five; ten hands' worth is room).
    static let maximumFingers: UInt32 = 10

    private struct Active {
        let kind: PointerGestureKind
        weak var surface: Surface?
        /// The surface's client: its gesture objects are told the events.
        let client: OpaquePointer?
    }
    private var active: Active?

    init(seat: Seat) {
        self.seat = seat
    }

    /// The kind of the gesture in progress (nil: none).
    var activeKind: PointerGestureKind? { active?.kind }

    // MARK: Objects

    func hasRoom(for client: OpaquePointer) -> Bool {
        (gesturesByClient[client]?.count ?? 0) < ClientBudget.maxPointerGesturesPerClient
    }

    func add(_ gesture: PointerGesture) {
        gesture.slot = gesturesByClient[gesture.client]?.count ?? 0
        gesturesByClient[gesture.client, default: []].append(gesture)
    }

    func remove(_ gesture: PointerGesture) {
        guard var list = gesturesByClient[gesture.client], gesture.slot >= 0, gesture.slot < list.count,
            list[gesture.slot] === gesture
        else { return }
        let last = list.removeLast()
        if last !== gesture {
            list[gesture.slot] = last
            last.slot = gesture.slot
        }
        gesture.slot = -1
        gesturesByClient[gesture.client] = list.isEmpty ? nil : list
    }

    // MARK: Input

    func begin(_ kind: PointerGestureKind, fingers: UInt32, time: UInt32) {
        if active != nil { end(cancelled: true, time: time) }
        let fingers = min(max(fingers, 1), Self.maximumFingers)
        guard let surface = seat.pointerFocus, !surface.isDestroyed else {
            // Nobody under the pointer: the gesture happens, and is told to nobody.
            active = Active(kind: kind, surface: nil, client: nil)
            return
        }
        active = Active(kind: kind, surface: surface, client: surface.client)
        var serial: UInt32?
        for gesture in gesturesByClient[surface.client] ?? [] where gesture.kind == kind && gesture.isLive {
            let s = serial ?? seat.nextSerial()
            serial = s
            gesture.isInGesture = true
            gesture.sendBegin(serial: s, time: time, surface: surface, fingers: fingers)
        }
    }

    /// A swipe's or pinch's motion (a hold has none): dx, dy in surface units since the last
    /// event; a pinch's scale since its begin (1: unchanged) and rotation in degrees clockwise
    /// since the last event. Numbers beyond wl_fixed's range saturate; a scale below 0 is 0.
    func update(dx: Double, dy: Double, scale: Double, rotation: Double, time: UInt32) {
        guard let active, active.kind != .hold, let client = active.client,
            let surface = active.surface, !surface.isDestroyed
        else { return }
        let fx = WireFixed.clamped(dx), fy = WireFixed.clamped(dy)
        let fscale = WireFixed.clamped(max(scale, 0)), frotation = WireFixed.clamped(rotation)
        for gesture in gesturesByClient[client] ?? [] where gesture.isInGesture && gesture.isLive {
            gesture.sendUpdate(time: time, dx: fx, dy: fy, scale: fscale, rotation: frotation)
        }
    }

    func end(cancelled: Bool, time: UInt32) {
        guard let ending = active else { return }
        active = nil
        guard let client = ending.client, let surface = ending.surface, !surface.isDestroyed else { return }
        sendEnd(to: client, cancelled: cancelled, time: time)
    }

    /// The session locked or unlocked: the gesture in progress ends, cancelled.
    func cancel() {
        end(cancelled: true, time: seat.compositor.clock.milliseconds)
    }

    /// The gesture's surface dies: its client is told the gesture ended, cancelled (the surface
    /// is still valid in its destroy path); what follows of it goes to nobody.
    func surfaceWillDestroy(_ surface: Surface) {
        guard let current = active, current.surface === surface, let client = current.client else { return }
        active = Active(kind: current.kind, surface: nil, client: nil)
        sendEnd(to: client, cancelled: true, time: seat.compositor.clock.milliseconds)
    }

    private func sendEnd(to client: OpaquePointer, cancelled: Bool, time: UInt32) {
        var serial: UInt32?
        for gesture in gesturesByClient[client] ?? [] where gesture.isInGesture {
            gesture.isInGesture = false
            guard gesture.isLive else { continue }
            let s = serial ?? seat.nextSerial()
            serial = s
            gesture.sendEnd(serial: s, time: time, cancelled: cancelled)
        }
    }
}
