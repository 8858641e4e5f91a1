import StrataModel

/// What the XWM asks the compositor's side to decide about the X windows it manages. The XWM
/// speaks X (its connection and event pump, ICCCM and EWMH messages, property reads) and calls
/// one of these when an X event needs a decision; `X11WindowController` answers with the model
/// (`WindowManager`, the placement policy, the focus rule). The answers that concern X (a
/// frame, a state, a focus) come back through the XWM's writes (`configure`, `writeState`).
protocol XWMHandler: AnyObject {
    /// X mapped the window (its properties read, or an override-redirect window mapped itself).
    func windowDidMap(_ window: X11Window)
    /// X unmapped the window.
    func windowDidUnmap(_ window: X11Window)
    /// The X window is gone.
    func windowDidDestroy(_ window: X11Window)
    /// Its title, class, pid, hints or transient parent were read again.
    func windowPropertiesDidChange(_ window: X11Window)
    /// X moved or sized it (ConfigureNotify).
    func windowDidConfigure(_ window: X11Window, to geometry: XGeometry)
    /// The client asks for `geometry` (ConfigureRequest): the frame the window gets.
    func configureRequest(_ window: X11Window, asks geometry: XGeometry) -> Rect
    /// `_NET_WM_STATE`: the client asks to change its states.
    func stateRequest(_ window: X11Window, _ request: NetWMStateRequest)
    /// `_NET_ACTIVE_WINDOW`: the window's client asks to make it key.
    func activationRequest(_ window: X11Window, timestamp: UInt32)
    /// `WM_CHANGE_STATE` IconicState: the client iconifies its window.
    func iconifyRequest(_ window: X11Window)
    /// `_NET_CLOSE_WINDOW`: a client (a pager, a script) asks to close the window.
    func closeRequest(_ window: X11Window)
    /// `_NET_WM_MOVERESIZE`: the client asks for an interactive move or resize.
    func moveResizeRequest(_ window: X11Window, direction: UInt32)
}
