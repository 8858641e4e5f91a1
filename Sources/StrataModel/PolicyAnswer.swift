/// An answer to a `PolicyQuestion`: the delegate's, or the built-in policy's (computed when the
/// question is asked, applied when the delegate does not answer in time, answers wrongly or
/// hangs up). Which case fits which question: `PolicyQuestion.Kind.fits(_:)`.
public enum PolicyAnswer: Hashable, Sendable {
    /// map, pointer-enter: whether the window becomes key.
    case key(Bool)
    /// click: whether the window becomes key, and whether it is ordered front of its level.
    case click(key: Bool, orderFront: Bool)
    /// successor: the window that inherits key, or nil for none.
    case successor(WindowID?)
    /// focus-request: whether the request is granted (the window made key).
    case grant(Bool)
    /// level: the level the window gets, or nil: the request is denied.
    case level(WindowLevel?)
    /// placement: where the window's top-left corner goes, in its screen's coordinates.
    case origin(Point)
}
