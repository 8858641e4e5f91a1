/// Every new window at the work area's top-left corner (below a top panel, right of a left one),
/// one on top of the other: the simplest rule, for kiosks and single-window sessions where the
/// window is the screen's content.
public final class TopLeftPlacement: WindowPlacementPolicy {
    public init() {}

    public var name: String { "top-left" }

    public func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect {
        Rect(x: workArea.x, y: workArea.y, width: size.width, height: size.height)
    }
}
