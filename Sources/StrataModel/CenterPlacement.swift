/// Every new window centred in the work area (a half pixel rounds toward the top-left). On an axis
/// where the window is larger than the work area, it starts at the work area's edge, so that its
/// top-left corner (where clients draw their title and menus) stays on screen.
public final class CenterPlacement: WindowPlacementPolicy {
    public init() {}

    public var name: String { "center" }

    public func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect {
        // Sizes are clamped (2^29) and work areas are screens': no difference overflows.
        let x = workArea.x + max(0, (workArea.width - size.width) / 2)
        let y = workArea.y + max(0, (workArea.height - size.height) / 2)
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }
}
