/// Where the benchmark windows go on a 1920×1080 screen: a deterministic, overlapping mix of
/// XRGB (opaque) and ARGB (translucent, premultiplied) windows.
public struct SceneLayout {
    public struct WindowSpec {
        public var x: Int32
        public var y: Int32
        public var width: Int32
        public var height: Int32
        public var hasAlpha: Bool
        /// Premultiplied 0xAARRGGBB.
        public var argb: UInt32

        public init(x: Int32, y: Int32, width: Int32, height: Int32, hasAlpha: Bool, argb: UInt32) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.hasAlpha = hasAlpha
            self.argb = argb
        }
    }

    public typealias Rect = (x: Int32, y: Int32, width: Int32, height: Int32)
    public static let fullScreen: Rect = (0, 0, screenWidth, screenHeight)

    public static let screenWidth: Int32 = 1920
    public static let screenHeight: Int32 = 1080
    public static let background: UInt32 = 0xff20_2428

    public let windows: [WindowSpec]

    /// `count` windows, every other one ARGB; the first (bottom) is XRGB. Sizes 480×360…1000×760,
    /// spread over the screen so that they overlap each other and leave some background.
    public init(windows count: Int) {
        var seed: UInt64 = 0x5eed_1234
        func next(_ bound: Int32) -> Int32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int32(truncatingIfNeeded: (seed >> 33) % UInt64(bound))
        }
        var specs: [WindowSpec] = []
        for i in 0..<count {
            let w = 480 + next(520), h = 360 + next(400)
            let x = next(Self.screenWidth - w), y = next(Self.screenHeight - h)
            let alpha = i % 2 == 1
            // Translucent windows: alpha 0xc0 with premultiplied channels.
            let argb: UInt32 =
                alpha
                ? 0xc000_0000 | (UInt32(0x20 + next(0x90)) << 16) | (UInt32(0x20 + next(0x90)) << 8) | 0x40
                : 0xff00_0000 | UInt32(truncatingIfNeeded: next(0xff_ffff))
            specs.append(WindowSpec(x: x, y: y, width: w, height: h, hasAlpha: alpha, argb: argb))
        }
        windows = specs
    }

    /// A damage rectangle of about `percent` % of the screen, centred (where windows pile up).
    public static func damageRect(percent: Double) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let area = Double(screenWidth) * Double(screenHeight) * percent / 100
        // Same aspect as the screen.
        let w = Int32((area * Double(screenWidth) / Double(screenHeight)).squareRoot().rounded())
        let h = Int32((Double(area) / Double(w)).rounded())
        return ((screenWidth - w) / 2, (screenHeight - h) / 2, w, h)
    }
}

extension SceneLayout {
    /// A layout of given windows.
    public init(specs: [WindowSpec]) {
        windows = specs
    }
}
