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
    /// Whether the screens' frames are shown somewhere (a parent's window): then a screen paints
    /// its first frame as it connects. False (headless): the canvas is read only by screenshots
    /// and screencopy, which repaint the pending damage first, so a screen paints nothing until
    /// something asks (a start then clears and fills no canvas: docs/performance.md, "Start-up").
    var showsFrames: Bool { get }
    /// Whether Strata draws the cursor into the screens' images (headless, X11). False when the
    /// backend hands it to a parent compositor (nested Wayland), which is then told
    /// `cursorDidChange` with what to show (nil: no cursor); `generation` grows whenever the
    /// pixels of the same image change (a cursor surface's commit).
    var drawsCursor: Bool { get }
    func cursorDidChange(_ image: CursorLayer.Image?, generation: Int)
    /// A pointer constraint came into effect on `output` (`locked`: a lock, else a
    /// confinement), or ended (nil). A nested backend constrains the parent's pointer to the
    /// screen's window too, and reports the parent's relative motion while locked.
    func pointerConstraintDidChange(locked: Bool?, on output: ScreenOutput?)
}

public extension Backend {
    func present(_ output: ScreenOutput, damage: PixmanRegion) {}
    func stop() {}
    var showsFrames: Bool { true }
    var drawsCursor: Bool { true }
    func cursorDidChange(_ image: CursorLayer.Image?, generation: Int) {}
    func pointerConstraintDidChange(locked: Bool?, on output: ScreenOutput?) {}
}
