import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_virtual_pointer_manager_v1 v2 (privileged): pointer motion, buttons and scrolling a client
/// sends, injected into the seat. Absolute motion maps the extent onto the screen the pointer was
/// created for (v2 `create_virtual_pointer_with_output`), else onto the bounding box of all screens.
/// Events wait for `frame`, which injects them as one group: the seat's wl_pointers get them with
/// one wl_pointer.frame (scrolling with its axis_source, discrete steps and axis_stop).
public enum VirtualPointerManager {
    static let version: UInt32 = 2
    /// A client that never sends `frame` cannot grow a virtual pointer's queue without bound: at
    /// this many events the queue is injected as if a frame had come.
    public static let maximumPendingEvents = 1024

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_zwlr_virtual_pointer_manager_v1_interface(), version: version
        ) { [unowned compositor] client, version, id in
            _ = VirtualPointerManagerBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class VirtualPointerManagerBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zwlr_virtual_pointer_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_virtual_pointer_manager_v1_interface(
            create_virtual_pointer: { _, resource, _, id in
                handle(resource, as: VirtualPointerManagerBinding.self) { manager in
                    _ = VirtualPointer(
                        compositor: manager.compositor, client: manager.client, version: manager.version, id: id,
                        output: nil)
                }
            },
            destroy: destroyRequest,
            create_virtual_pointer_with_output: { _, resource, _, output, id in
                handle(resource, as: VirtualPointerManagerBinding.self) { manager in
                    let screen = ResourceObject.from(output, as: OutputBinding.self)?.output
                    _ = VirtualPointer(
                        compositor: manager.compositor, client: manager.client, version: manager.version, id: id,
                        output: screen)
                }
            }))
}

final class VirtualPointer: ResourceObject {
    unowned let compositor: Compositor
    private weak var output: ScreenOutput?
    private var pressed: Set<UInt32> = []

    /// A request waiting for `frame`.
    private enum Event {
        case motion(dx: Double, dy: Double)
        case absolute(x: UInt32, y: UInt32, width: UInt32, height: UInt32)
        case button(UInt32, pressed: Bool)
        case axis(vertical: Bool, value: Double, steps: Int32)
        case stop(vertical: Bool)
        case source(UInt32)
    }

    private var pending: [Event] = []
    private var pendingTime: UInt32 = 0

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32, output: ScreenOutput?) {
        self.compositor = compositor
        self.output = output
        super.init(
            client: client, interface: strata_zwlr_virtual_pointer_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    private static func checkAxis(_ axis: UInt32) throws(ProtocolError) {
        guard axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue else {
            throw ProtocolError(
                code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "axis \(axis) is not a wl_pointer.axis")
        }
    }

    static let implementation = makeImplementation(
        zwlr_virtual_pointer_v1_interface(
            motion: { _, resource, time, dx, dy in
                handle(resource, as: VirtualPointer.self) { pointer in
                    pointer.enqueue(.motion(dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy)), time: time)
                }
            },
            motion_absolute: { _, resource, time, x, y, width, height in
                handle(resource, as: VirtualPointer.self) { pointer in
                    pointer.enqueue(.absolute(x: x, y: y, width: width, height: height), time: time)
                }
            },
            button: { _, resource, time, button, state in
                handle(resource, as: VirtualPointer.self) { pointer in
                    pointer.enqueue(.button(button, pressed: state != 0), time: time)
                }
            },
            axis: { _, resource, time, axis, value in
                handle(resource, as: VirtualPointer.self) { pointer throws(ProtocolError) in
                    try checkAxis(axis)
                    pointer.enqueue(
                        .axis(
                            vertical: axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue,
                            value: wl_fixed_to_double(value), steps: 0),
                        time: time)
                }
            },
            frame: { _, resource in
                handle(resource, as: VirtualPointer.self) { $0.injectPending() }
            },
            axis_source: { _, resource, source in
                handle(resource, as: VirtualPointer.self) { pointer throws(ProtocolError) in
                    guard source <= WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue else {
                        throw ProtocolError(
                            code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE.rawValue,
                            "axis source \(source) is not a wl_pointer.axis_source")
                    }
                    pointer.enqueue(.source(source), time: nil)
                }
            },
            axis_stop: { _, resource, time, axis in
                handle(resource, as: VirtualPointer.self) { pointer throws(ProtocolError) in
                    try checkAxis(axis)
                    pointer.enqueue(.stop(vertical: axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue), time: time)
                }
            },
            axis_discrete: { _, resource, time, axis, value, discrete in
                handle(resource, as: VirtualPointer.self) { pointer throws(ProtocolError) in
                    try checkAxis(axis)
                    pointer.enqueue(
                        .axis(
                            vertical: axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue,
                            value: wl_fixed_to_double(value), steps: discrete),
                        time: time)
                }
            },
            destroy: destroyRequest))

    private func enqueue(_ event: Event, time: UInt32?) {
        pending.append(event)
        if let time { pendingTime = time }
        if pending.count >= VirtualPointerManager.maximumPendingEvents { injectPending() }
    }

    /// `frame`: the queued events reach the seat in order as one group. Consecutive motions
    /// become one move; the scrolling of the frame is sent once, after the moves and buttons.
    private func injectPending() {
        let events = pending
        pending.removeAll()
        guard !events.isEmpty else { return }
        let time = pendingTime
        var target: (x: Double, y: Double)?
        var scroll = PointerScroll()
        compositor.seat.pointerFrame {
            for event in events {
                switch event {
                case .motion(let dx, let dy):
                    guard dx.isFinite, dy.isFinite else { continue }
                    // Under a pointer constraint the motion is a mouse's delta: a lock keeps the
                    // pointer and passes the delta to relative-pointer clients, a confinement
                    // clamps it.
                    if compositor.seat.pointerConstraint != nil {
                        if let point = target { move(time: time, globalX: point.x, globalY: point.y) }
                        target = nil
                        compositor.seat.pointerMotion(dx: dx, dy: dy, time: time)
                        continue
                    }
                    guard let from = target ?? currentPosition() else { continue }
                    target = (from.x + dx, from.y + dy)
                case .absolute(let x, let y, let width, let height):
                    if let point = absolutePoint(x: x, y: y, width: width, height: height) { target = point }
                case .button(let button, let isPressed):
                    if let point = target { move(time: time, globalX: point.x, globalY: point.y) }
                    target = nil
                    self.button(button, pressed: isPressed, time: time)
                case .axis(let vertical, let value, let steps):
                    guard value.isFinite else { continue }
                    if vertical {
                        scroll.vertical += value
                        scroll.verticalSteps = scroll.verticalSteps.addingReportingOverflow(steps).partialValue
                    } else {
                        scroll.horizontal += value
                        scroll.horizontalSteps = scroll.horizontalSteps.addingReportingOverflow(steps).partialValue
                    }
                case .stop(let vertical):
                    if vertical { scroll.verticalStop = true } else { scroll.horizontalStop = true }
                case .source(let source):
                    scroll.source = source
                }
            }
            if let point = target { move(time: time, globalX: point.x, globalY: point.y) }
            if scroll.vertical.isFinite, scroll.horizontal.isFinite {
                compositor.seat.pointerScroll(scroll, time: time)
            }
        }
    }

    /// The pointer's position in the global layout (the first screen's origin before any motion).
    private func currentPosition() -> (x: Double, y: Double)? {
        let current = compositor.seat.pointerPosition ?? compositor.scene.outputs.first.map { ($0, 0.0, 0.0) }
        guard let (output, x, y) = current else { return nil }
        let origin = output.screen.bounds
        return (Double(origin.x) + x, Double(origin.y) + y)
    }

    private func absolutePoint(x: UInt32, y: UInt32, width: UInt32, height: UInt32) -> (x: Double, y: Double)? {
        guard width > 0, height > 0 else { return nil }
        let area: Rect
        if let output {
            area = output.screen.bounds
        } else {
            guard let first = compositor.scene.outputs.first?.screen.bounds else { return nil }
            area = compositor.scene.outputs.dropFirst().reduce(first) { $0.union($1.screen.bounds) }
        }
        return (
            Double(area.x) + Double(area.width) * Double(min(x, width)) / Double(width),
            Double(area.y) + Double(area.height) * Double(min(y, height)) / Double(height)
        )
    }

    /// Moves the pointer to a point of the global layout: onto the screen holding it, else clamped
    /// into the nearest screen.
    private func move(time: UInt32, globalX: Double, globalY: Double) {
        let outputs = compositor.scene.outputs
        func distance(_ b: Rect) -> Double {
            let cx = min(max(globalX, Double(b.x)), Double(b.x + b.width - 1))
            let cy = min(max(globalY, Double(b.y)), Double(b.y + b.height - 1))
            return abs(cx - globalX) + abs(cy - globalY)
        }
        guard let target = outputs.min(by: { distance($0.screen.bounds) < distance($1.screen.bounds) }) else { return }
        let b = target.screen.bounds
        let x = min(max(globalX, Double(b.x)), Double(b.x + b.width) - 1) - Double(b.x)
        let y = min(max(globalY, Double(b.y)), Double(b.y + b.height) - 1) - Double(b.y)
        compositor.seat.pointerMotion(on: target, x: x, y: y, time: time)
    }

    private func button(_ button: UInt32, pressed isPressed: Bool, time: UInt32) {
        if isPressed {
            guard pressed.insert(button).inserted else { return }
        } else {
            guard pressed.remove(button) != nil else { return }
        }
        compositor.seat.pointerButton(button, pressed: isPressed, time: time)
    }

    override func resourceDidDestroy() {
        let time = compositor.clock.milliseconds
        for button in pressed { compositor.seat.pointerButton(button, pressed: false, time: time) }
        pressed.removeAll()
    }
}
