/// An axis-aligned rectangle in whole logical pixels.
///
/// The rectangle covers `x ..< x + width` and `y ..< y + height`: the left and top edges are
/// inside, the right and bottom edges are outside, so two rectangles that share an edge do not
/// both contain a point on it.
public struct Rect: Hashable, Sendable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: Point, size: Size) {
        self.init(
            x: Rect.clampedInt(origin.x), y: Rect.clampedInt(origin.y), width: size.width,
            height: size.height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var origin: Point {
        get { Point(x: Double(x), y: Double(y)) }
        set {
            x = Rect.clampedInt(newValue.x)
            y = Rect.clampedInt(newValue.y)
        }
    }

    public var size: Size {
        get { Size(width: width, height: height) }
        set {
            width = newValue.width
            height = newValue.height
        }
    }

    public var minX: Int { x }
    public var minY: Int { y }
    /// The right and bottom edges, saturating at the ends of `Int` (frames are clamped to
    /// ±`Coordinate.limit`, but a `Rect` may be anything a caller built).
    public var maxX: Int { Rect.saturatingSum(x, width) }
    public var maxY: Int { Rect.saturatingSum(y, height) }

    /// True when the rectangle covers no area (a side is zero or negative).
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether `p` lies inside: left/top edges included, right/bottom edges excluded.
    public func contains(_ p: Point) -> Bool {
        guard !isEmpty else { return false }
        return p.x >= Double(minX) && p.x < Double(maxX) && p.y >= Double(minY) && p.y < Double(maxY)
    }

    /// The overlap of two rectangles, or nil when they do not overlap (touching edges do not).
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(
            x: left, y: top, width: Rect.saturatingDifference(right, left),
            height: Rect.saturatingDifference(bottom, top))
    }

    /// Whether the two rectangles overlap in a non-empty area.
    public func intersects(_ other: Rect) -> Bool { intersection(other) != nil }

    /// This rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: Rect.saturatingSum(x, dx), y: Rect.saturatingSum(y, dy), width: width, height: height)
    }

    /// `a - b` for `a > b`, saturating at `Int.max`.
    static func saturatingDifference(_ a: Int, _ b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? Int.max : difference
    }

    /// `a + b`, saturating at the ends of `Int`.
    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }

    /// Rounds toward zero, saturating at the `Int` range; NaN becomes 0.
    static func clampedInt(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= Double(Int.max) { return Int.max }
        if value <= Double(Int.min) { return Int.min }
        return Int(value)
    }
}

extension Rect: CustomStringConvertible {
    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
