/// Why the manager refused to change a screen.
public enum ScreenConfigurationError: Error, Hashable, Sendable {
    /// The screen was disconnected (or belongs to another manager).
    case screenNotConnected(ScreenID)
    /// The requested mode is not one of the screen's `availableModes`.
    case modeNotAvailable(ScreenMode, screen: ScreenID)
    /// An overscan outside `Screen.overscanRange` (or not a number).
    case overscanOutOfRange(Double)
}

extension ScreenConfigurationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .screenNotConnected(let id): return "screen \(id.rawValue) is not connected"
        case .modeNotAvailable(let mode, let id):
            return
                "screen \(id.rawValue) has no mode \(mode.size.width)x\(mode.size.height)@\(Double(mode.refreshMilliHz) / 1000)"
        case .overscanOutOfRange(let percent):
            return
                "an overscan of \(percent)% is outside \(Int(Screen.overscanRange.lowerBound))...\(Int(Screen.overscanRange.upperBound))%"
        }
    }
}
