import CPixman
import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// Everything the server keeps for one screen: the model's `Screen`, its canvas and damage, its
/// frame clock, and its wl_output global.
///
/// Windows are composed on `canvas`, in the screen's logical coordinates (its bounds: the mode
/// turned by the transform, divided by the scale). What the display shows is `displayCanvas`:
/// the canvas itself when the screen is untransformed, unscaled and at full brightness (no extra
/// copy), else `presentation`, the mode-sized image the canvas is turned, scaled and dimmed into.
public final class ScreenOutput {
    public let screen: Screen
    public let canvas: Canvas
    /// Damage (screen coordinates) not yet repainted.
    public let damage = PixmanRegion()
    /// The mode-sized image shown when the screen is transformed, scaled or dimmed.
    public private(set) var presentation: Canvas?
    /// The damage of the last presented frame in `displayCanvas` coordinates.
    public let presentedDamage = PixmanRegion()
    let backendName: String
    var global: Global?
    var bindings: [OutputBinding] = []
    var frameTimer: OpaquePointer?
    var frameScheduled = false
    /// Whether the frame clock is armed (damage or frame callbacks are waiting).
    public var isFrameScheduled: Bool { frameScheduled }
    var lastFrameMilliseconds: UInt32 = 0
    /// Frames that drew something, and frames (drawn or not) that completed callbacks.
    public internal(set) var paintedFrames = 0
    public internal(set) var frames = 0
    /// Pixels the last painted frame redrew (the damage's area): what tests and benchmarks read
    /// to check that only damaged regions are repainted.
    public internal(set) var lastPaintedArea = 0
    weak var compositor: Compositor?
    /// Screencopy frames waiting for the next painted frame (copy_with_damage).
    var pendingCaptures: [ScreencopyFrame] = []

    init?(screen: Screen, backendName: String) {
        let size = ScreenOutput.logicalSize(of: screen)
        guard let canvas = Canvas(width: size.width, height: size.height) else { return nil }
        self.screen = screen
        self.canvas = canvas
        self.backendName = backendName
        damage.addRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    }

    /// The image the display shows (see the type's description).
    public var displayCanvas: Canvas { presentation ?? canvas }

    /// The refresh period in milliseconds (at least 1).
    var refreshPeriodMilliseconds: UInt32 {
        let mhz = screen.currentMode?.refreshMilliHz ?? 60000
        return UInt32(max(1, 1_000_000 / max(1, mhz)))
    }

    /// Logical width and height (the canvas's size).
    public var width: Int32 { canvas.width }
    public var height: Int32 { canvas.height }

    static func logicalSize(of screen: Screen) -> (width: Int32, height: Int32) {
        let size = screen.bounds.size
        return (Int32(clamping: max(1, size.width)), Int32(clamping: max(1, size.height)))
    }

    /// Follows the screen's mode, transform and scale: resizes the canvas (and presentation).
    /// Returns whether anything changed; the caller damages the whole screen.
    func updateGeometry() {
        let size = ScreenOutput.logicalSize(of: screen)
        canvas.resize(width: size.width, height: size.height)
        updatePresentation()
    }

    private var needsPresentation: Bool {
        screen.transform != .normal || screen.scale != 1 || screen.brightness < 1
    }

    private func updatePresentation() {
        guard needsPresentation else {
            presentation = nil
            return
        }
        let mode = screen.currentMode?.size ?? Size(width: Int(canvas.width), height: Int(canvas.height))
        let w = Int32(clamping: max(1, mode.width)), h = Int32(clamping: max(1, mode.height))
        if let presentation {
            presentation.resize(width: w, height: h)
        } else {
            presentation = Canvas(width: w, height: h)
        }
    }

    /// Turns, scales and dims the damaged part of the canvas into the presentation image, and
    /// sets `presentedDamage` (what changed in `displayCanvas`).
    func present() {
        updatePresentation()
        guard let presentation else {
            presentedDamage.set(damage)
            return
        }
        let turn = BufferTransform(transform: Int32(screen.transform.wlOutputTransform), scale: 1).inverted
        let scale = Int32(max(1, screen.scale))
        // Logical damage → presentation pixels: scaled, then turned like a buffer.
        presentedDamage.clear()
        damage.forEachBox { box in
            let scaled = PixmanRegion.Box(x1: box.x1 * scale, y1: box.y1 * scale, x2: box.x2 * scale, y2: box.y2 * scale)
            let b = turn.surfaceBox(fromBuffer: scaled, surfaceWidth: presentation.width, surfaceHeight: presentation.height)
            presentedDamage.addRect(x: b.x1, y: b.y1, width: b.width, height: b.height)
        }
        // Presentation pixel → canvas pixel: undo the turn (to scaled logical), then the scale.
        var t = turn.pixmanTransform(surfaceWidth: presentation.width, surfaceHeight: presentation.height)
        if scale != 1 {
            var down = pixman_transform_t()
            pixman_transform_init_scale(&down, pixman_fixed_t(65536 / Int(scale)), pixman_fixed_t(65536 / Int(scale)))
            var combined = pixman_transform_t()
            pixman_transform_multiply(&combined, &down, &t)
            t = combined
        }
        presentation.setClip(presentedDamage)
        presentation.draw(canvas, transform: t, smooth: false, blend: false)
        presentation.dim(brightness: screen.brightness)
        presentation.setClip(nil)
    }

    /// After a painted frame: the waiting screencopy frames copy it, with `presentedDamage`.
    func completeCaptures() {
        guard !pendingCaptures.isEmpty else { return }
        let waiting = pendingCaptures
        pendingCaptures.removeAll()
        for frame in waiting { frame.outputDidPaint(self, damage: presentedDamage) }
    }

    /// The screen is going: its waiting screencopy frames fail.
    func failCaptures() {
        let waiting = pendingCaptures
        pendingCaptures.removeAll()
        for frame in waiting { frame.fail() }
    }
}

extension ScreenOutput {
    /// A logical rectangle of the screen (nil: all of it) as a box of `displayCanvas` pixels,
    /// clipped to the screen; nil when nothing of it is on the screen.
    func displayBox(ofLogical rect: Rect?) -> PixmanRegion.Box? {
        let display = displayCanvas
        guard let rect else { return PixmanRegion.Box(x1: 0, y1: 0, x2: display.width, y2: display.height) }
        guard rect.width > 0, rect.height > 0 else { return nil }
        let x1 = max(0, Int32(clamping: rect.x)), y1 = max(0, Int32(clamping: rect.y))
        let x2 = min(width, Int32(clamping: rect.x + rect.width)), y2 = min(height, Int32(clamping: rect.y + rect.height))
        guard x1 < x2, y1 < y2 else { return nil }
        guard display !== canvas else { return PixmanRegion.Box(x1: x1, y1: y1, x2: x2, y2: y2) }
        // Scaled, then turned like the presentation (see `present()`).
        let scale = Int32(max(1, screen.scale))
        let turn = BufferTransform(transform: Int32(screen.transform.wlOutputTransform), scale: 1).inverted
        let scaled = PixmanRegion.Box(x1: x1 * scale, y1: y1 * scale, x2: x2 * scale, y2: y2 * scale)
        return turn.surfaceBox(fromBuffer: scaled, surfaceWidth: display.width, surfaceHeight: display.height)
    }
}
