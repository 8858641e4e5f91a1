import CPixman
import StrataModel

/// How a buffer's pixels map onto its surface: `wl_surface.set_buffer_transform` and
/// `set_buffer_scale`. The buffer holds the surface's content already rotated/flipped by
/// `transform` and multiplied by `scale`; the compositor applies the inverse when sampling.
///
/// The raw values are wl_output_transform's: 0 normal, 1–3 rotated 90/180/270, 4 flipped,
/// 5–7 flipped and rotated 90/180/270.
public struct BufferTransform: Equatable, Sendable {
    public var transform: Int32
    public var scale: Int32

    public init(transform: Int32 = 0, scale: Int32 = 1) {
        self.transform = transform
        self.scale = max(1, scale)
    }

    public static let identity = BufferTransform()

    /// The transform that undoes this one (rotations by 90 and 270 swap; flips and 180 undo
    /// themselves). Scale is not inverted.
    public var inverted: BufferTransform {
        switch transform {
        case 1: return BufferTransform(transform: 3, scale: scale)
        case 3: return BufferTransform(transform: 1, scale: scale)
        default: return self
        }
    }
    public var isIdentity: Bool { transform == 0 && scale == 1 }
    public var swapsAxes: Bool { transform & 1 == 1 }

    /// The surface size a buffer of `width`×`height` pixels gives.
    public func surfaceSize(bufferWidth: Int32, bufferHeight: Int32) -> (width: Int32, height: Int32) {
        let w = bufferWidth / scale, h = bufferHeight / scale
        return swapsAxes ? (h, w) : (w, h)
    }

    /// b = M·s + c in buffer units (before scale), for a surface of size sw×sh.
    /// Returns (m00, m01, m10, m11, cx, cy).
    private func matrix(surfaceWidth sw: Int32, surfaceHeight sh: Int32) -> (Int32, Int32, Int32, Int32, Int32, Int32) {
        switch transform {
        case 1: return (0, 1, -1, 0, 0, sw)  // 90:          bx = sy,      by = sw - sx
        case 2: return (-1, 0, 0, -1, sw, sh)  // 180:         bx = sw - sx, by = sh - sy
        case 3: return (0, -1, 1, 0, sh, 0)  // 270:         bx = sh - sy, by = sx
        case 4: return (-1, 0, 0, 1, sw, 0)  // flipped:     bx = sw - sx, by = sy
        case 5: return (0, 1, 1, 0, 0, 0)  // flipped 90:  bx = sy,      by = sx
        case 6: return (1, 0, 0, -1, 0, sh)  // flipped 180: bx = sx,      by = sh - sy
        case 7: return (0, -1, -1, 0, sh, sw)  // flipped 270: bx = sh - sy, by = sw - sx
        default: return (1, 0, 0, 1, 0, 0)
        }
    }

    /// The pixman transform from surface-local coordinates to buffer pixels. Entries are
    /// computed wide and saturate at pixman's fixed-point ends (`Coordinate.fixed`): a surface
    /// past 32,767 units cannot be sampled exactly by pixman, but it never traps.
    public func pixmanTransform(surfaceWidth sw: Int32, surfaceHeight sh: Int32) -> pixman_transform_t {
        let (a, b, c, d, cx, cy) = matrix(surfaceWidth: sw, surfaceHeight: sh)
        let s = Double(scale)
        func fixed(_ v: Int32) -> pixman_fixed_t { Coordinate.fixed(Double(v) * s) }
        var t = pixman_transform_t()
        t.matrix.0 = (fixed(a), fixed(b), fixed(cx))
        t.matrix.1 = (fixed(c), fixed(d), fixed(cy))
        t.matrix.2 = (0, 0, 1 << 16)
        return t
    }

    /// Maps a rectangle of buffer pixels to the surface rectangle it covers (rounded outwards),
    /// computed wide and clamped to ±`Coordinate.limit` (damage_buffer edges may be anything).
    public func surfaceBox(fromBuffer box: PixmanRegion.Box, surfaceWidth sw: Int32, surfaceHeight sh: Int32)
        -> PixmanRegion.Box
    {
        let (a, b, c, d, cx, cy) = matrix(surfaceWidth: sw, surfaceHeight: sh)
        let scale = Int(self.scale)
        // s = Mᵀ · (b/scale - c); M is orthogonal with ±1 entries.
        func toSurface(_ bx: Int32, _ by: Int32, roundUp: Bool) -> (Int32, Int32) {
            let bx = Int(bx), by = Int(by)
            let ux = roundUp ? (bx + scale - 1) / scale : bx / scale
            let uy = roundUp ? (by + scale - 1) / scale : by / scale
            let px = ux - Int(cx), py = uy - Int(cy)
            return (Coordinate.clamped(Int(a) * px + Int(c) * py), Coordinate.clamped(Int(b) * px + Int(d) * py))
        }
        let p = toSurface(box.x1, box.y1, roundUp: false)
        let q = toSurface(box.x2, box.y2, roundUp: true)
        return PixmanRegion.Box(x1: min(p.0, q.0), y1: min(p.1, q.1), x2: max(p.0, q.0), y2: max(p.1, q.1))
    }
}
