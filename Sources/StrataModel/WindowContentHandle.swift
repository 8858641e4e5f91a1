/// What the layer above the model hangs on a `Window` (`Window.content`): the object that shows
/// the window (an xdg_toplevel, a wl_shell_surface, a layer surface, later an X11 window) and the
/// hooks the compositor calls when the model or the screen changes under it.
///
/// The model cannot name the server's types, so the surfaces that show the window are an
/// associated type (`RootSurface`, the server's `Surface`); everything else is in model terms.
/// The server refines this protocol as `WindowContent` (`RootSurface == Surface`). Because
/// `Window.content` holds the content through this protocol, the compositor calls these hooks
/// on the stored existential with no cast of the content (no conformance lookup, no class test
/// per shell): adding a kind of window means conforming to this protocol, not teaching the
/// compositor a new class.
///
/// Every hook has a default (below) that does nothing, or the obvious thing; content overrides
/// what it supports.
public protocol WindowContentHandle: AnyObject {
    /// The surface type of the layer above (the server's `Surface`).
    associatedtype RootSurface: AnyObject

    /// The window's main surface; nil once it is gone.
    var rootSurface: RootSurface? { get }
    /// The root surfaces drawn for the window, bottom to top: its own surface, then its popups.
    /// Default: `rootSurface` alone.
    func forEachRootSurface(_ body: (RootSurface) -> Void)
    /// Whether the content can be shown now (an xdg toplevel with a mapped surface): a window
    /// whose content is unmapped stays hidden whatever a taskbar asks. Default: it has a root
    /// surface.
    var hasContentToShow: Bool { get }

    /// The window became or stopped being the key window (xdg_toplevel `activated`).
    func windowDidChangeKeyState(isKey: Bool)
    /// The compositor asks the client to close the window (xdg_toplevel.close).
    func closeRequest()
    /// Someone other than the client (a taskbar) asks to maximize or restore the window: the
    /// content asks its client and sets the model window's state (`Window.isMaximized`,
    /// `isFullscreen`: what was last decided, not yet necessarily drawn by the client).
    func handleMaximizeRequest(_ maximized: Bool)
    /// Someone other than the client (a taskbar) asks to make the window fullscreen (on
    /// `screen`, or where it is when nil) or to leave fullscreen.
    func handleFullscreenRequest(_ fullscreen: Bool, on screen: Screen?)
    /// Someone other than the client (the control socket) asks for a size: the window leaves
    /// maximized and fullscreen, and its client is asked for `size` (an xdg configure with that
    /// size; an X window is resized). Returns the size asked of the client, after the client's
    /// own limits (its minimum and maximum size); the client may still draw another, and the
    /// frame follows what it draws. nil: this content is not sized by the compositor (the
    /// default).
    func handleSizeRequest(_ size: Size) -> Size?
    /// The usable area of the window's screen changed (a panel's exclusive zone): a maximized
    /// window is configured to the new work area.
    func screenDidChangeUsableArea()
    /// The window's screen changed its size (mode, transform or scale): maximized and
    /// fullscreen windows are configured to the new size.
    func screenDidChangeGeometry()
    /// The root surface committed a new buffer origin (wl_surface.offset, or attach's dx/dy):
    /// a floating window moves by that much. Default: nothing (content placed by its own rules).
    func rootSurfaceDidCommitOffset(dx: Int32, dy: Int32)
    /// The window moved or went to another screen: reactive popups (xdg_positioner.set_reactive)
    /// are placed again. Default: nothing.
    func windowDidChangePlacement()
    /// How an interactive resize from `edges` (xdg_toplevel.resize_edge bits: top 1, bottom 2,
    /// left 4, right 8) reaches the client: the seat calls the handler with each new size and
    /// with (0, 0) at the release. nil when the window cannot be resized now (maximized,
    /// fullscreen, not shown). The client's own resize requests and the seat's pointer binding
    /// (Super + right drag) both use it. Default: nil.
    func interactiveResize(edges: UInt32) -> ((_ width: Int32, _ height: Int32) -> Void)?
    /// What kind of client shows the window: `wayland` (the default) or `x11` (an X window
    /// through Xwayland), as `strata-ctl windows` reports it.
    var kind: String { get }
    /// Whether the window is an application's toplevel (an xdg or wl_shell toplevel, a managed X
    /// window), as taskbars and capture tools list them (`ext_foreign_toplevel_list_v1`); layer
    /// surfaces, input-method popups and override-redirect X windows are not. Default: false.
    var isToplevel: Bool { get }
}

extension WindowContentHandle {
    public func forEachRootSurface(_ body: (RootSurface) -> Void) {
        if let rootSurface { body(rootSurface) }
    }
    public var hasContentToShow: Bool { rootSurface != nil }
    public func windowDidChangeKeyState(isKey: Bool) {}
    public func closeRequest() {}
    public func handleMaximizeRequest(_ maximized: Bool) {}
    public func handleFullscreenRequest(_ fullscreen: Bool, on screen: Screen?) {}
    public func handleSizeRequest(_ size: Size) -> Size? { nil }
    public func screenDidChangeUsableArea() {}
    public func screenDidChangeGeometry() {}
    public func rootSurfaceDidCommitOffset(dx: Int32, dy: Int32) {}
    public func windowDidChangePlacement() {}
    public func interactiveResize(edges: UInt32) -> ((_ width: Int32, _ height: Int32) -> Void)? { nil }
    public var kind: String { "wayland" }
    public var isToplevel: Bool { false }
}
