import StrataServer

/// What the `strata` executable needs from either nested backend (Wayland or X11), beyond
/// `Backend`: how the session ends, and why.
public protocol NestedBackend: Backend {
    /// The parent's display, e.g. `WAYLAND_DISPLAY=wayland-0` or `DISPLAY=:0`, for messages.
    var parentName: String { get }
    /// Called when the parent closed the last screen's window. Default (nil): end the display's
    /// `run()`.
    var onLastScreenClosed: (() -> Void)? { get set }
    /// Called once when the connection to the parent breaks, with a message for the user.
    /// Default (nil): print `strata: <message>` to stderr and end the display's `run()`.
    var onParentLost: ((String) -> Void)? { get set }
    /// The message, once the connection to the parent broke (exit non-zero then).
    var failure: String? { get }
    /// Where the parent's input goes; nil: the compositor's seat.
    var input: NestedInput? { get set }
    /// The parent's keymap as XKB text, when the parent gave one.
    var parentKeymap: String? { get }
}

extension WaylandBackend: NestedBackend {}
extension X11Backend: NestedBackend {}
