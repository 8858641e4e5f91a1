import StrataModel

extension Scene {
    /// Where `window`'s own surface (its root surface: what a toolkit calls the window, client-side
    /// shadows included) has its origin, in the window's coordinates: (0, 0) but for a toplevel
    /// whose window geometry starts inside its surface (GTK's shadows: then minus that origin).
    /// nil while the window has no surface anchored to it.
    public func surfaceOrigin(of window: Window) -> Point? {
        guard let surface = window.content?.rootSurface as? Surface, surface.render.anchorKind == .window,
            surface.render.anchorWindow === window
        else { return nil }
        return Point(x: Double(surface.render.anchorX), y: Double(surface.render.anchorY))
    }
}
