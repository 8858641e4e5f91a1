/// A display that windows appear on (UIKit's `UIScreen`), connected through a `WindowManager`.
///
/// Every property is read-only outside the manager; change a screen with the manager's `setMode`,
/// `setTransform`, `setScale`, `setBrightness`, `setOverscan`, `setMirroring`, `setOrigin` and
/// `setUsableArea`,
/// so that observers are told.
public final class Screen {
    public let id: ScreenID
    /// The connector's name, e.g. `"HEADLESS-1"` or `"WL-1"`.
    public let name: String
    /// The modes the display supports, in the order the backend gave them, followed by the
    /// custom mode when there is one that is not among them.
    public var availableModes: [ScreenMode] {
        guard let customMode, !fixedModes.contains(customMode) else { return fixedModes }
        return fixedModes + [customMode]
    }
    /// The modes the backend gave when the screen connected.
    let fixedModes: [ScreenMode]
    /// A size imposed from outside (a nested screen's window resized by the parent session);
    /// set with `WindowManager.setCustomMode(_:for:)`.
    public internal(set) var customMode: ScreenMode?
    /// The mode the display prefers; nil only when it reported no modes at all.
    public let preferredMode: ScreenMode?
    /// The mode in use; starts as `preferredMode`.
    public internal(set) var currentMode: ScreenMode?
    /// Physical pixels per logical pixel: 1 ... 8 in steps of 1/120 (`Screen.normalizedScale`).
    /// Windows and the pointer live in logical pixels; the screen's image is its mode's pixels.
    public internal(set) var scale: Double
    public internal(set) var transform: ScreenTransform = .normal
    /// 0 (darkest) … 1 (brightest); the manager clamps.
    public internal(set) var brightness: Double = 1
    /// How much of the picture the display crops, in percent of each side's length (half of it
    /// on each edge): 0 (the default) ... `overscanRange.upperBound`.
    public internal(set) var overscan: Double = 0
    /// How the overscan is compensated for (UIKit's `overscanCompensation`; default `.scale`).
    public internal(set) var overscanCompensation: OverscanCompensation = .scale
    /// Whether the screen mirrors the main screen while no window is visible on it (UIKit's
    /// external-display behaviour). Defaults to true.
    public internal(set) var mirrorsWhenEmpty: Bool = true
    /// Position of the top-left corner in the global layout, in logical pixels.
    public internal(set) var origin: Point = .zero
    /// False once the screen has been disconnected; a disconnected screen is inert.
    public internal(set) var isConnected: Bool = true

    /// The usable area relative to the screen's top-left corner; nil = the whole screen.
    var usableAreaInScreen: Rect?
    /// Last mirroring state posted, so that changes are posted exactly once.
    var postedMirroring = false

    weak var manager: WindowManager?

    init(id: ScreenID, name: String, modes: [ScreenMode], preferredIndex: Int, scale: Double) {
        self.id = id
        self.name = name
        self.fixedModes = modes
        let index = modes.indices.contains(preferredIndex) ? preferredIndex : 0
        self.preferredMode = modes.isEmpty ? nil : modes[index]
        self.currentMode = preferredMode
        self.scale = Screen.normalizedScale(scale) ?? 1
    }

    /// The scales a screen can have: 1 ... 8.
    public static let scaleRange: ClosedRange<Double> = 1...8

    /// `scale` as a screen keeps it: rounded to the nearest 1/120 (wp_fractional_scale_v1's unit,
    /// so that the preferred scale clients get is exact) and clamped to `scaleRange`; nil for NaN
    /// or infinity.
    public static func normalizedScale(_ scale: Double) -> Double? {
        guard scale.isFinite else { return nil }
        let clamped = min(scaleRange.upperBound, max(scaleRange.lowerBound, scale))
        return (clamped * 120).rounded() / 120
    }

    /// The scale in 1/120 units (wp_fractional_scale_v1's preferred_scale): 1.5 is 180.
    public var scale120: Int { Int((scale * 120).rounded()) }

    /// The integer scale announced as wl_output.scale and preferred buffer scale: the scale
    /// rounded up, so that clients without fractional scaling draw at least as sharp as needed.
    public var integerScale: Int { Int(scale.rounded(.up)) }

    /// The logical length of `pixels` physical pixels: divided by the scale, rounded up, so that
    /// the logical screen covers every pixel of the mode (1366 pixels at 1.5 are 911 logical).
    static func logicalLength(_ pixels: Int, scale: Double) -> Int {
        guard pixels > 0 else { return 0 }
        // A hair below the exact quotient first: 1920 / 1.5 must stay 1280, not become 1281.
        return Int((Double(pixels) / scale - 1e-9).rounded(.up))
    }

    /// The screen's rectangle in the global layout, in logical pixels: origin is its position,
    /// size is the current mode's size, turned by `transform`, divided by `scale` and rounded
    /// up (`logicalLength`).
    public var bounds: Rect {
        let pixels = pixelSize
        return Rect(
            origin: origin,
            size: Size(
                width: Screen.logicalLength(pixels.width, scale: scale),
                height: Screen.logicalLength(pixels.height, scale: scale)))
    }

    /// The size of the image the screen's windows are composed into, before it is turned for
    /// the display: the current mode's size turned by `transform`, or with `.insetBounds`
    /// compensation the overscan safe area's size.
    public var pixelSize: Size {
        overscanCompensation == .insetBounds ? overscanSafeArea.size : fullPixelSize
    }

    /// The current mode's size turned by `transform`: the whole picture the display is sent,
    /// upright.
    public var fullPixelSize: Size {
        let pixels = transform.apply(to: currentMode?.size ?? .zero)
        return Size(width: max(0, pixels.width), height: max(0, pixels.height))
    }

    /// The overscans a screen can have, in percent: 0 ... 20.
    public static let overscanRange: ClosedRange<Double> = 0...20

    /// The part of the upright picture (`fullPixelSize`, pixels) the display shows whole: the
    /// picture less `overscan` percent of each side's length, centred (a half pixel rounds toward
    /// the top-left), at least 1×1. The whole picture when the compensation is `.none` or there is
    /// no overscan.
    public var overscanSafeArea: Rect {
        let full = fullPixelSize
        guard overscanCompensation != .none, overscan > 0 else {
            return Rect(x: 0, y: 0, width: full.width, height: full.height)
        }
        let keep = 1 - overscan / 100
        let w = min(full.width, max(1, Int((Double(full.width) * keep).rounded())))
        let h = min(full.height, max(1, Int((Double(full.height) * keep).rounded())))
        return Rect(x: (full.width - w) / 2, y: (full.height - h) / 2, width: w, height: h)
    }

    /// The size of `bounds`.
    public var size: Size { bounds.size }

    /// The part of `bounds` not taken by exclusive zones (panels), in the same global coordinates
    /// as `bounds`. Equals `bounds` until `WindowManager.setUsableArea(_:for:)` is called.
    public var usableArea: Rect {
        let whole = bounds
        guard let local = usableAreaInScreen else { return whole }
        let clipped = Rect(x: 0, y: 0, width: whole.width, height: whole.height).intersection(local)
        return (clipped ?? Rect(x: 0, y: 0, width: 0, height: 0)).offsetBy(dx: whole.x, dy: whole.y)
    }

    /// Whether this screen shows a copy of the main screen: it has no visible window, it mirrors
    /// when empty, and it is not the main screen. Always false once disconnected.
    public var isMirroring: Bool {
        manager?.computeMirroring(of: self) ?? false
    }

    /// Whether this is the manager's main screen (index 0 of `screens`).
    public var isMain: Bool {
        manager?.mainScreen === self
    }
}

extension Screen: CustomStringConvertible {
    public var description: String {
        "Screen(\(id), \(name), \(bounds), scale \(scale), \(transform.rawValue))"
    }
}
