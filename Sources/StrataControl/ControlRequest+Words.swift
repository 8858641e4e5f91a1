import FoundationEssentials
import StrataControlProtocol

extension ControlRequest {
    /// The request in words, for the cause of what it changes (`ChangeCause.request`): the
    /// command, then its arguments as `name=value` in name order (`id` left out), e.g.
    /// `"make-key window=3"`. A string with spaces, or empty, is quoted; arrays and objects are
    /// compact JSON; a value is cut at 64 characters and the whole at 200 (`…`).
    var words: String {
        var words = command
        for name in arguments.keys.sorted() where name != "command" && name != "id" {
            guard let value = arguments[name], !value.isNull else { continue }
            words += " \(name)=\(Self.cut(Self.word(value), at: 64))"
        }
        return Self.cut(words, at: 200)
    }

    private static func word(_ value: JSONValue) -> String {
        switch value {
        case .string(let s) where s.isEmpty || s.contains(where: \.isWhitespace):
            return String(decoding: value.encodedLine(), as: UTF8.self)
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return value.intValue.map(String.init) ?? "\(n)"
        case .null, .array, .object: return String(decoding: value.encodedLine(), as: UTF8.self)
        }
    }

    private static func cut(_ s: String, at limit: Int) -> String {
        s.count > limit ? String(s.prefix(limit - 1)) + "…" : s
    }
}
