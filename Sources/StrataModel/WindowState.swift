/// How a window sits on its screen: as its client sized it (`normal`), filling the screen's work
/// area (`maximized`) or the whole screen (`fullscreen`): `Window.state`, the placement policy's
/// frame for it. It follows from two flags the wire sets apart, as xdg_toplevel,
/// zwlr_foreign_toplevel and EWMH's `_NET_WM_STATE` keep them: `Window.isFullscreen` wins over
/// `Window.isMaximized`, so a maximized window made fullscreen is maximized again when it leaves
/// fullscreen. Minimized is not a state either: a minimized window keeps its state and is hidden
/// (`Window.isMinimized`).
public enum WindowState: String, Hashable, Sendable, Codable, CaseIterable {
    case normal
    case maximized
    case fullscreen
}
