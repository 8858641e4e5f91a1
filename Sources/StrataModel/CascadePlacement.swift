/// New windows cascade from the work area's top-left corner: each one `step` (32) pixels right
/// and down of the one placed before it, back at the corner after ten; on an axis where the step
/// would push the window past the work area's far edge, it stays at the corner. Strata's default
/// placement: windows do not hide each other exactly, and the positions scripts and tests rely
/// on stay where they are.
public final class CascadePlacement: WindowPlacementPolicy {
    /// The offset between two windows placed one after the other, on each axis.
    public static let step = 32
    /// How many windows one cascade holds before it starts again at the corner.
    public static let stepsPerCascade = 10

    /// Windows placed by this policy so far (the next one's place in the cascade).
    private var placed = 0

    public init() {}

    public var name: String { "cascade" }

    public func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect {
        let offset = Self.step * (placed % Self.stepsPerCascade)
        placed = (placed + 1) % Self.stepsPerCascade
        // Sizes are clamped (2^29), the offset small: no sum overflows.
        let x = workArea.width > size.width + offset ? offset : 0
        let y = workArea.height > size.height + offset ? offset : 0
        return Rect(x: workArea.x + x, y: workArea.y + y, width: size.width, height: size.height)
    }
}
