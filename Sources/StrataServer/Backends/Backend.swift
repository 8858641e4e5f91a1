import StrataRender

/// Where screens come from and where their frames go. The headless backend keeps frames in
/// memory (tests, CI, screenshots); the nested backends show them in a parent session.
public protocol Backend: AnyObject {
    var name: String { get }
    /// Connects the initial screens (through `compositor.connectScreen`) and starts input.
    func start(_ compositor: Compositor) throws(ServerError)
    /// Shows a repainted frame; `damage` is the part that changed (screen coordinates).
    func present(_ output: ScreenOutput, damage: PixmanRegion)
    /// Releases the backend's resources (before the display is destroyed).
    func stop()
}

public extension Backend {
    func present(_ output: ScreenOutput, damage: PixmanRegion) {}
    func stop() {}
}
