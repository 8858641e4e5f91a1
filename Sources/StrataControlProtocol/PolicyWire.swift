import StrataModel

/// The policy delegate's wire (docs/control.md, "Policy delegate"): a `PolicyQuestion` as the
/// line sent to the delegate, and a `decide` request's `answer` as a `PolicyAnswer`. Shared by
/// the server and the command line.
public enum PolicyWire {
    /// The question line: `question`, `kind`, `window`, `cause`, `builtin`, `deadline_ms` (absent
    /// under the manual clock: no deadline), `state` (the key window, the lock, the windows
    /// front to back as `windows` lists them) and the kind's own fields.
    public static func question(_ question: PolicyQuestion, manager: WindowManager, deadlineMilliseconds: Int?)
        -> JSONValue
    {
        var fields: [String: JSONValue] = [
            "question": JSONValue(question.id), "kind": .string(question.kind.rawValue),
            "window": JSONValue(question.window.rawValue), "cause": cause(question.cause),
            "builtin": answer(question.builtin, for: question),
        ]
        if let deadlineMilliseconds { fields["deadline_ms"] = JSONValue(deadlineMilliseconds) }
        let windows = (try? JSONValue(encoding: WindowInfo.list(manager))) ?? .array([])
        fields["state"] = [
            "key": manager.keyWindow.map { JSONValue($0.id.rawValue) } ?? .null, "locked": .bool(manager.isLocked),
            "windows": windows,
        ]
        if let requested = question.requested { fields["requested"] = .bool(requested) }
        if let input = question.input { fields["input"] = .string(input) }
        if let lost = question.lost { fields["lost"] = JSONValue(lost.rawValue) }
        if let rule = question.rule { fields["rule"] = .string(rule) }
        if let requested = question.requestedLevel { fields["requested"] = Self.level(requested) }
        if let size = question.size {
            fields["size"] = ["width": JSONValue(size.width), "height": JSONValue(size.height)]
        }
        if let origin = question.requestedOrigin { fields["requested_origin"] = point(origin) }
        if let screen = question.screen { fields["screen"] = JSONValue(screen.rawValue) }
        return .object(fields)
    }

    /// `ChangeCause.fields` as an object (`requested_ns` a number).
    public static func cause(_ cause: ChangeCause) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, value) in cause.fields { object[key] = .string(value) }
        if cause.requestedAt != 0 { object["requested_ns"] = JSONValue(cause.requestedAt) }
        return .object(object)
    }

    /// An answer's wire form: map and pointer-enter `{"key"}`, click `{"key","order_front"}`,
    /// successor `{"window": id or null}`, focus-request `{"grant"}`, level `{"level"}` or
    /// `{"grant": false}`, placement `{"origin": {"x","y"}}` (the built-in's with its `frame`).
    public static func answer(_ answer: PolicyAnswer, for question: PolicyQuestion) -> JSONValue {
        switch answer {
        case .key(let key): return ["key": .bool(key)]
        case .click(let key, let orderFront): return ["key": .bool(key), "order_front": .bool(orderFront)]
        case .successor(let id): return ["window": id.map { JSONValue($0.rawValue) } ?? .null]
        case .grant(let grant): return ["grant": .bool(grant)]
        case .level(let level): return level.map { ["level": self.level($0)] } ?? ["grant": false]
        case .origin(let origin):
            var fields: [String: JSONValue] = ["origin": point(origin)]
            if let frame = question.builtinFrame {
                fields["frame"] = [
                    "x": JSONValue(frame.x), "y": JSONValue(frame.y), "width": JSONValue(frame.width),
                    "height": JSONValue(frame.height),
                ]
            }
            return .object(fields)
        }
    }

    /// A `decide` request's `answer` for `question`: the object its kind takes, or the string
    /// `"builtin"` (the built-in's answer). Throws the problem in words.
    public static func parseAnswer(_ value: JSONValue, for question: PolicyQuestion) throws(ControlError)
        -> PolicyAnswer
    {
        if value.stringValue == "builtin" { return question.builtin }
        guard let object = value.objectValue else {
            throw invalid("\"answer\" must be an object or \"builtin\", not \(value.typeName)")
        }
        func flag(_ name: String, required: Bool = true) throws(ControlError) -> Bool? {
            guard let field = object[name] else {
                if required { throw invalid("a \(question.kind.rawValue) answer needs \"\(name)\" (true or false)") }
                return nil
            }
            guard let bool = field.boolValue else { throw invalid("\"\(name)\" must be true or false") }
            return bool
        }
        switch question.kind {
        case .map, .pointerEnter:
            return .key(try flag("key") ?? false)
        case .click:
            return .click(key: try flag("key") ?? false, orderFront: try flag("order_front", required: false) ?? false)
        case .successor:
            guard let window = object["window"] else {
                throw invalid("a successor answer needs \"window\" (a window id, or null for none)")
            }
            if window.isNull { return .successor(nil) }
            guard let number = window.doubleValue, number >= 1, number <= 9_007_199_254_740_991,
                number == number.rounded()
            else { throw invalid("\"window\" must be a window id (a whole number from 1) or null") }
            return .successor(WindowID(UInt64(number)))
        case .focusRequest:
            return .grant(try flag("grant") ?? false)
        case .level:
            if let level = object["level"] {
                if let name = level.stringValue, let named = WindowLevel(name: name) { return .level(named) }
                if let number = level.doubleValue, number.isFinite, abs(number) <= 1_000_000 {
                    return .level(WindowLevel(rawValue: number))
                }
                throw invalid("\"level\" must be a level's name or a number (at most 1000000 either way)")
            }
            guard try flag("grant") == false else {
                throw invalid("a level answer needs \"level\", or \"grant\": false to deny the request")
            }
            return .level(nil)
        case .placement:
            guard let origin = object["origin"]?.objectValue, let x = origin["x"]?.doubleValue,
                let y = origin["y"]?.doubleValue, x.isFinite, y.isFinite
            else { throw invalid("a placement answer needs \"origin\": {\"x\": number, \"y\": number}") }
            return .origin(Point(x: Double(Coordinate.clamped(x)), y: Double(Coordinate.clamped(y))))
        }
    }

    private static func invalid(_ message: String) -> ControlError {
        ControlError(.invalidArgument, message)
    }

    private static func point(_ p: Point) -> JSONValue {
        ["x": JSONValue(p.x), "y": JSONValue(p.y)]
    }

    private static func level(_ level: WindowLevel) -> JSONValue {
        WindowLevel.namedLevels.contains { $0.level == level } ? .string(level.name) : JSONValue(level.rawValue)
    }
}
