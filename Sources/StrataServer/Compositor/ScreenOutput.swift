import CStrataServerGlue
import CWaylandServer
import StrataModel
import StrataRender

/// Everything the server keeps for one screen: the model's `Screen`, its canvas and damage, its
/// frame clock, and its wl_output global.
public final class ScreenOutput {
    public let screen: Screen
    public let canvas: Canvas
    /// Damage (screen coordinates) not yet repainted.
    public let damage = PixmanRegion()
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

    init?(screen: Screen, backendName: String) {
        let size = screen.currentMode?.size ?? Size(width: 1, height: 1)
        guard let canvas = Canvas(width: Int32(clamping: size.width), height: Int32(clamping: size.height)) else { return nil }
        self.screen = screen
        self.canvas = canvas
        self.backendName = backendName
        damage.addRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
    }

    /// The refresh period in milliseconds (at least 1).
    var refreshPeriodMilliseconds: UInt32 {
        let mhz = screen.currentMode?.refreshMilliHz ?? 60000
        return UInt32(max(1, 1_000_000 / max(1, mhz)))
    }

    public var width: Int32 { canvas.width }
    public var height: Int32 { canvas.height }
}
