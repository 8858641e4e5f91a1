/// A screen's stable identifier: allocated monotonically by its `WindowManager`, never reused,
/// so a screen that is unplugged and plugged in again gets a new id.
public struct ScreenID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "screen-\(rawValue)" }

    public static func < (lhs: ScreenID, rhs: ScreenID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension ScreenID: Codable {
    /// Encoded as the bare number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(UInt64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
