/// Why the manager refused to change a screen.
public enum ScreenConfigurationError: Error, Hashable, Sendable {
    /// The screen was disconnected (or belongs to another manager).
    case screenNotConnected(ScreenID)
    /// The requested mode is not one of the screen's `availableModes`.
    case modeNotAvailable(ScreenMode, screen: ScreenID)
    /// An overscan outside `Screen.overscanRange` (or not a number).
    case overscanOutOfRange(Double)
}
