import CStrataServerGlue
import CWaylandServer
import StrataModel

/// The seat's touch screen: each touch point (by id) belongs to the surface under its down,
/// until up or cancel. A down is offered to the key-window policy like a click; during a popup
/// grab a down outside the grabbing client dismisses the popups and is not delivered.
final class Touch {
    unowned let seat: Seat
    var bindings: [TouchBinding] = []
    private var points: [Int32: TouchPoint] = [:]

    private struct TouchPoint {
        weak var surface: Surface?
        weak var output: ScreenOutput?
        /// Where the point is on its screen, and where its surface was last told it is.
        var x: Double
        var y: Double
        var local: (x: Double, y: Double)
        /// The serial of its down (start_drag quotes it).
        var serial: UInt32 = 0
        /// The point drives a drag: its events go to the drag, none to its surface's client.
        var isDrag = false
    }

    init(seat: Seat) {
        self.seat = seat
    }

    func createBinding(client: OpaquePointer, version: UInt32, id: UInt32) {
        guard let binding = TouchBinding(touch: self, client: client, version: version, id: id) else { return }
        bindings.append(binding)
    }

    func down(id: Int32, on output: ScreenOutput, x: Double, y: Double, time: UInt32) {
        guard points[id] == nil else { return }
        if seat.compositor.windows.isLocked {
            // Only lock surfaces take touches while the session is locked (no window to offer).
            guard let hit = seat.compositor.scene.lockSurface(at: x, y, on: output), !hit.surface.isDestroyed else {
                return
            }
            let surface = hit.surface
            points[id] = TouchPoint(surface: surface, output: output, x: x, y: y, local: (hit.x, hit.y))
            let serial = seat.nextSerial()
            seat.recordInputSerial(serial, kind: .touch, client: surface.client, surface: surface, window: nil)
            send(to: surface.client) {
                wl_touch_send_down(
                    $0.resource, serial, time, surface.resource, id, wl_fixed_from_double(hit.x),
                    wl_fixed_from_double(hit.y))
            }
            return
        }
        guard let hit = seat.compositor.scene.surface(at: x, y, on: output), !hit.surface.isDestroyed else {
            seat.dismissPopupGrabs()
            return
        }
        guard seat.acceptsPointerFocus(hit.surface.client) else {
            seat.dismissPopupGrabs()
            return
        }
        let surface = hit.surface
        let serial = seat.nextSerial()
        points[id] = TouchPoint(surface: surface, output: output, x: x, y: y, local: (hit.x, hit.y), serial: serial)
        seat.recordInputSerial(serial, kind: .touch, client: surface.client, surface: surface, window: hit.window)
        seat.compositor.withInputCause(.touch, request: "touch-down") {
            seat.compositor.windows.pointerDidClick(hit.window)
        }
        guard !surface.isDestroyed else { return }
        send(to: surface.client) {
            wl_touch_send_down(
                $0.resource, serial, time, surface.resource, id, wl_fixed_from_double(hit.x),
                wl_fixed_from_double(hit.y))
        }
    }

    func motion(id: Int32, x: Double, y: Double, time: UInt32) {
        if let point = points[id], point.isDrag {
            points[id]?.x = x
            points[id]?.y = y
            if let output = point.output, let drag = seat.drag, drag.touchID == id {
                drag.motion(on: output, x: x, y: y, time: time)
            }
            return
        }
        guard var point = points[id], let surface = point.surface, !surface.isDestroyed,
            let p = surface.placement, let output = point.output, p.screen == output.screen.id
        else { return }
        let lx = x - Double(p.x), ly = y - Double(p.y)
        point.x = x
        point.y = y
        point.local = (lx, ly)
        points[id] = point
        send(to: surface.client) {
            wl_touch_send_motion($0.resource, time, id, wl_fixed_from_double(lx), wl_fixed_from_double(ly))
        }
    }

    /// Surfaces moved (a window, or a subsurface at its parent's commit): a touch point held
    /// still over a surface that moved is told its new surface-local position with a motion,
    /// as the pointer is. The point stays with its surface (wl_touch: until up).
    func surfacesDidMove() {
        guard !points.isEmpty else { return }
        for (id, point) in points {
            guard !point.isDrag, let surface = point.surface, !surface.isDestroyed, let p = surface.placement,
                let output = point.output, p.screen == output.screen.id
            else { continue }
            let lx = point.x - Double(p.x), ly = point.y - Double(p.y)
            guard (lx, ly) != point.local else { continue }
            points[id]?.local = (lx, ly)
            let time = seat.compositor.clock.milliseconds
            send(to: surface.client) {
                wl_touch_send_motion($0.resource, time, id, wl_fixed_from_double(lx), wl_fixed_from_double(ly))
            }
        }
    }

    func up(id: Int32, time: UInt32) {
        if let point = points[id], point.isDrag {
            points[id] = nil
            if let drag = seat.drag, drag.touchID == id { drag.drop() }
            return
        }
        guard let point = points.removeValue(forKey: id), let surface = point.surface, !surface.isDestroyed else {
            return
        }
        let serial = seat.nextSerial()
        send(to: surface.client) { wl_touch_send_up($0.resource, serial, time, id) }
    }

    func cancel() {
        if let drag = seat.drag, drag.touchID != nil { drag.cancel(.cancelled) }
        var clients: [OpaquePointer] = []
        for point in points.values where !point.isDrag {
            if let surface = point.surface, !surface.isDestroyed, !clients.contains(surface.client) {
                clients.append(surface.client)
            }
        }
        points.removeAll()
        for client in clients {
            for binding in bindings where binding.client == client && !binding.isDestroyed {
                wl_touch_send_cancel(binding.resource)
            }
        }
    }

    /// The touch points on a dying surface end: their client gets wl_touch.up for each (as Mir
    /// does; the sequence cannot continue without its surface).
    func surfaceWillDestroy(_ surface: Surface) {
        let ended = points.filter { $0.value.surface === surface && !$0.value.isDrag }.keys.sorted()
        points = points.filter { $0.value.surface != nil && $0.value.surface !== surface }
        guard !ended.isEmpty else { return }
        let time = seat.compositor.clock.milliseconds
        for id in ended {
            let serial = seat.nextSerial()
            send(to: surface.client) { wl_touch_send_up($0.resource, serial, time, id) }
        }
    }

    // MARK: Drag and drop

    /// Where a drag quoting `serial` from `client` on `origin` starts: the touch point whose down
    /// had that serial, still held on `origin` or one of its subsurfaces.
    func dragStart(serial: UInt32, client: OpaquePointer, origin: Surface) -> (
        id: Int32, output: ScreenOutput, x: Double, y: Double
    )? {
        for (id, point) in points where point.serial == serial && !point.isDrag {
            guard let surface = point.surface, !surface.isDestroyed, surface.client == client,
                Drag.isOrigin(origin, of: surface), let output = point.output
            else { return nil }
            return (id, output, point.x, point.y)
        }
        return nil
    }

    /// The point `id` drives a drag from now on (until its up).
    func beginDrag(id: Int32) {
        points[id]?.isDrag = true
    }

    /// The drag ended: its point, if still down, stays quiet until its up.
    func dragDidEnd() {}

    /// Sends one event and its wl_touch.frame to the client's touch objects.
    private func send(to client: OpaquePointer, _ body: (TouchBinding) -> Void) {
        for binding in bindings where binding.client == client && !binding.isDestroyed {
            body(binding)
            wl_touch_send_frame(binding.resource)
        }
    }
}

/// One client's wl_touch.
final class TouchBinding: ResourceObject {
    unowned let touch: Touch

    init?(touch: Touch, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.touch = touch
        super.init(
            client: client, interface: strata_wl_touch_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        touch.bindings.removeAll { $0 === self }
        touch.seat.forgetClientIfUnused(client)
    }

    static let implementation = makeImplementation(wl_touch_interface(release: destroyRequest))
}
