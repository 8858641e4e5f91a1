import StrataModel

/// What the wire layer hangs on a model `Window` (`window.content`): the surfaces that show it
/// and the hooks the compositor calls when the model changes it.
public protocol WindowContent: AnyObject {
    /// The window's main surface.
    var rootSurface: Surface? { get }
    /// The root surfaces drawn for the window, bottom to top: its own surface, then its popups.
    func forEachRootSurface(_ body: (Surface) -> Void)
    /// The window became or stopped being the key window (xdg_toplevel `activated`).
    func windowDidChangeKeyState(isKey: Bool)
    /// The compositor asks the client to close the window (xdg_toplevel.close).
    func closeRequest()
    /// Whether the content can be shown now (an xdg toplevel with a mapped surface): a window
    /// whose content is unmapped stays hidden whatever a taskbar asks.
    var hasContentToShow: Bool { get }
    /// Whether the window is maximized / fullscreen: what the compositor last decided (the state
    /// of its latest configure), not yet necessarily drawn by the client.
    var isMaximized: Bool { get }
    var isFullscreen: Bool { get }
    /// Someone other than the client (a taskbar) asks to maximize or restore the window.
    func handleMaximizeRequest(_ maximized: Bool)
    /// Someone other than the client (a taskbar) asks to make the window fullscreen (on
    /// `screen`, or where it is when nil) or to leave fullscreen.
    func handleFullscreenRequest(_ fullscreen: Bool, on screen: Screen?)
}

public extension WindowContent {
    func forEachRootSurface(_ body: (Surface) -> Void) {
        if let rootSurface { body(rootSurface) }
    }
    func windowDidChangeKeyState(isKey: Bool) {}
    func closeRequest() {}
    var hasContentToShow: Bool { rootSurface != nil }
    var isMaximized: Bool { false }
    var isFullscreen: Bool { false }
    func handleMaximizeRequest(_ maximized: Bool) {}
    func handleFullscreenRequest(_ fullscreen: Bool, on screen: Screen?) {}
}

public extension Window {
    /// The wire layer's content of the window. Toplevels by a class cast (a compare of class
    /// metadata) first: `as? WindowContent` asks the runtime's conformance cache, a hash map whose
    /// lines every frame's walk of the windows would otherwise bring back from memory.
    var wireContent: WindowContent? {
        guard let object = content else { return nil }
        if let toplevel = object as? XdgToplevel { return toplevel }
        return object as? WindowContent
    }
}
