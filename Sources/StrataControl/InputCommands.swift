import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer

/// `pointer-move`, `pointer-button`, `pointer-click`, `pointer-scroll`, `key`, `type`, `touch`: input injected
/// through the seat, exactly as a backend's input would arrive (the policy sees clicks, the
/// key window gets keys). Coordinates are a screen's (default: the pointer's screen, else the
/// main one).
extension ControlCommands {
    private var seat: Seat { compositor.seat }

    /// Input events carry the compositor's clock (virtual under `--clock manual`).
    private var now: UInt32 { compositor.clock.milliseconds }

    private func inputScreen(_ request: ControlRequest) throws(ControlError) -> ScreenOutput {
        if let output = try request.optionalScreen(in: compositor) { return output }
        if let output = seat.pointerPosition?.output, compositor.scene.outputs.contains(where: { $0 === output }) {
            return output
        }
        guard let main = compositor.scene.outputs.first else {
            throw ControlError(.unknownScreen, "no screen is connected")
        }
        return main
    }

    private static let coordinateRange = -1_000_000.0...1_000_000.0

    private func coordinate(_ request: ControlRequest, _ name: String) throws(ControlError) -> Double {
        let value = try request.double(name)
        guard Self.coordinateRange.contains(value) else {
            throw ControlError(.invalidArgument, "\"\(name)\" is out of range")
        }
        return value
    }

    private func pointerReply() -> Reply {
        guard let position = seat.pointerPosition else { return [:] }
        var reply: Reply = [
            "screen": JSONValue(position.output.screen.id.rawValue), "x": JSONValue(position.x),
            "y": JSONValue(position.y),
        ]
        if let surface = seat.pointerFocus,
            let window = manager.windows.first(where: { $0.content?.rootSurface === surface })
        {
            reply["window"] = JSONValue(window.id.rawValue)
        }
        return reply
    }

    func pointerMove(_ request: ControlRequest) throws(ControlError) -> Reply {
        try movePointer(request)
        return pointerReply()
    }

    /// Moves the pointer to `x`, `y` of the request's screen (`shown`: pixels of its picture).
    private func movePointer(_ request: ControlRequest) throws(ControlError) {
        let output = try inputScreen(request)
        var x = try coordinate(request, "x"), y = try coordinate(request, "y")
        if try request.optionalBool("shown") ?? false {
            // x, y are pixels of what the screen shows (a screenshot): through the overscan
            // placement and the scale to the screen's coordinates.
            guard let p = output.logicalPoint(atShownPixel: x, y) else {
                throw ControlError(
                    .invalidArgument,
                    "(\(x), \(y)) is not a pixel of \(output.screen.name)'s picture (outside it, or on its overscan border)"
                )
            }
            (x, y) = (p.x, p.y)
        }
        seat.pointerMotion(on: output, x: x, y: y, time: now)
    }

    /// `button`: `left`, `right`, `middle` or an evdev code (BTN_LEFT is 272).
    private static func button(_ request: ControlRequest) throws(ControlError) -> UInt32 {
        guard request.has("button") else { return 0x110 }
        if let code = try? request.int("button", in: 0x100...0x2ff) { return UInt32(code) }
        switch try request.string("button") {
        case "left": return 0x110
        case "right": return 0x111
        case "middle": return 0x112
        case let other:
            throw ControlError(
                .invalidArgument, "\"\(other)\" is not a button: use left, right, middle or an evdev code")
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

    /// `pointer-click`: with `x` and `y` (and `screen`, `shown` as for `pointer-move`), the
    /// pointer moves there first.
    func pointerClick(_ request: ControlRequest) throws(ControlError) -> Reply {
        let button = try Self.button(request)
        if request.has("x") || request.has("y") { try movePointer(request) }
        let time = now
        seat.pointerButton(button, pressed: true, time: time)
        seat.pointerButton(button, pressed: false, time: time)
        return pointerReply()
    }

    /// The surface-local distance of one wheel click (libinput's 15 degrees).
    static let wheelClickDistance = 15.0

    /// `pointer-scroll`: `dx`, `dy` (positive: right, down). By default wheel clicks (whole
    /// numbers, -100…100: axis_source wheel, axis_value120 or axis_discrete, and 15 units a
    /// click); with `smooth` true, surface-local units of a finger scroll (-10000…10000, then
    /// axis_stop on both axes).
    func pointerScroll(_ request: ControlRequest) throws(ControlError) -> Reply {
        let smooth = try request.optionalBool("smooth") ?? false
        let dx = try request.optionalDouble("dx") ?? 0, dy = try request.optionalDouble("dy") ?? 0
        guard dx != 0 || dy != 0 else {
            throw ControlError(.invalidArgument, "scrolling needs \"dx\" or \"dy\" other than 0")
        }
        let time = now
        if smooth {
            guard abs(dx) <= 10_000, abs(dy) <= 10_000 else {
                throw ControlError(.invalidArgument, "a smooth scroll is at most 10000 units an axis")
            }
            var scroll = PointerScroll(vertical: dy, horizontal: dx)
            scroll.source = 1  // finger
            seat.pointerScroll(scroll, time: time)
            var stop = PointerScroll()
            stop.source = 1
            (stop.verticalStop, stop.horizontalStop) = (dy != 0, dx != 0)
            seat.pointerScroll(stop, time: time)
        } else {
            guard dx.rounded() == dx, dy.rounded() == dy, abs(dx) <= 100, abs(dy) <= 100 else {
                throw ControlError(
                    .invalidArgument,
                    "wheel clicks are whole numbers from -100 to 100 (smooth scrolling takes any distance)")
            }
            var scroll = PointerScroll(vertical: dy * Self.wheelClickDistance, horizontal: dx * Self.wheelClickDistance)
            (scroll.verticalSteps, scroll.horizontalSteps) = (Int32(dy), Int32(dx))
            scroll.source = 0  // wheel
            seat.pointerScroll(scroll, time: time)
        }
        return pointerReply()
    }

    /// `key`: an evdev code (a JSON number), a keysym name (a string: `a`, `Return`, `F1`,
    /// `at`; case-insensitive when unambiguous), or a chord: modifier names and a keysym name
    /// joined by `+` (`ctrl+shift+t`, `altgr+q`, `super+Return`). `state` `down`, `up`, or
    /// absent for a press and release (a keysym with the modifiers its level needs; a chord's
    /// modifiers pressed first and released last). A keysym no key has is typed through the
    /// keymap's extension.
    func key(_ request: ControlRequest) throws(ControlError) -> Reply {
        let time = now
        if let code = request.arguments["key"]?.intValue {
            guard (1...0x2ff).contains(code) else {
                throw ControlError(.invalidArgument, "a key code is between 1 and 767")
            }
            if request.has("state") {
                seat.key(UInt32(code), pressed: try Self.pressed(request), time: time)
            } else {
                seat.key(UInt32(code), pressed: true, time: time)
                seat.key(UInt32(code), pressed: false, time: time)
            }
            return ["keycode": JSONValue(code), "shift": false]
        }
        let text = try request.string("key")
        let chord = try KeyChord(parsing: text)
        if request.has("state") {
            let pressed = try Self.pressed(request)
            guard let stroke = seat.keyStrokeExtendingKeymap(forKeysym: chord.keysym) else {
                throw ControlError(
                    .invalidArgument, "the keysym \"\(chord.keyName)\" cannot be typed: the keymap has no room for it")
            }
            let keys = chord.modifiers + [stroke.keycode]
            for key in pressed ? keys : keys.reversed() { seat.key(key, pressed: pressed, time: time) }
            return Self.strokeReply(stroke, chord: chord)
        }
        guard let stroke = seat.chord(modifiers: chord.modifiers, keysym: chord.keysym, time: time) else {
            throw ControlError(
                .invalidArgument, "the keysym \"\(chord.keyName)\" cannot be typed: the keymap has no room for it")
        }
        return Self.strokeReply(stroke, chord: chord)
    }

    private static func strokeReply(_ stroke: KeyStroke, chord: KeyChord) -> Reply {
        var modifiers = chord.modifiers
        for key in stroke.modifiers where !modifiers.contains(key) { modifiers.append(key) }
        return [
            "keycode": JSONValue(Int(stroke.keycode)), "shift": .bool(modifiers.contains(KeyStroke.leftShift)),
            "modifiers": .array(modifiers.map { JSONValue(Int($0)) }),
        ]
    }

    /// The most characters one `type` takes.
    static let maximumTypedCharacters = 4096

    /// `type`: every character of `text` as a key press, on whatever level of the keymap has it
    /// (Shift, AltGr…), through the keymap's extension when no key has it. Newline is Return,
    /// tab Tab; other control characters are refused, and then nothing is typed.
    func type(_ request: ControlRequest) throws(ControlError) -> Reply {
        let text = try request.string("text")
        guard text.unicodeScalars.count <= Self.maximumTypedCharacters else {
            throw ControlError(.invalidArgument, "\"text\" is at most \(Self.maximumTypedCharacters) characters")
        }
        var keysyms: [UInt32] = []
        keysyms.reserveCapacity(text.unicodeScalars.count)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard let keysym = Seat.keysym(for: scalar) else {
                throw ControlError(
                    .invalidArgument,
                    "character \(index + 1) of \"text\" (U+\(String(scalar.value, radix: 16, uppercase: true))) is a control character or a non-character, which no key types; nothing was typed"
                )
            }
            keysyms.append(keysym)
        }
        switch seat.type(keysyms: keysyms, time: now) {
        case .success(let count):
            return ["typed": JSONValue(count)]
        case .failure(.noKeymap):
            throw ControlError(.unsupported, "the seat has no keymap (no XKB data was found); nothing was typed")
        case .failure(.cannotType(let index, _)):
            throw ControlError(
                .invalidArgument,
                "the keymap could not be extended for character \(index + 1) of \"text\"; the \(index) before it were typed"
            )
        }
    }

    /// `touch`: `phase` `down` (with `x`, `y`, optional `screen`), `move` (`x`, `y`) or `up`,
    /// for touch point `touch_id`.
    func touch(_ request: ControlRequest) throws(ControlError) -> Reply {
        let id = Int32(try request.int("touch_id", in: 0...Int(Int32.max)))
        let time = now
        switch try request.string("phase") {
        case "down":
            let output = try inputScreen(request)
            seat.touchDown(
                id: id, on: output, x: try coordinate(request, "x"), y: try coordinate(request, "y"), time: time)
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
