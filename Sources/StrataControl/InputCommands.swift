import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer

/// `pointer-move`, `pointer-button`, `pointer-click`, `key`, `type`, `touch`: input injected
/// through the seat, exactly as a backend's input would arrive (the policy sees clicks, the
/// key window gets keys). Coordinates are a screen's (default: the pointer's screen, else the
/// main one).
extension ControlCommands {
    private var seat: Seat { compositor.seat }

    /// Input events carry the compositor's clock (virtual under `--clock manual`).
    private var now: UInt32 { compositor.clock.milliseconds }

    private func inputScreen(_ request: ControlRequest) throws(ControlError) -> ScreenOutput {
        if let output = try request.optionalScreen(in: compositor) { return output }
        if let output = seat.pointerPosition?.output, compositor.outputs.contains(where: { $0 === output }) { return output }
        guard let main = compositor.outputs.first else { throw ControlError(.unknownScreen, "no screen is connected") }
        return main
    }

    private static let coordinateRange = -1_000_000.0...1_000_000.0

    private func coordinate(_ request: ControlRequest, _ name: String) throws(ControlError) -> Double {
        let value = try request.double(name)
        guard Self.coordinateRange.contains(value) else { throw ControlError(.invalidArgument, "\"\(name)\" is out of range") }
        return value
    }

    private func pointerReply() -> Reply {
        guard let position = seat.pointerPosition else { return [:] }
        var reply: Reply = ["screen": JSONValue(position.output.screen.id.rawValue), "x": JSONValue(position.x), "y": JSONValue(position.y)]
        if let surface = seat.pointerFocus,
           let window = manager.windows.first(where: { $0.content?.rootSurface === surface }) {
            reply["window"] = JSONValue(window.id.rawValue)
        }
        return reply
    }

    func pointerMove(_ request: ControlRequest) throws(ControlError) -> Reply {
        let output = try inputScreen(request)
        var x = try coordinate(request, "x"), y = try coordinate(request, "y")
        if try request.optionalBool("shown") ?? false {
            // x, y are pixels of what the screen shows (a screenshot): through the overscan
            // placement and the scale to the screen's coordinates.
            guard let p = output.logicalPoint(atShownPixel: x, y) else {
                throw ControlError(.invalidArgument, "(\(x), \(y)) is not a pixel of \(output.screen.name)'s picture (outside it, or on its overscan border)")
            }
            (x, y) = (p.x, p.y)
        }
        seat.pointerMotion(on: output, x: x, y: y, time: now)
        return pointerReply()
    }

    /// `button`: `left`, `right`, `middle` or an evdev code (BTN_LEFT is 272).
    private static func button(_ request: ControlRequest) throws(ControlError) -> UInt32 {
        guard request.has("button") else { return 0x110 }
        if let code = try? request.int("button", in: 0x100...0x2ff) { return UInt32(code) }
        switch try request.string("button") {
        case "left": return 0x110
        case "right": return 0x111
        case "middle": return 0x112
        case let other: throw ControlError(.invalidArgument, "\"\(other)\" is not a button: use left, right, middle or an evdev code")
        }
    }

    /// `state`: `down` or `up` (`press`/`release` work too).
    private static func pressed(_ request: ControlRequest) throws(ControlError) -> Bool {
        switch try request.string("state") {
        case "down", "press", "pressed": return true
        case "up", "release", "released": return false
        case let other: throw ControlError(.invalidArgument, "\"\(other)\" is not a state: use down or up")
        }
    }

    func pointerButton(_ request: ControlRequest) throws(ControlError) -> Reply {
        let button = try Self.button(request)
        seat.pointerButton(button, pressed: try Self.pressed(request), time: now)
        return pointerReply()
    }

    func pointerClick(_ request: ControlRequest) throws(ControlError) -> Reply {
        let button = try Self.button(request)
        let time = now
        seat.pointerButton(button, pressed: true, time: time)
        seat.pointerButton(button, pressed: false, time: time)
        return pointerReply()
    }

    /// `key`: an evdev code (a JSON number) or a keysym name (a string: `a`, `Return`, `F1`);
    /// `state` `down`, `up`, or absent for a press and release (with Shift around it when the
    /// keysym is on the Shift level).
    func key(_ request: ControlRequest) throws(ControlError) -> Reply {
        let stroke: KeyStroke
        if let code = request.arguments["key"]?.intValue {
            guard (1...0x2ff).contains(code) else { throw ControlError(.invalidArgument, "a key code is between 1 and 767") }
            stroke = KeyStroke(keycode: UInt32(code), needsShift: false)
        } else {
            let name = try request.string("key")
            guard let found = seat.keyStroke(forKeysymNamed: name) else {
                throw ControlError(.invalidArgument, "no key of the keymap types the keysym \"\(name)\"")
            }
            stroke = found
        }
        let time = now
        if request.has("state") {
            seat.key(stroke.keycode, pressed: try Self.pressed(request), time: time)
        } else {
            press(stroke, time: time)
        }
        return ["keycode": JSONValue(Int(stroke.keycode)), "shift": .bool(stroke.needsShift)]
    }

    private func press(_ stroke: KeyStroke, time: UInt32) {
        if stroke.needsShift { seat.key(KeyStroke.leftShift, pressed: true, time: time) }
        seat.key(stroke.keycode, pressed: true, time: time)
        seat.key(stroke.keycode, pressed: false, time: time)
        if stroke.needsShift { seat.key(KeyStroke.leftShift, pressed: false, time: time) }
    }

    /// `type`: every character of `text` as a key press; nothing is typed when one of them has
    /// no key on the keymap.
    func type(_ request: ControlRequest) throws(ControlError) -> Reply {
        let text = try request.string("text")
        guard text.unicodeScalars.count <= 4096 else { throw ControlError(.invalidArgument, "\"text\" is at most 4096 characters") }
        var strokes: [KeyStroke] = []
        for scalar in text.unicodeScalars {
            guard let stroke = seat.keyStroke(for: scalar) else {
                throw ControlError(.invalidArgument, "no key of the keymap types \"\(scalar.escaped(asASCII: true))\"; nothing was typed")
            }
            strokes.append(stroke)
        }
        let time = now
        for stroke in strokes { press(stroke, time: time) }
        return ["typed": JSONValue(strokes.count)]
    }

    /// `touch`: `phase` `down` (with `x`, `y`, optional `screen`), `move` (`x`, `y`) or `up`,
    /// for touch point `touch_id`.
    func touch(_ request: ControlRequest) throws(ControlError) -> Reply {
        let id = Int32(try request.int("touch_id", in: 0...Int(Int32.max)))
        let time = now
        switch try request.string("phase") {
        case "down":
            let output = try inputScreen(request)
            seat.touchDown(id: id, on: output, x: try coordinate(request, "x"), y: try coordinate(request, "y"), time: time)
        case "move", "motion":
            seat.touchMotion(id: id, x: try coordinate(request, "x"), y: try coordinate(request, "y"), time: time)
        case "up":
            seat.touchUp(id: id, time: time)
        case "cancel":
            seat.touchCancel()
        case let other:
            throw ControlError(.invalidArgument, "\"\(other)\" is not a touch phase: use down, move or up")
        }
        return [:]
    }
}
