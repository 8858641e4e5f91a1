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
}

public extension WindowContent {
    func forEachRootSurface(_ body: (Surface) -> Void) {
        if let rootSurface { body(rootSurface) }
    }
    func windowDidChangeKeyState(isKey: Bool) {}
    func closeRequest() {}
}
