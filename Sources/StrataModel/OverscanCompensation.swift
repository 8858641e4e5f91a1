/// How a screen that overscans (crops the edges of the picture it is sent, as televisions do)
/// is compensated for (UIKit's `UIScreen.OverscanCompensation`).
public enum OverscanCompensation: String, CaseIterable, Hashable, Sendable, Codable {
    /// The composed picture is shrunk into the safe area when it is presented (a black border
    /// around it); windows, bounds and input coordinates are unchanged. The default.
    case scale
    /// The screen's bounds shrink to the safe area: windows are placed, maximized and arranged
    /// inside it, and clients see the smaller size; the picture is shown at full sharpness inside
    /// a black border.
    case insetBounds = "inset"
    /// Nothing is compensated: the display crops the picture.
    case none
}
