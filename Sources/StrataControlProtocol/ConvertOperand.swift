/// What `convert` converts, as written on the command line and in experiment files: a point
/// `X,Y` or a rectangle `X,Y,WxH` (numbers may be fractional for a point's coordinates; sizes
/// are whole).
public struct ConvertOperand: Equatable, Sendable {
    public var x: Double
    public var y: Double
    /// The rectangle's size; nil for a point.
    public var width: Int?
    public var height: Int?

    public static let requirement =
        "a point is X,Y and a rectangle X,Y,WxH (e.g. 10,20 or 10,20,300x200), coordinates within ±536870912"

    /// Parses `10,20`, `-3.5,7`, `10,20,300x200`; nil when malformed or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let x = Double(parts[0]), let y = Double(parts[1]),
            x.isFinite, y.isFinite, abs(x) <= Self.limit, abs(y) <= Self.limit
        else { return nil }
        self.x = x
        self.y = y
        if parts.count == 3 {
            let size = parts[2].lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
                (0...Int(Self.limit)).contains(w), (0...Int(Self.limit)).contains(h)
            else { return nil }
            width = w
            height = h
        }
    }

    static let limit = Double(1 << 29)

    /// The request's arguments (`x`, `y`, and `width`, `height` for a rectangle).
    public var arguments: [String: JSONValue] {
        var fields: [String: JSONValue] = ["x": JSONValue(x), "y": JSONValue(y)]
        if let width, let height {
            fields["width"] = JSONValue(width)
            fields["height"] = JSONValue(height)
        }
        return fields
    }
}
