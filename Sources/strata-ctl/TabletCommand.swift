import ArgumentParser
import StrataControlProtocol

/// `strata-ctl input tablet`: one frame of a tablet tool (the `tablet` request).
struct TabletCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "tablet",
        abstract: "A tablet tool comes in, moves, touches, presses a button or goes out.",
        usage:
            "strata-ctl input tablet in|move X Y | down | up | button BUTTON down|up | axes | out [--tool T] [--serial N] [axes]",
        discussion: """
            The first `in` (or `move`) brings the tool into proximity over the surface under X Y \
            (a screen's coordinates). Axes go with any phase: --pressure and --distance (0 to 1), \
            --tilt X,Y (degrees, -90 to 90), --rotation (0 to 360), --slider (-1 to 1), --wheel \
            (degrees) and --wheel-clicks; each only for a tool that has it (a pen: pressure, \
            distance, tilt; an airbrush: also slider; a mouse or lens: distance, rotation, wheel). \
            Buttons are stylus, stylus2, stylus3 or an evdev code.
            """)
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "in, move, down, up, button, axes or out") var phase: String
    @Argument(parsing: .allUnrecognized, help: "X Y (in, move) or BUTTON STATE (button).") var values: [String] = []
    @Option(help: "pen, eraser, brush, pencil, airbrush, finger, mouse or lens (default pen).") var tool: String?
    @Option(parsing: .unconditional, help: "The tool's hardware serial (default 1).") var serial: Int?
    @Option(
        help: ArgumentHelp(
            "The screen for in and move (default: the pointer's, else the main one).", valueName: "screen")) var screen:
        String?
    @Option(help: "0 to 1.") var pressure: Double?
    @Option(help: "0 (touching) to 1.") var distance: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Degrees on the X and Y axes, -90 to 90.", valueName: "x,y"))
    var tilt: String?
    @Option(help: "Degrees clockwise, 0 to 360.") var rotation: Double?
    @Option(parsing: .unconditional, help: "-1 to 1.") var slider: Double?
    @Option(parsing: .unconditional, help: "The wheel's turn in degrees.") var wheel: Double?
    @Option(name: .customLong("wheel-clicks"), parsing: .unconditional, help: "The wheel's turn in clicks.")
    var wheelClicks: Int?

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        var arguments: [String: JSONValue] = ["phase": .string(phase)]
        switch phase {
        case "in", "move":
            guard values.count == 2, let x = Double(values[0]), let y = Double(values[1]), x.isFinite, y.isFinite else {
                throw ValidationError("tablet \(phase) takes X and Y, numbers in the screen's coordinates")
            }
            arguments["x"] = JSONValue(x)
            arguments["y"] = JSONValue(y)
            if let screen { arguments["screen"] = reference(screen) }
        case "button":
            guard values.count == 2, ["down", "up"].contains(values[1]) else {
                throw ValidationError(
                    "tablet button takes a button (stylus, stylus2, stylus3 or an evdev code) and down or up")
            }
            arguments["button"] = reference(values[0])
            arguments["state"] = .string(values[1])
        case "down", "up", "axes", "out":
            guard values.isEmpty else { throw ValidationError("tablet \(phase) takes no values (axes are options)") }
        default:
            throw ValidationError("the phase is in, move, down, up, button, axes or out")
        }
        if screen != nil, phase != "in", phase != "move" {
            throw ValidationError("--screen belongs to tablet in and move")
        }
        if let tool { arguments["tool"] = .string(tool) }
        if let serial {
            guard serial >= 0 else { throw ValidationError("--serial is 0 or more") }
            arguments["serial"] = JSONValue(serial)
        }
        if let pressure { arguments["pressure"] = JSONValue(pressure) }
        if let distance { arguments["distance"] = JSONValue(distance) }
        if let tilt {
            let parts = tilt.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let tx = Double(parts[0]), let ty = Double(parts[1]) else {
                throw ValidationError("--tilt takes X,Y in degrees (e.g. --tilt 10,-5)")
            }
            arguments["tilt_x"] = JSONValue(tx)
            arguments["tilt_y"] = JSONValue(ty)
        }
        if let rotation { arguments["rotation"] = JSONValue(rotation) }
        if let slider { arguments["slider"] = JSONValue(slider) }
        if let wheel { arguments["wheel"] = JSONValue(wheel) }
        if let wheelClicks { arguments["wheel_clicks"] = JSONValue(wheelClicks) }
        return ("tablet", arguments)
    }
}
