import StrataModel

/// Where a surface hangs in the scene: what the wire tells the scene about a surface's place
/// (`Scene.setAnchor(_:of:)`), so the scene computes screen positions from the model's windows
/// without asking the protocol objects.
///
/// Offsets are wide (`Int`): a popup's is the sum of a positioner rectangle and window geometries.
/// The scene adds them to the window's frame or the parent's position and clamps the sum
/// (`Coordinate.clamped`), as each role did.
public enum SurfaceAnchor {
    /// The surface's origin is `window`'s frame origin plus (x, y), on the window's screen; shown
    /// while the window is visible (a toplevel: minus its window geometry's origin).
    case window(Window, x: Int, y: Int)
    /// The surface's origin is `parent`'s origin plus (x, y); shown while the parent is shown with
    /// content (a subsurface: its position; a popup: its place relative to its parent's surface).
    case surface(Surface, x: Int, y: Int)
    /// The surface's origin is the screen's (a lock surface); shown while the screen is connected.
    case screen(ScreenID)
}
