import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_virtual_pointer_manager_v1 v2 (privileged): pointer motion, buttons and scrolling a client
/// sends, injected into the seat. Absolute motion maps the extent onto the screen the pointer was
/// created for (v2 `create_virtual_pointer_with_output`), else onto the bounding box of all screens.
/// `frame`, `axis_source`, `axis_stop` and `axis_discrete` are accepted; the seat frames each
/// event itself.
enum VirtualPointerManager {
    static let version: UInt32 = 2

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwlr_virtual_pointer_manager_v1_interface(), version: version) { [unowned compositor] client, version, id in
            _ = VirtualPointerManagerBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class VirtualPointerManagerBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(client: client, interface: strata_zwlr_virtual_pointer_manager_v1_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    static let implementation = makeImplementation(zwlr_virtual_pointer_manager_v1_interface(
        create_virtual_pointer: { _, resource, _, id in
            handle(resource, as: VirtualPointerManagerBinding.self) { manager in
                _ = VirtualPointer(compositor: manager.compositor, client: manager.client, version: manager.version, id: id, output: nil)
            }
        },
        destroy: destroyRequest,
        create_virtual_pointer_with_output: { _, resource, _, output, id in
            handle(resource, as: VirtualPointerManagerBinding.self) { manager in
                let screen = ResourceObject.from(output, as: OutputBinding.self)?.output
                _ = VirtualPointer(compositor: manager.compositor, client: manager.client, version: manager.version, id: id, output: screen)
            }
        }))
}

final class VirtualPointer: ResourceObject {
    unowned let compositor: Compositor
    private weak var output: ScreenOutput?
    private var pressed: Set<UInt32> = []

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32, output: ScreenOutput?) {
        self.compositor = compositor
        self.output = output
        super.init(client: client, interface: strata_zwlr_virtual_pointer_v1_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    static let implementation = makeImplementation(zwlr_virtual_pointer_v1_interface(
        motion: { _, resource, time, dx, dy in
            handle(resource, as: VirtualPointer.self) { pointer in
                pointer.motion(time: time, dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy))
            }
        },
        motion_absolute: { _, resource, time, x, y, width, height in
            handle(resource, as: VirtualPointer.self) { pointer in
                pointer.absolute(time: time, x: x, y: y, width: width, height: height)
            }
        },
        button: { _, resource, time, button, state in
            handle(resource, as: VirtualPointer.self) { pointer in pointer.button(button, pressed: state != 0, time: time) }
        },
        axis: { _, resource, time, axis, value in
            handle(resource, as: VirtualPointer.self) { pointer in
                guard axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue else {
                    throw ProtocolError(code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "axis \(axis) is not a wl_pointer.axis")
                }
                let amount = wl_fixed_to_double(value)
                let vertical = axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
                pointer.compositor.seat.pointerAxis(vertical: vertical ? amount : 0, horizontal: vertical ? 0 : amount, time: time)
            }
        },
        frame: { _, _ in },
        axis_source: { _, resource, source in
            handle(resource, as: VirtualPointer.self) { _ in
                guard source <= WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue else {
                    throw ProtocolError(code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE.rawValue, "axis source \(source) is not a wl_pointer.axis_source")
                }
            }
        },
        axis_stop: { _, resource, _, axis in
            handle(resource, as: VirtualPointer.self) { _ in
                guard axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue else {
                    throw ProtocolError(code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "axis \(axis) is not a wl_pointer.axis")
                }
            }
        },
        axis_discrete: { _, resource, time, axis, value, _ in
            handle(resource, as: VirtualPointer.self) { pointer in
                guard axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue else {
                    throw ProtocolError(code: ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "axis \(axis) is not a wl_pointer.axis")
                }
                let amount = wl_fixed_to_double(value)
                let vertical = axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue
                pointer.compositor.seat.pointerAxis(vertical: vertical ? amount : 0, horizontal: vertical ? 0 : amount, time: time)
            }
        },
        destroy: destroyRequest))

    private func motion(time: UInt32, dx: Double, dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        // Under a pointer constraint the motion is a mouse's delta: a lock keeps the pointer and
        // passes the delta to relative-pointer clients, a confinement clamps it.
        if compositor.seat.pointerConstraint != nil {
            compositor.seat.pointerMotion(dx: dx, dy: dy, time: time)
            return
        }
        let current = compositor.seat.pointerPosition ?? compositor.outputs.first.map { ($0, 0.0, 0.0) }
        guard let (output, x, y) = current else { return }
        let origin = output.screen.bounds
        move(time: time, globalX: Double(origin.x) + x + dx, globalY: Double(origin.y) + y + dy)
    }

    private func absolute(time: UInt32, x: UInt32, y: UInt32, width: UInt32, height: UInt32) {
        guard width > 0, height > 0 else { return }
        let area: Rect
        if let output { area = output.screen.bounds } else {
            guard let first = compositor.outputs.first?.screen.bounds else { return }
            area = compositor.outputs.dropFirst().reduce(first) { $0.union($1.screen.bounds) }
        }
        move(time: time, globalX: Double(area.x) + Double(area.width) * Double(min(x, width)) / Double(width),
             globalY: Double(area.y) + Double(area.height) * Double(min(y, height)) / Double(height))
    }

    /// Moves the pointer to a point of the global layout: onto the screen holding it, else clamped
    /// into the nearest screen.
    private func move(time: UInt32, globalX: Double, globalY: Double) {
        let outputs = compositor.outputs
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
        if isPressed { guard pressed.insert(button).inserted else { return } } else {
            guard pressed.remove(button) != nil else { return }
        }
        compositor.seat.pointerButton(button, pressed: isPressed, time: time)
    }

    override func resourceDidDestroy() {
        let time = Compositor.monotonicMilliseconds()
        for button in pressed { compositor.seat.pointerButton(button, pressed: false, time: time) }
        pressed.removeAll()
    }
}
