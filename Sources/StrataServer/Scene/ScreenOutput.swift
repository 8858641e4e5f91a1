import CPixman
import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// Everything the server keeps for one screen: the model's `Screen`, its canvas and damage, its
/// frame clock, and its wl_output global.
///
/// Windows, damage and input live in the screen's logical coordinates (its bounds: the mode
/// turned by the transform, divided by the scale). They are composed on `canvas`, which has the
/// mode's pixels turned by the transform (`Screen.pixelSize`): a logical coordinate v is canvas
/// pixel `device(v)` = round(v × scale), so a surface covers canvas pixels device(x) ..< device(x + w)
/// and neighbours meet without gaps. What the display shows is `displayCanvas`: the canvas itself
/// when the screen is untransformed, at full brightness and not compensating an overscan (no extra
/// copy), else `presentation`, the mode-sized image the canvas is placed in the overscan safe area
/// (shrunk into it with `.scale` compensation; with `.insetBounds` the canvas is the safe area's
/// size), turned and dimmed into, black around the safe area. Every capture path (screenshots,
/// screencopy, the mirror source) reads `displayCanvas`.
public final class ScreenOutput {
    public let screen: Screen
    public let canvas: Canvas
    /// Damage (screen coordinates) not yet repainted.
    public let damage = PixmanRegion()
    /// `damage` in canvas pixels (rounded outwards) during a repaint; unused at scale 1.
    let deviceDamage = PixmanRegion()
    /// The mode-sized image shown when the screen is transformed or dimmed.
    public private(set) var presentation: Canvas?
    /// The screen's scale as the canvas was last sized for (the model's `Screen.scale`).
    public private(set) var scale: Double
    /// Whether canvas pixels are logical pixels (scale 1): no conversion anywhere.
    public private(set) var isUnscaled: Bool
    /// Logical width and height (the screen's bounds).
    public private(set) var width: Int32
    public private(set) var height: Int32
    /// The damage of the frame being presented in `displayCanvas` coordinates, read during the
    /// repaint (the backend, screencopy frames): the canvas damage itself when the canvas is what
    /// the display shows (no copy), else the damage turned into the presentation image.
    public var presentedDamage: PixmanRegion { presentation == nil ? canvasDamage : turnedDamage }
    /// `canvasDamage` in presentation pixels (transformed or dimmed screens).
    private let turnedDamage = PixmanRegion()
    /// The presentation geometry the presentation image was last drawn for (its size, the safe
    /// area, the transform): when it changes, the whole image is redrawn, its border black.
    private var presentedGeometry: PresentationGeometry?
    let backendName: String
    var global: Global?
    var bindings: [OutputBinding] = []
    var frameClock: FrameClock?
    var frameScheduled = false
    /// Whether a frame is wanted at the next tick of the frame clock (damage or frame callbacks
    /// are waiting).
    public var isFrameScheduled: Bool { frameScheduled }
    /// The time of the last frame (the compositor's `clock`), in nanoseconds.
    public internal(set) var lastFrameNanoseconds: UInt64 = 0
    /// Frames that drew something, and frames (drawn or not) that completed callbacks.
    public internal(set) var paintedFrames = 0
    public internal(set) var frames = 0
    /// Pixels the last painted frame redrew (the damage's area): what tests and benchmarks read
    /// to check that only damaged regions are repainted.
    public internal(set) var lastPaintedArea = 0
    weak var compositor: Compositor?

    init?(screen: Screen, backendName: String) {
        let pixels = ScreenOutput.pixelSize(of: screen)
        guard let canvas = Canvas(width: pixels.width, height: pixels.height) else { return nil }
        self.screen = screen
        self.canvas = canvas
        self.backendName = backendName
        let size = ScreenOutput.logicalSize(of: screen)
        (width, height) = size
        scale = screen.scale
        isUnscaled = screen.scale == 1
        damage.addRect(x: 0, y: 0, width: width, height: height)
    }

    /// The image the display shows (see the type's description).
    public var displayCanvas: Canvas { presentation ?? canvas }

    /// The refresh period of the current mode in nanoseconds (16,666,667 at 60 Hz), at least
    /// 1 ms (a mode above 1,000 Hz is paced at 1,000).
    var refreshPeriodNanoseconds: UInt64 {
        let mhz = UInt64(max(1, screen.currentMode?.refreshMilliHz ?? 60000))
        return max(1_000_000, (1_000_000_000_000 + mhz / 2) / mhz)
    }

    static func logicalSize(of screen: Screen) -> (width: Int32, height: Int32) {
        let size = screen.bounds.size
        return (Int32(clamping: max(1, size.width)), Int32(clamping: max(1, size.height)))
    }

    static func pixelSize(of screen: Screen) -> (width: Int32, height: Int32) {
        let size = screen.pixelSize
        return (Int32(clamping: max(1, size.width)), Int32(clamping: max(1, size.height)))
    }

    /// Follows the screen's mode, transform and scale: resizes the canvas (and presentation).
    /// The caller damages the whole screen.
    func updateGeometry() {
        let pixels = ScreenOutput.pixelSize(of: screen)
        canvas.resize(width: pixels.width, height: pixels.height)
        (width, height) = ScreenOutput.logicalSize(of: screen)
        scale = screen.scale
        isUnscaled = scale == 1
        updatePresentation()
    }

    /// The canvas pixel edge of logical coordinate `v`: round(v × scale), clamped to
    /// ±`Coordinate.limit` (a far subsurface on a scaled screen).
    @inline(__always)
    func device(_ v: Int32) -> Int32 {
        isUnscaled ? Coordinate.clamped(v) : Coordinate.scaled(v, by: scale)
    }

    /// A logical rectangle's canvas pixels (edges through `device`, so adjacent rectangles meet),
    /// clamped to ±`Coordinate.limit` at every scale.
    @inline(__always)
    func deviceRect(x: Int32, y: Int32, width: Int32, height: Int32) -> (
        x: Int32, y: Int32, width: Int32, height: Int32
    ) {
        guard !isUnscaled else { return (x, y, width, height) }
        // Edges computed wide and clamped, so the sides are differences of clamped edges.
        let x1 = device(x), y1 = device(y)
        return (x1, y1, device(Coordinate.sum(x, width)) - x1, device(Coordinate.sum(y, height)) - y1)
    }

    /// Sets `deviceDamage` to `damage` in canvas pixels, each box rounded outwards (a partly
    /// covered canvas pixel is repainted) and grown by one pixel on every side (the reach of the
    /// bilinear filter a scaled buffer is drawn with: a changed buffer pixel also changes the
    /// canvas pixels that blend it with its neighbours), clipped to the canvas.
    func updateDeviceDamage() {
        deviceDamage.clear()
        let s = scale, w = canvas.width, h = canvas.height
        damage.forEachBox { box in
            // Clipped box by box (an intersection of the finished region in place would allocate).
            let x1 = max(0, Int32(clamping: Int64((Double(box.x1) * s).rounded(.down)) - 1))
            let y1 = max(0, Int32(clamping: Int64((Double(box.y1) * s).rounded(.down)) - 1))
            let x2 = min(w, Int32(clamping: Int64((Double(box.x2) * s).rounded(.up)) + 1))
            let y2 = min(h, Int32(clamping: Int64((Double(box.y2) * s).rounded(.up)) + 1))
            guard x1 < x2, y1 < y2 else { return }
            deviceDamage.addRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
        }
    }

    /// The damage of this repaint in canvas pixels.
    var canvasDamage: PixmanRegion { isUnscaled ? damage : deviceDamage }

    private var needsPresentation: Bool {
        screen.transform != .normal || screen.brightness < 1 || isOverscanCompensated
    }

    /// Whether the canvas is shown in part of the display only (an overscan compensated by
    /// `.scale` or `.insetBounds`).
    var isOverscanCompensated: Bool {
        let full = screen.fullPixelSize
        let safe = screen.overscanSafeArea
        return safe.width != full.width || safe.height != full.height
    }

    /// Where the canvas goes in the upright picture (`Screen.fullPixelSize`): the safe area's
    /// origin, and how many canvas pixels one picture pixel is (1 with `.insetBounds`, more than
    /// 1 with `.scale`).
    struct PresentationGeometry: Equatable {
        var width: Int32, height: Int32
        var safe: Rect
        var transform: ScreenTransform
        var kx: Double, ky: Double
    }

    private func presentationGeometry(_ presentation: Canvas) -> PresentationGeometry {
        let safe = screen.overscanSafeArea
        return PresentationGeometry(
            width: presentation.width, height: presentation.height, safe: safe, transform: screen.transform,
            kx: Double(canvas.width) / Double(max(1, safe.width)),
            ky: Double(canvas.height) / Double(max(1, safe.height)))
    }

    /// A box of canvas pixels as the box of upright picture pixels it is shown in (rounded
    /// outwards; for damage, one more pixel on each side when the picture is scaled: the
    /// filter's reach), clipped to the safe area.
    private static func pictureBox(ofCanvas box: PixmanRegion.Box, _ g: PresentationGeometry, filterReach: Bool = true)
        -> PixmanRegion.Box?
    {
        let grow: Double = !filterReach || (g.kx == 1 && g.ky == 1) ? 0 : 1
        let ox = Double(g.safe.x), oy = Double(g.safe.y)
        let x1 = max(
            Int32(clamping: g.safe.x), Int32(clamping: Int64((Double(box.x1) / g.kx + ox - grow).rounded(.down))))
        let y1 = max(
            Int32(clamping: g.safe.y), Int32(clamping: Int64((Double(box.y1) / g.ky + oy - grow).rounded(.down))))
        let x2 = min(
            Int32(clamping: g.safe.maxX), Int32(clamping: Int64((Double(box.x2) / g.kx + ox + grow).rounded(.up))))
        let y2 = min(
            Int32(clamping: g.safe.maxY), Int32(clamping: Int64((Double(box.y2) / g.ky + oy + grow).rounded(.up))))
        guard x1 < x2, y1 < y2 else { return nil }
        return PixmanRegion.Box(x1: x1, y1: y1, x2: x2, y2: y2)
    }

    /// The point of the screen (logical coordinates) shown at pixel (x, y) of `displayCanvas`
    /// (the display's own pixels, before turning): what input in display coordinates hits. Nil
    /// on the black border around an overscan's safe area.
    public func logicalPoint(atDisplayPixel x: Double, _ y: Double) -> Point? {
        let display = displayCanvas
        var ux = x, uy = y
        if display !== canvas {
            // Undo the turn: presentation pixel → upright picture pixel.
            let turn = BufferTransform(transform: screen.transform.waylandValue, scale: 1).inverted
            let t = turn.pixmanTransform(surfaceWidth: display.width, surfaceHeight: display.height)
            func f(_ v: pixman_fixed_t) -> Double { Double(v) / 65536 }
            ux = f(t.matrix.0.0) * x + f(t.matrix.0.1) * y + f(t.matrix.0.2)
            uy = f(t.matrix.1.0) * x + f(t.matrix.1.1) * y + f(t.matrix.1.2)
        }
        return logicalPoint(atShownPixel: ux, uy)
    }

    /// The point of the screen (logical coordinates) shown at pixel (x, y) of the upright picture
    /// (`shownImage()`, a screenshot's pixels): through the overscan placement and the scale. Nil
    /// on the black border around an overscan's safe area and outside the picture.
    public func logicalPoint(atShownPixel x: Double, _ y: Double) -> Point? {
        guard x.isFinite, y.isFinite else { return nil }
        let safe = screen.overscanSafeArea
        guard x >= Double(safe.x), y >= Double(safe.y), x < Double(safe.maxX), y < Double(safe.maxY) else { return nil }
        let cx = (x - Double(safe.x)) * Double(canvas.width) / Double(max(1, safe.width))
        let cy = (y - Double(safe.y)) * Double(canvas.height) / Double(max(1, safe.height))
        return Point(x: cx / scale, y: cy / scale)
    }

    private func updatePresentation() {
        guard needsPresentation else {
            presentation = nil
            presentedGeometry = nil
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

    /// Turns and dims the damaged part of the canvas (`canvasDamage`) into the presentation
    /// image, when there is one, and sets its damage (`presentedDamage`: what changed in
    /// `displayCanvas`).
    func present() {
        present(canvasDamage, into: turnedDamage)
    }

    /// Turns and dims `damage` (canvas pixels) into the presentation image, when there is one;
    /// `turnedDamage` gets what changed there (presentation pixels).
    func present(_ canvasDamage: PixmanRegion, into turnedDamage: PixmanRegion) {
        updatePresentation()
        guard let presentation else { return }
        let turn = BufferTransform(transform: screen.transform.waylandValue, scale: 1).inverted
        let geometry = presentationGeometry(presentation)
        let placed = isOverscanCompensated
        // A new geometry (or a new image): all of it is drawn, the border too.
        let whole = presentedGeometry != geometry
        presentedGeometry = geometry
        // Canvas damage → presentation pixels: placed in the safe area, then turned like a buffer.
        turnedDamage.clear()
        if whole {
            turnedDamage.addRect(x: 0, y: 0, width: presentation.width, height: presentation.height)
        } else {
            canvasDamage.forEachBox { box in
                guard let picture = placed ? Self.pictureBox(ofCanvas: box, geometry) : box else { return }
                let b = turn.surfaceBox(
                    fromBuffer: picture, surfaceWidth: presentation.width, surfaceHeight: presentation.height)
                turnedDamage.addRect(x: b.x1, y: b.y1, width: b.width, height: b.height)
            }
        }
        // Presentation pixel → upright picture pixel (undo the turn) → canvas pixel (less the
        // safe area's origin, times the canvas pixels a picture pixel holds).
        var t = turn.pixmanTransform(surfaceWidth: presentation.width, surfaceHeight: presentation.height)
        presentation.setClip(turnedDamage)
        if placed {
            let ox = Coordinate.fixed(Double(geometry.safe.x)), oy = Coordinate.fixed(Double(geometry.safe.y))
            func times(_ v: pixman_fixed_t, _ k: Double) -> pixman_fixed_t {
                pixman_fixed_t(clamping: Int64((Double(v) * k).rounded()))
            }
            t.matrix.0 = (
                times(t.matrix.0.0, geometry.kx), times(t.matrix.0.1, geometry.kx),
                times(t.matrix.0.2 &- ox, geometry.kx)
            )
            t.matrix.1 = (
                times(t.matrix.1.0, geometry.ky), times(t.matrix.1.1, geometry.ky),
                times(t.matrix.1.2 &- oy, geometry.ky)
            )
            presentation.fill(argb: 0xff00_0000)
            presentation.draw(canvas, transform: t, smooth: geometry.kx != 1 || geometry.ky != 1, blend: true)
        } else {
            presentation.draw(canvas, transform: t, smooth: false, blend: false)
        }
        presentation.dim(brightness: screen.brightness)
        presentation.setClip(nil)
    }

    /// The transform from upright picture pixels (`Screen.fullPixelSize`, the screen as a viewer
    /// sees it) to `displayCanvas` pixels: the screen's turn (identity when untransformed).
    public var uprightToDisplay: pixman_transform_t {
        let display = displayCanvas
        guard display !== canvas else { return Canvas.scaling(1, offsetX: 0, offsetY: 0) }
        let up = screen.fullPixelSize
        return BufferTransform(transform: screen.transform.waylandValue, scale: 1)
            .pixmanTransform(
                surfaceWidth: Int32(clamping: max(1, up.width)), surfaceHeight: Int32(clamping: max(1, up.height)))
    }

    /// What the screen shows, upright: `displayCanvas` (after brightness and overscan) turned
    /// back as a viewer of the turned display sees it, and as grim turns a screencopy frame by
    /// the output's transform. The one definition of a screenshot (the control socket's
    /// `screenshot`, `strata --screenshot`); `displayCanvas` itself when the screen is
    /// untransformed. A new image when turned: for screenshots, not the frame path.
    public func shownImage() -> Canvas? {
        let display = displayCanvas
        guard screen.transform != .normal, display !== canvas else { return display }
        let up = screen.fullPixelSize
        guard let image = Canvas(width: Int32(clamping: max(1, up.width)), height: Int32(clamping: max(1, up.height)))
        else { return nil }
        image.draw(display, transform: uprightToDisplay, smooth: false, blend: false)
        return image
    }

}

extension ScreenOutput {
    /// A logical rectangle of the screen (nil: all of it) as a box of `displayCanvas` pixels,
    /// clipped to the screen; nil when nothing of it is on the screen.
    func displayBox(ofLogical rect: Rect?) -> PixmanRegion.Box? {
        let display = displayCanvas
        guard let rect else { return PixmanRegion.Box(x1: 0, y1: 0, x2: display.width, y2: display.height) }
        guard rect.width > 0, rect.height > 0 else { return nil }
        let lx1 = max(0, Int32(clamping: rect.x)), ly1 = max(0, Int32(clamping: rect.y))
        let lx2 = min(width, Int32(clamping: rect.maxX)), ly2 = min(height, Int32(clamping: rect.maxY))
        guard lx1 < lx2, ly1 < ly2 else { return nil }
        // Canvas pixels (the same edges windows are drawn with), then turned like the presentation.
        let x1 = device(lx1), y1 = device(ly1)
        let x2 = min(canvas.width, device(lx2)), y2 = min(canvas.height, device(ly2))
        guard x1 < x2, y1 < y2 else { return nil }
        var box = PixmanRegion.Box(x1: x1, y1: y1, x2: x2, y2: y2)
        guard display !== canvas else { return box }
        if isOverscanCompensated {
            let safe = screen.overscanSafeArea
            let g = PresentationGeometry(
                width: display.width, height: display.height, safe: safe, transform: screen.transform,
                kx: Double(canvas.width) / Double(max(1, safe.width)),
                ky: Double(canvas.height) / Double(max(1, safe.height)))
            guard let picture = Self.pictureBox(ofCanvas: box, g, filterReach: false) else { return nil }
            box = picture
        }
        let turn = BufferTransform(transform: screen.transform.waylandValue, scale: 1).inverted
        return turn.surfaceBox(fromBuffer: box, surfaceWidth: display.width, surfaceHeight: display.height)
    }
}
