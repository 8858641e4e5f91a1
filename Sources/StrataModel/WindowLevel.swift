/// The position of a window on the z-axis, relative to other windows.
///
/// A level is a `Double`, as `UIWindow.Level` is a `CGFloat`. Levels are sparse so that a custom
/// level can sit between two named ones (`WindowLevel(rawValue: 1500)` is above `.alert` and
/// below `.statusBar`).
///
/// | name         | raw value | what lives there                              |
/// |--------------|-----------|-----------------------------------------------|
/// | `background` | -2000     | wallpapers (layer-shell `background`)         |
/// | `bottom`     | -1000     | desktop widgets (layer-shell `bottom`)        |
/// | `normal`     | 0         | application windows (the default)             |
/// | `alert`      | 1000      | alerts, dialogs that float above applications |
/// | `statusBar`  | 2000      | panels and bars, above alerts                 |
///
/// **Tie-break.** The stacking of levels takes precedence over the stacking inside a level: every
/// window of a higher level is in front of every window of a lower level. Windows of the *same*
/// level are ordered by recency: the window most recently created, shown, ordered front or moved
/// to that level is in front; `orderBack` puts a window behind the others of its level. UIKit
/// leaves this order unspecified; Strata defines it.
///
/// A NaN raw value is replaced by `normal` (0) so that levels always have a total order.
public struct WindowLevel: RawRepresentable, Comparable, Hashable, Sendable {
    public let rawValue: Double

    public init(rawValue: Double) {
        self.rawValue = rawValue.isNaN ? 0 : rawValue
    }

    public init(_ rawValue: Double) {
        self.init(rawValue: rawValue)
    }

    public static let background = WindowLevel(rawValue: -2000)
    public static let bottom = WindowLevel(rawValue: -1000)
    public static let normal = WindowLevel(rawValue: 0)
    public static let alert = WindowLevel(rawValue: 1000)
    public static let statusBar = WindowLevel(rawValue: 2000)

    /// The named levels, lowest first.
    public static let namedLevels: [(name: String, level: WindowLevel)] = [
        ("background", .background),
        ("bottom", .bottom),
        ("normal", .normal),
        ("alert", .alert),
        ("statusBar", .statusBar),
    ]

    /// Parses a level's name (`"normal"`, `"alert"`, `"statusBar"`, `"background"`, `"bottom"`) or
    /// a finite number (`"1500"`, `"-12.5"`). Returns nil for anything else.
    public init?(name: String) {
        let trimmed = name.trimmingWhitespace()
        if let named = WindowLevel.namedLevels.first(where: { $0.name == trimmed }) {
            self = named.level
            return
        }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        self.init(rawValue: value)
    }

    /// The named constant's name, or the number (`"1500"`, `"1500.5"`) for a custom level.
    public var name: String {
        if let named = WindowLevel.namedLevels.first(where: { $0.level == self }) {
            return named.name
        }
        if rawValue.isFinite, rawValue == rawValue.rounded(), abs(rawValue) < 1e15 {
            return String(Int64(rawValue))
        }
        return String(rawValue)
    }

    public static func < (lhs: WindowLevel, rhs: WindowLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension WindowLevel: CustomStringConvertible {
    public var description: String { name }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension WindowLevel: Codable {
    /// Decodes a name (`"alert"`), a numeric string (`"1500"`) or a number (`1500`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self.init(rawValue: number)
            return
        }
        let text = try container.decode(String.self)
        guard let level = WindowLevel(name: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a window level: \(text)")
        }
        self = level
    }

    /// Encodes `name`: a named level's name, or the number as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
