import StrataModel

/// What happens to a tablet tool in one frame (`Seat.tabletTool`), besides its axes.
public enum TabletToolEvent: Sendable, Equatable {
    /// The tool is at (x, y) of a screen (its coordinates); the first motion brings it into
    /// proximity.
    case motion(screen: ScreenID, x: Double, y: Double)
    /// Only axes changed.
    case axes
    /// The tip touches the tablet (down) or leaves it.
    case tip(down: Bool)
    /// A button of the tool (evdev code: BTN_STYLUS is 0x14b) was pressed or released.
    case button(UInt32, pressed: Bool)
    /// The tool leaves proximity (its tip and buttons are released first).
    case proximityOut
}
