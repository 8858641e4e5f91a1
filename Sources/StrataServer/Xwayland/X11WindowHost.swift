import StrataModel

/// The X side as the window contents (`X11Window`) and their controller see it: the windows
/// managed and the writes to X, coalesced and sent at the end of the XWM's turn. `XWM` is it;
/// tests give one that records the writes, so that the controller and the windows run without
/// an X server.
protocol X11WindowHost: AnyObject {
    var compositor: Compositor { get }
    /// Decides with the model what the X events about the windows do.
    var controller: X11WindowController { get }
    /// Xwayland's Wayland client (nil when none runs).
    var xwaylandClient: OpaquePointer? { get }
    func window(_ id: UInt32) -> X11Window?
    var managedWindows: [X11Window] { get }
    /// The X client that created `xid` (its resource id base).
    func xClient(of xid: UInt32) -> UInt32
    /// Moves and sizes the X window to `frame` (with the synthetic ConfigureNotify).
    func configure(_ window: X11Window, to frame: Rect)
    /// Writes the window's `_NET_WM_STATE`.
    func writeState(of window: X11Window)
    /// `WM_DELETE_WINDOW`, else KillClient.
    func close(_ window: X11Window)
    /// X's focus follows the key window.
    func windowDidChangeKeyState(_ window: X11Window, isKey: Bool)
    /// A line for Strata's log (what an X client did wrong, once).
    func log(_ message: String)
}

extension X11WindowHost {
    /// Gives the model window a frame the X side decided (X has been told its geometry, or the
    /// surface drew its size): remembered as the window's `frameGivenToModel`, so that the
    /// model's notification of that frame configures nothing back (configure is idempotent).
    func setModelFrame(of window: X11Window, _ frame: Rect) {
        guard let model = window.window, !model.isClosed else { return }
        window.frameGivenToModel = frame
        compositor.windows.setFrame(model, frame)
    }

    /// Moves and sizes a shown window to `frame` (a state's frame): X is configured, the model
    /// takes the origin now and the size at the surface's next commit.
    func place(_ window: X11Window, at frame: Rect) {
        configure(window, to: frame)
        guard let model = window.window, !model.isClosed else { return }
        setModelFrame(of: window, Rect(x: frame.x, y: frame.y, width: model.frame.width, height: model.frame.height))
    }
}
