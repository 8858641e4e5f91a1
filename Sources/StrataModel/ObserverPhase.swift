/// When an observer of the window model runs (`WindowNotificationCenter.addObserver(phase:_:)`):
/// each notification reaches every observer of a phase before the next phase, in this order;
/// within a phase, in the order they were registered.
public enum ObserverPhase: Int, Comparable, CaseIterable, Sendable {
    /// The frame path (`Scene`): damage, canvases and anchors follow the model first, so every
    /// reaction after it sees the screens as they will be drawn.
    case scene
    /// The seat and each window's own client: keyboard focus, the pointer's surface, configures
    /// (`activated`, maximized sizes), wl_output, fractional scale, the X11 window manager.
    case wire
    /// Protocols that describe windows and screens to other clients (the window extension, foreign
    /// toplevels, output management, window captures): they run once focus and the window's own
    /// client are told, so what they report is already true.
    case tools
    /// Records of what happened (the control socket's event log, a trace): last, after every
    /// reaction the notification caused.
    case recording

    public static func < (lhs: ObserverPhase, rhs: ObserverPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}
