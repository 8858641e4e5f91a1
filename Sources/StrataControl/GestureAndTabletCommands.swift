import StrataControlProtocol
import StrataModel
import StrataServer

/// `gesture` and `tablet`: touchpad gestures and tablet tool input injected through the seat
/// (docs/control.md), as a backend's would arrive.
extension ControlCommands {
    private var seat: Seat { compositor.seat }
    private var now: UInt32 { compositor.clock.milliseconds }

    /// Fingers a gesture may name (the seat's own limit).
    static let gestureFingers = 1...10
    /// A gesture's motion per event, in surface units (a screen's width is a few thousand).
    static let gestureDeltaRange = -1_000_000.0...1_000_000.0
    static let pinchScaleRange = 0.0...1_000.0
    static let pinchRotationRange = -360.0...360.0

    private func number(_ request: ControlRequest, _ name: String, in range: ClosedRange<Double>) throws(ControlError)
        -> Double?
    {
        guard let value = try request.optionalDouble(name) else { return nil }
        guard range.contains(value) else {
            throw ControlError(
                .invalidArgument,
                "\"\(name)\" must be between \(Self.describe(range.lowerBound)) and \(Self.describe(range.upperBound))")
        }
        return value
    }

    private static func describe(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    /// `gesture`: `kind` swipe, pinch or hold; `phase` begin (with `fingers`), update (`dx`,
    /// `dy`; a pinch's `scale` and `rotation`), end (`cancelled`) or cancel.
    func gesture(_ request: ControlRequest) throws(ControlError) -> Reply {
        let kindName = try request.string("kind")
        guard let kind = PointerGestureKind(rawValue: kindName) else {
            throw ControlError(.invalidArgument, "\"\(kindName)\" is not a gesture: use swipe, pinch or hold")
        }
        let time = now
        let phase = try request.string("phase")
        switch phase {
        case "begin":
            let fingers = try request.int("fingers", in: Self.gestureFingers)
            seat.pointerGestureBegin(kind, fingers: UInt32(fingers), time: time)
        case "update":
            guard kind != .hold else {
                throw ControlError(.invalidArgument, "a hold gesture has no update: use begin and end")
            }
            guard seat.pointerGestureInProgress == kind else {
                throw ControlError(.invalidArgument, "no \(kind.rawValue) gesture is in progress: begin one first")
            }
            let dx = try number(request, "dx", in: Self.gestureDeltaRange) ?? 0
            let dy = try number(request, "dy", in: Self.gestureDeltaRange) ?? 0
            var scale = 1.0, rotation = 0.0
            if kind == .pinch {
                scale = try number(request, "scale", in: Self.pinchScaleRange) ?? 1
                rotation = try number(request, "rotation", in: Self.pinchRotationRange) ?? 0
            } else if request.has("scale") || request.has("rotation") {
                throw ControlError(.invalidArgument, "only a pinch has a scale and a rotation")
            }
            seat.pointerGestureUpdate(dx: dx, dy: dy, scale: scale, rotation: rotation, time: time)
        case "end", "cancel":
            guard seat.pointerGestureInProgress == kind else {
                throw ControlError(.invalidArgument, "no \(kind.rawValue) gesture is in progress: begin one first")
            }
            let asked = try request.optionalBool("cancelled") ?? false
            let cancelled = phase == "cancel" || asked
            seat.pointerGestureEnd(cancelled: cancelled, time: time)
        case let other:
            throw ControlError(
                .invalidArgument, "\"\(other)\" is not a gesture phase: use begin, update, end or cancel")
        }
        var reply: Reply = ["in_progress": seat.pointerGestureInProgress.map { .string($0.rawValue) } ?? .null]
        if let surface = seat.pointerFocus, let window = compositor.scene.window(showing: surface) {
            reply["window"] = JSONValue(window.id.rawValue)
        }
        return reply
    }

    /// `tablet`: one frame of a tablet tool. `phase` in/move (with `x`, `y`, optional `screen`),
    /// down, up, button (`button`, `state`), axes or out; the tool is `tool` (pen, eraser, brush,
    /// pencil, airbrush, finger, mouse, lens; default pen) with hardware `serial` (default 1);
    /// axes `pressure`, `distance` (0…1), `tilt_x`, `tilt_y` (−90…90), `rotation` (0…360),
    /// `slider` (−1…1), `wheel` (degrees, −360…360), `wheel_clicks` (−1000…1000), each only for a
    /// tool that has it.
    func tablet(_ request: ControlRequest) throws(ControlError) -> Reply {
        var tool = TabletToolDescription()
        if let name = try request.optionalString("tool") {
            guard let type = TabletToolType(name: name) else {
                throw ControlError(
                    .invalidArgument,
                    "\"\(name)\" is not a tablet tool: use \(TabletToolType.allCases.map(\.name).joined(separator: ", "))"
                )
            }
            tool = TabletToolDescription(type: type)
        }
        if let serial = try request.optionalInt("serial", in: 0...Self.maximumToolSerial) {
            tool.serial = UInt64(serial)
        }
        let axes = try tabletAxes(request, tool: tool)
        let event: TabletToolEvent
        let phase = try request.string("phase")
        switch phase {
        case "in", "move", "motion":
            let output =
                try request.optionalScreen(in: compositor) ?? seat.pointerPosition?.output
                ?? compositor.scene.outputs.first
            guard let output else { throw ControlError(.unknownScreen, "no screen is connected") }
            let x = try request.double("x"), y = try request.double("y")
            guard Self.tabletCoordinates.contains(x), Self.tabletCoordinates.contains(y) else {
                throw ControlError(.invalidArgument, "\"x\" and \"y\" must be between -1000000 and 1000000")
            }
            event = .motion(screen: output.screen.id, x: x, y: y)
        case "down", "up":
            try requireInProximity(tool, phase)
            event = .tip(down: phase == "down")
        case "button":
            try requireInProximity(tool, phase)
            let pressed: Bool
            switch try request.string("state") {
            case "down", "press", "pressed": pressed = true
            case "up", "release", "released": pressed = false
            case let other: throw ControlError(.invalidArgument, "\"\(other)\" is not a state: use down or up")
            }
            event = .button(try Self.tabletButton(request), pressed: pressed)
        case "axes":
            try requireInProximity(tool, phase)
            event = .axes
        case "out":
            try requireInProximity(tool, phase)
            event = .proximityOut
        default:
            throw ControlError(
                .invalidArgument, "\"\(phase)\" is not a tablet phase: use in, move, down, up, button, axes or out")
        }
        guard seat.tabletAccepts(tool) else {
            throw ControlError(
                .invalidArgument,
                "the tablet has \(Tablets.maximumTools) tools already; use one of them (tool and serial)")
        }
        seat.tabletTool(tool, event, axes: axes, time: now)
        var reply: Reply = [:]
        if let state = seat.tabletToolState(tool) {
            reply["in_proximity"] = .bool(state.inProximity)
            reply["down"] = .bool(state.down)
            if let surface = state.focus, let window = compositor.scene.window(showing: surface) {
                reply["window"] = JSONValue(window.id.rawValue)
            }
        }
        return reply
    }

    /// Hardware serials a command may name: what a JSON number holds exactly (2^53 − 1).
    static let maximumToolSerial = (1 << 53) - 1
    private static let tabletCoordinates = -1_000_000.0...1_000_000.0

    private func requireInProximity(_ tool: TabletToolDescription, _ phase: String) throws(ControlError) {
        guard seat.tabletToolState(tool)?.inProximity == true else {
            throw ControlError(
                .invalidArgument,
                "tablet \(phase): the \(tool.type.name) (serial \(tool.serial)) is not in proximity: move it in first (phase in, with x and y)"
            )
        }
    }

    /// `button`: stylus (BTN_STYLUS), stylus2, stylus3 or an evdev code.
    private static func tabletButton(_ request: ControlRequest) throws(ControlError) -> UInt32 {
        if let code = try? request.int("button", in: 0x100...0x2ff) { return UInt32(code) }
        switch try request.string("button") {
        case "stylus": return 0x14b
        case "stylus2": return 0x14c
        case "stylus3": return 0x149
        case let other:
            throw ControlError(
                .invalidArgument, "\"\(other)\" is not a tablet button: use stylus, stylus2, stylus3 or an evdev code")
        }
    }

    private func tabletAxes(_ request: ControlRequest, tool: TabletToolDescription) throws(ControlError)
        -> TabletToolAxes
    {
        var axes = TabletToolAxes()
        func need(_ capability: TabletToolCapability, _ name: String) throws(ControlError) {
            guard request.has(name), !tool.capabilities.contains(capability) else { return }
            throw ControlError(
                .invalidArgument,
                "a \(tool.type.name) has no \(capability.name) axis (it has \(tool.capabilities.map(\.name).joined(separator: ", ")))"
            )
        }
        try need(.pressure, "pressure")
        try need(.distance, "distance")
        try need(.tilt, "tilt_x")
        try need(.tilt, "tilt_y")
        try need(.rotation, "rotation")
        try need(.slider, "slider")
        try need(.wheel, "wheel")
        try need(.wheel, "wheel_clicks")
        axes.pressure = try number(request, "pressure", in: 0...1)
        axes.distance = try number(request, "distance", in: 0...1)
        axes.tiltX = try number(request, "tilt_x", in: -90...90)
        axes.tiltY = try number(request, "tilt_y", in: -90...90)
        axes.rotation = try number(request, "rotation", in: 0...360)
        axes.slider = try number(request, "slider", in: -1...1)
        axes.wheelDegrees = try number(request, "wheel", in: -360...360)
        axes.wheelClicks = Int32(try request.optionalInt("wheel_clicks", in: -1000...1000) ?? 0)
        return axes
    }
}
