/// How a screen's image is rotated (counter-clockwise) and flipped, as `wl_output.transform`.
/// Raw values are the names `wlr-randr` uses.
public enum ScreenTransform: String, Sendable, CaseIterable, Codable {
    case normal = "normal"
    case rotated90 = "90"
    case rotated180 = "180"
    case rotated270 = "270"
    case flipped = "flipped"
    case flipped90 = "flipped-90"
    case flipped180 = "flipped-180"
    case flipped270 = "flipped-270"

    /// True when the transform swaps width and height (a quarter turn).
    public var swapsAxes: Bool {
        switch self {
        case .rotated90, .rotated270, .flipped90, .flipped270: return true
        case .normal, .rotated180, .flipped, .flipped180: return false
        }
    }

    /// The `wl_output.transform` enum value (0…7).
    public var waylandValue: Int32 {
        switch self {
        case .normal: return 0
        case .rotated90: return 1
        case .rotated180: return 2
        case .rotated270: return 3
        case .flipped: return 4
        case .flipped90: return 5
        case .flipped180: return 6
        case .flipped270: return 7
        }
    }

    /// The transform for a `wl_output.transform` value, or nil when out of range.
    public init?(waylandValue: Int32) {
        guard let match = ScreenTransform.allCases.first(where: { $0.waylandValue == waylandValue }) else {
            return nil
        }
        self = match
    }

    /// `size` as it appears after this transform.
    public func apply(to size: Size) -> Size {
        swapsAxes ? Size(width: size.height, height: size.width) : size
    }
}
