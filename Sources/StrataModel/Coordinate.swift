/// The one rule for arithmetic on numbers a client controls (positions, sizes, offsets, damage,
/// viewport rectangles, buffer scale and transform, screen scale, control-socket coordinates):
/// every coordinate or size the compositor derives from them is **clamped to ±`limit`** (2^29)
/// when it is made, by these helpers, and never computed in a type that can overflow on the way.
///
/// Why 2^29 (536,870,912): it is far beyond any screen (a 16K screen is under 2^14 pixels wide,
/// 2^17 even times the largest screen scale, 8), it is `PixmanRegion.infiniteExtent` (a
/// surface's infinite input region is exactly the clamped plane), and any sum or difference of two clamped values stays within ±2^30, so the
/// Int32 code that meets pixman (`pixman_box32_t`, composite offsets) can add a position and a
/// size, or subtract two edges, without overflowing. Longer chains (a subsurface inside a
/// subsurface inside a window, a placement times a screen scale) go through `sum` and `scaled`,
/// which compute in `Int` or `Double` and clamp again. Pixman's 16.16 fixed point has its own,
/// smaller range: `fixed` saturates at the Int32 ends (a transform that needs more cannot be
/// sampled by pixman anyway: it draws nothing or clamps, it does not trap).
public enum Coordinate {
    /// The largest magnitude of a coordinate or size derived from client numbers.
    public static let limit: Int32 = 1 << 29

    /// `v` clamped to ±`limit`.
    @inline(__always)
    public static func clamped(_ v: Int) -> Int32 {
        Int32(truncatingIfNeeded: min(Int(limit), max(-Int(limit), v)))
    }

    /// `v` clamped to ±`limit`.
    @inline(__always)
    public static func clamped(_ v: Int32) -> Int32 {
        min(limit, max(-limit, v))
    }

    /// `v` rounded toward zero and clamped to ±`limit`; NaN is 0. (Round first for another rule.)
    @inline(__always)
    public static func clamped(_ v: Double) -> Int32 {
        guard !v.isNaN else { return 0 }
        return Int32(min(Double(limit), max(-Double(limit), v)))
    }

    /// A size (width, height, extent): clamped to 0 ... `limit`.
    @inline(__always)
    public static func size(_ v: Int) -> Int32 {
        Int32(truncatingIfNeeded: min(Int(limit), max(0, v)))
    }

    /// A size (width, height, extent): clamped to 0 ... `limit`.
    @inline(__always)
    public static func size(_ v: Int32) -> Int32 {
        min(limit, max(0, v))
    }

    /// `a + b`, computed wide and clamped to ±`limit` (a placement plus a client's offset).
    @inline(__always)
    public static func sum(_ a: Int32, _ b: Int32) -> Int32 {
        clamped(Int(a) + Int(b))
    }

    /// `a + b + c`, computed wide and clamped to ±`limit`.
    @inline(__always)
    public static func sum(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 {
        clamped(Int(a) + Int(b) + Int(c))
    }

    /// `a - b`, computed wide and clamped to ±`limit`.
    @inline(__always)
    public static func difference(_ a: Int32, _ b: Int32) -> Int32 {
        clamped(Int(a) - Int(b))
    }

    /// `v × factor` rounded by `rule` and clamped to ±`limit` (a logical coordinate on a scaled
    /// screen, a size times a buffer scale); NaN is 0.
    @inline(__always)
    public static func scaled(
        _ v: Int32, by factor: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> Int32 {
        clamped((Double(v) * factor).rounded(rule))
    }

    /// A model coordinate (`Int`, a window frame) clamped to ±`limit`.
    @inline(__always)
    public static func clampedInt(_ v: Int) -> Int {
        min(Int(limit), max(-Int(limit), v))
    }

    /// A rectangle whose origin is clamped to ±`limit` and whose sides to 0 ... `limit` (a
    /// negative side becomes 0): the only frames the model holds.
    public static func clamped(_ rect: Rect) -> Rect {
        Rect(
            x: clampedInt(rect.x), y: clampedInt(rect.y),
            width: min(Int(limit), max(0, rect.width)), height: min(Int(limit), max(0, rect.height)))
    }

    /// `v` as pixman's 16.16 fixed point (`pixman_fixed_t`), rounded, saturating at the ends of
    /// Int32; NaN is 0. Pixman's own coordinates are Int32, its fixed point only ±32768.
    @inline(__always)
    public static func fixed(_ v: Double) -> Int32 {
        let f = (v * 65536).rounded()
        guard !f.isNaN else { return 0 }
        return Int32(min(Double(Int32.max), max(Double(Int32.min), f)))
    }

    /// `v`, a Double from a client or a device (wl_fixed, a pointer position), as an Int32
    /// coordinate rounded down and clamped to ±`limit`; NaN is 0.
    @inline(__always)
    public static func floor(_ v: Double) -> Int32 {
        clamped(v.rounded(.down))
    }
}
