import ArgumentParser
import StrataControlProtocol

/// `strata-ctl input swipe|pinch|hold`: touchpad gestures injected into the seat (the `gesture`
/// request). A gesture is a begin, updates and an end; its client is the one under the pointer
/// at the begin.
enum GestureCommands {
    /// The request for `kind`'s `phase` with its words (begin: FINGERS; update: DX DY).
    static func request(
        kind: String, phase: String, values: [String], scale: Double?, rotation: Double?,
        cancel: Bool
    ) throws -> (command: String, arguments: [String: JSONValue]) {
        var arguments: [String: JSONValue] = ["kind": .string(kind), "phase": .string(phase)]
        func numbers(_ count: Int, _ usage: String) throws -> [Double] {
            guard values.count == count else { throw ValidationError("\(kind) \(phase) takes \(usage)") }
            var parsed: [Double] = []
            for value in values {
                guard let number = Double(value), number.isFinite else {
                    throw ValidationError("\"\(value)\" is not a finite number")
                }
                parsed.append(number)
            }
            return parsed
        }
        if phase != "update", scale != nil || rotation != nil {
            throw ValidationError("--scale and --rotation belong to pinch update")
        }
        if cancel, phase != "end" { throw ValidationError("--cancel belongs to \(kind) end") }
        switch phase {
        case "begin":
            guard values.count == 1, let fingers = Int(values[0]), (1...10).contains(fingers) else {
                throw ValidationError("\(kind) begin takes a number of fingers, 1 to 10")
            }
            arguments["fingers"] = JSONValue(fingers)
        case "update":
            guard kind != "hold" else { throw ValidationError("a hold has no update: use begin and end") }
            let d = try numbers(2, "DX DY (surface units since the last event)")
            arguments["dx"] = JSONValue(d[0])
            arguments["dy"] = JSONValue(d[1])
            if scale != nil || rotation != nil {
                guard kind == "pinch" else { throw ValidationError("--scale and --rotation belong to pinch update") }
            }
            if let scale { arguments["scale"] = JSONValue(scale) }
            if let rotation { arguments["rotation"] = JSONValue(rotation) }
        case "end", "cancel":
            guard values.isEmpty else { throw ValidationError("\(kind) \(phase) takes no values") }
            if cancel { arguments["cancelled"] = .bool(true) }
        default:
            throw ValidationError("the phase is begin, update, end or cancel")
        }
        return ("gesture", arguments)
    }

    struct Swipe: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "A touchpad swipe: begin FINGERS, update DX DY, end [--cancel] or cancel.",
            usage: "strata-ctl input swipe begin FINGERS | update DX DY | end [--cancel] | cancel")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "begin, update, end or cancel") var phase: String
        @Argument(parsing: .allUnrecognized, help: "FINGERS (begin) or DX DY (update).") var values: [String] = []
        @Flag(help: "The end cancels the gesture (the client undoes it).") var cancel = false
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            try GestureCommands.request(
                kind: "swipe", phase: phase, values: values, scale: nil, rotation: nil, cancel: cancel)
        }
    }

    struct Pinch: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A touchpad pinch: begin FINGERS, update DX DY [--scale S] [--rotation DEG], end [--cancel] or cancel.",
            usage:
                "strata-ctl input pinch begin FINGERS | update DX DY [--scale S] [--rotation DEG] | end [--cancel] | cancel"
        )
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "begin, update, end or cancel") var phase: String
        @Argument(parsing: .allUnrecognized, help: "FINGERS (begin) or DX DY (update).") var values: [String] = []
        @Option(help: "The scale since the begin (1: unchanged; 0 to 1000).") var scale: Double?
        @Option(parsing: .unconditional, help: "Degrees clockwise since the last event (-360 to 360).") var rotation:
            Double?
        @Flag(help: "The end cancels the gesture (the client undoes it).") var cancel = false
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            try GestureCommands.request(
                kind: "pinch", phase: phase, values: values, scale: scale, rotation: rotation, cancel: cancel)
        }
    }

    struct Hold: RequestCommand {
        static let configuration = CommandConfiguration(
            abstract: "A touchpad hold: begin FINGERS, end [--cancel] or cancel.",
            usage: "strata-ctl input hold begin FINGERS | end [--cancel] | cancel")
        @OptionGroup var options: ConnectionOptions
        @Argument(help: "begin, end or cancel") var phase: String
        @Argument(parsing: .allUnrecognized, help: "FINGERS (begin).") var values: [String] = []
        @Flag(help: "The end cancels the gesture.") var cancel = false
        func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
            try GestureCommands.request(
                kind: "hold", phase: phase, values: values, scale: nil, rotation: nil, cancel: cancel)
        }
    }
}
