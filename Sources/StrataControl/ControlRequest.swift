import StrataControlProtocol
import StrataModel
import StrataServer

/// One parsed request line: its `id`, its `command`, and typed access to its arguments. Every
/// accessor throws a `ControlError` naming the argument (missing or ill-typed), never traps.
struct ControlRequest {
    let id: JSONValue
    let command: String
    let arguments: [String: JSONValue]

    /// Validates the envelope: an object with a string `command` and an `id` that is a number,
    /// a string or absent (null).
    init(_ value: JSONValue) throws(ControlError) {
        guard let fields = value.objectValue else {
            throw ControlError(.badJSON, "a request is a JSON object, not \(value.typeName)")
        }
        let id = fields["id"] ?? .null
        switch id {
        case .null, .string: break
        case .number:
            guard id.intValue != nil else { throw ControlError(.badRequest, "id must be an integer or a string") }
        default: throw ControlError(.badRequest, "id must be an integer or a string, not \(id.typeName)")
        }
        self.id = id
        guard let command = fields["command"] else {
            throw ControlError(.badRequest, "the request has no \"command\"")
        }
        guard let name = command.stringValue else {
            throw ControlError(.badRequest, "command must be a string, not \(command.typeName)")
        }
        self.command = name
        arguments = fields
    }

    /// The id of a request that could not be parsed, if the line was an object with a usable id.
    static func salvageID(_ value: JSONValue?) -> JSONValue {
        guard let id = value?["id"] else { return .null }
        switch id {
        case .string: return id
        case .number where id.intValue != nil: return id
        default: return .null
        }
    }

    // MARK: Arguments

    func has(_ name: String) -> Bool {
        guard let value = arguments[name] else { return false }
        return !value.isNull
    }

    private func value(_ name: String) throws(ControlError) -> JSONValue {
        guard let value = arguments[name], !value.isNull else {
            throw ControlError(.missingArgument, "\(command) needs \"\(name)\"")
        }
        return value
    }

    func string(_ name: String) throws(ControlError) -> String {
        let v = try value(name)
        guard let s = v.stringValue else {
            throw ControlError(.invalidArgument, "\"\(name)\" must be a string, not \(v.typeName)")
        }
        return s
    }

    func optionalString(_ name: String) throws(ControlError) -> String? {
        has(name) ? try string(name) : nil
    }

    /// A finite number (a JSON number, or a string holding one).
    func double(_ name: String) throws(ControlError) -> Double {
        let v = try value(name)
        if let d = v.doubleValue ?? v.stringValue.flatMap(Double.init), d.isFinite { return d }
        throw ControlError(.invalidArgument, "\"\(name)\" must be a finite number, not \(v.typeName)")
    }

    func optionalDouble(_ name: String) throws(ControlError) -> Double? {
        has(name) ? try double(name) : nil
    }

    /// A whole number in `range` (a JSON number, or a string holding one).
    func int(_ name: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(ControlError) -> Int {
        let v = try value(name)
        guard let i = v.intValue ?? v.stringValue.flatMap({ Int($0) }) else {
            throw ControlError(.invalidArgument, "\"\(name)\" must be an integer, not \(v.typeName)")
        }
        guard range.contains(i) else {
            throw ControlError(
                .invalidArgument, "\"\(name)\" must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return i
    }

    func optionalInt(_ name: String, in range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(ControlError)
        -> Int?
    {
        has(name) ? try int(name, in: range) : nil
    }

    /// A boolean; `"on"`/`"off"`, `"true"`/`"false"` and `"yes"`/`"no"` are accepted too.
    func bool(_ name: String) throws(ControlError) -> Bool {
        let v = try value(name)
        if let b = v.boolValue { return b }
        switch v.stringValue?.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default:
            throw ControlError(.invalidArgument, "\"\(name)\" must be true or false (or on/off), not \(v.typeName)")
        }
    }

    func optionalBool(_ name: String) throws(ControlError) -> Bool? {
        has(name) ? try bool(name) : nil
    }

    func stringArray(_ name: String) throws(ControlError) -> [String] {
        let v = try value(name)
        guard let items = v.arrayValue else {
            throw ControlError(.invalidArgument, "\"\(name)\" must be an array of strings, not \(v.typeName)")
        }
        var strings: [String] = []
        for item in items {
            guard let s = item.stringValue else {
                throw ControlError(
                    .invalidArgument, "\"\(name)\" must be an array of strings; it holds \(item.typeName)")
            }
            strings.append(s)
        }
        return strings
    }

    // MARK: Model objects

    /// The one open window the argument names (`WindowSelector`: an id, `title:`, `pid:`, or an
    /// app id in any case); an error that lists the candidates when it names none or several.
    func window(_ name: String = "window", in manager: WindowManager) throws(ControlError) -> Window {
        try WindowSelector(try value(name), argument: name).resolve(in: manager.windows)
    }

    /// A connected screen: its id (a number or a string of digits) or its name (`HEADLESS-2`).
    func screen(_ name: String = "screen", in compositor: Compositor) throws(ControlError) -> ScreenOutput {
        let v = try value(name)
        if let number = v.intValue ?? v.stringValue.flatMap({ UInt64($0) }).map({ Int(clamping: $0) }) {
            guard number > 0, let output = compositor.scene.output(for: ScreenID(UInt64(number))) else {
                throw ControlError(.unknownScreen, "no connected screen has id \(number)")
            }
            return output
        }
        guard let screenName = v.stringValue, !screenName.isEmpty else {
            throw ControlError(.invalidArgument, "\"\(name)\" must be a screen id or name, not \(v.typeName)")
        }
        guard let output = compositor.scene.outputs.first(where: { $0.screen.name == screenName }) else {
            throw ControlError(.unknownScreen, "no connected screen is called \"\(screenName)\"")
        }
        return output
    }

    func optionalScreen(_ name: String = "screen", in compositor: Compositor) throws(ControlError) -> ScreenOutput? {
        has(name) ? try screen(name, in: compositor) : nil
    }
}
