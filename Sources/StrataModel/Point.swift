/// A location in a two-dimensional coordinate space, in logical pixels.
///
/// Points are `Double` because pointer positions are fractional; frames and screen bounds are
/// whole logical pixels (`Rect`).
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// This point moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Point {
        Point(x: x + dx, y: y + dy)
    }
}

extension Point: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}
