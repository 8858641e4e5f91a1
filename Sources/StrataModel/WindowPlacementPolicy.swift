/// Decides where windows go: the first frame of a new window, and the frames of the maximized,
/// fullscreen and restored states, inside the work area a screen's exclusive zones (panels) leave.
/// Every shell asks it (xdg_toplevel stable and v6, wl_shell_surface, and X11 windows to come),
/// so placement is written once; the shells keep only their wire state (what they configured,
/// the frame saved before a maximize).
///
/// Frames are in the coordinates of the window's screen (`Window.frame`'s). Sizes come from
/// clients: every answer goes through `Coordinate`, so a size or a requested position of any
/// magnitude gives a clamped frame, never a trap.
///
/// Like `KeyWindowPolicy`, every decision has a default (below) and a policy overrides only what
/// it changes; the built-ins differ only in `placeNewWindow`. The policy is the
/// `WindowManager`'s `placement`, switched with `strata --placement` or the control socket's
/// `placement` command (windows already placed stay where they are).
public protocol WindowPlacementPolicy: AnyObject {
    /// A stable, lower-case name (`"cascade"`, `"center"` …) for control and logs.
    var name: String { get }

    /// Where a window shown for the first time goes, given the size its client drew (or asked
    /// for) and, when the client asked for one (an X11 ConfigureRequest, a transient's offset),
    /// a position in the screen's coordinates. Default: a requested position is honoured,
    /// otherwise `placeNewWindow` decides; the size is the client's; then the frame is kept in
    /// the work area (`keptInside`): inside it on an axis where it fits, at its near edge where
    /// it does not, so the top-left corner (title bar, menus) is always reachable.
    func initialFrame(for window: Window, size: Size, requestedOrigin: Point?, on screen: Screen) -> Rect

    /// The largest size a window may open at on `screen`, for a client that drew (or asked for)
    /// `size`: each side at most the work area's. The shells ask the client for it (an xdg or
    /// wl_shell configure, an X11 configure) when it is smaller than what the client drew.
    /// Default: `size` clamped, each side at most the work area's (an empty work area bounds
    /// nothing).
    func constrainedSize(_ size: Size, on screen: Screen) -> Size

    /// Where a new window of `size` (already clamped) goes inside `workArea` (the screen's
    /// work area, in screen coordinates) when its client asked for no position. No default:
    /// this is what a policy is.
    func placeNewWindow(_ window: Window, size: Size, in workArea: Rect) -> Rect

    /// The part of the screen windows are placed in and maximized to: the screen less the
    /// exclusive zones of layer-shell panels (`Screen.usableArea`), in screen coordinates.
    func workArea(of screen: Screen) -> Rect

    /// The frame of a maximized window: the work area. Its size is what the client is configured
    /// to; its origin where the window goes when the client commits it.
    func maximizedFrame(for window: Window, on screen: Screen) -> Rect

    /// The frame of a fullscreen window: the whole screen, panels included.
    func fullscreenFrame(for window: Window, on screen: Screen) -> Rect

    /// The frame of a window leaving maximized or fullscreen: where it was before (`saved`),
    /// at the size the client now draws (`size`).
    func restoredFrame(for window: Window, saved: Rect, size: Size) -> Rect
}

extension WindowPlacementPolicy {
    public func initialFrame(for window: Window, size: Size, requestedOrigin: Point?, on screen: Screen) -> Rect {
        let size = Self.clampedSize(size)
        let area = workArea(of: screen)
        let frame =
            requestedOrigin.map { Coordinate.clamped(Rect(origin: $0, size: size)) }
            ?? Coordinate.clamped(placeNewWindow(window, size: size, in: area))
        return Coordinate.clamped(Self.keptInside(frame, area))
    }

    public func constrainedSize(_ size: Size, on screen: Screen) -> Size {
        let size = Self.clampedSize(size), area = workArea(of: screen)
        return Size(
            width: area.width > 0 ? min(size.width, area.width) : size.width,
            height: area.height > 0 ? min(size.height, area.height) : size.height)
    }

    /// `frame` moved into `area`: on each axis, inside it where the frame fits, at the area's
    /// near edge (left, top) where it is larger. The size does not change. Both are clamped
    /// frames (±2^29): no sum overflows.
    public static func keptInside(_ frame: Rect, _ area: Rect) -> Rect {
        guard !area.isEmpty else { return frame }
        var frame = frame
        frame.x = frame.width <= area.width ? min(max(frame.x, area.x), area.x + area.width - frame.width) : area.x
        frame.y = frame.height <= area.height ? min(max(frame.y, area.y), area.y + area.height - frame.height) : area.y
        return frame
    }

    public func workArea(of screen: Screen) -> Rect {
        let bounds = screen.bounds
        return screen.usableArea.offsetBy(dx: -bounds.x, dy: -bounds.y)
    }

    public func maximizedFrame(for window: Window, on screen: Screen) -> Rect {
        workArea(of: screen)
    }

    public func fullscreenFrame(for window: Window, on screen: Screen) -> Rect {
        Rect(origin: .zero, size: screen.bounds.size)
    }

    public func restoredFrame(for window: Window, saved: Rect, size: Size) -> Rect {
        Coordinate.clamped(Rect(x: saved.x, y: saved.y, width: size.width, height: size.height))
    }

    /// `size` with each side clamped to 0 ... `Coordinate.limit` (a client's size of any
    /// magnitude), so that a policy's sums and differences cannot overflow.
    public static func clampedSize(_ size: Size) -> Size {
        WindowPlacementPolicies.clampedSize(size)
    }
}

/// The registry of the built-in placement policies, by name.
public enum WindowPlacementPolicies {
    /// The built-in policies' names, in the order the documentation lists them.
    public static let allNames = ["cascade", "top-left", "center"]

    /// The name of the policy a `WindowManager` starts with.
    public static let defaultName = "cascade"

    /// `size` with each side clamped to 0 ... `Coordinate.limit` (every policy's rule).
    public static func clampedSize(_ size: Size) -> Size {
        Size(width: Int(Coordinate.size(size.width)), height: Int(Coordinate.size(size.height)))
    }

    /// A new instance of the built-in policy called `name`, or nil.
    public static func named(_ name: String) -> (any WindowPlacementPolicy)? {
        switch name {
        case "cascade": return CascadePlacement()
        case "top-left": return TopLeftPlacement()
        case "center": return CenterPlacement()
        default: return nil
        }
    }
}
