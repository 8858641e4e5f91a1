/// A width and height in whole pixels (logical or physical, as the owner says).
public struct Size: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// True when either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

extension Size: CustomStringConvertible {
    public var description: String { "\(width)x\(height)" }
}
