/// The XWM's part of a Wayland drag (`XDND`).
extension XWM {
    /// The drag of `source` entered `surface` at (x, y) (global coordinates): the XDND target
    /// when the surface shows an X window, else nil.
    func dragDestination(over surface: Surface, source: DataSource, x: Double, y: Double) -> DragDestination? {
        guard !isShutDown, surface.client == xwayland.client,
            let window = managedWindows.first(where: { $0.surface === surface })
        else { return nil }
        return dnd.enter(window, source: source, x: x, y: y)
    }
}
