import CPixman

/// A cheap 64-bit hash of a canvas's picture, for traces (`strata --record`): equal pictures
/// hash equal, whatever the damage that led to them.
///
/// The canvas is cut into 32×32 tiles; each tile keeps its own hash (FNV-1a over its pixels,
/// alpha ignored: x8r8g8b8 leaves the top byte undefined), and a frame rehashes only the tiles
/// its damage touches, then folds the tile hashes into the picture's hash. A 300×200 damage at
/// the origin of a 1280×720 screen rehashes 70 tiles (71,680 pixels) and folds 920 hashes;
/// storage grows only when the canvas does, so steady frames allocate nothing. (Tiles of 64
/// hashed 1.5 times the pixels for 250×250 windows: a tile's overhang past the damage costs as
/// much as the damage.)
public final class FrameHasher {
    public static let tileSize: Int32 = 32
    private var width: Int32 = 0
    private var height: Int32 = 0
    private var columns = 0
    private var rows = 0
    private var tiles: [UInt64] = []
    private var stale: [Bool] = []
    /// Pixels read by the last `update` (what the hash cost).
    public private(set) var lastHashedPixels = 0

    public init() {}

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// One tile's hash: four FNV-1a lanes over the rows' 64-bit words (two pixels each, top
    /// bytes masked), interleaved so that the multiplications do not wait for each other, folded
    /// at the end; an odd last pixel goes into the first lane.
    @inline(__always)
    static func hashTile(_ data: UnsafeMutablePointer<UInt32>, rowPixels: Int, x0: Int, x1: Int, y0: Int, y1: Int)
        -> UInt64
    {
        let mask: UInt64 = 0x00ff_ffff_00ff_ffff
        var h0 = offsetBasis, h1 = offsetBasis ^ 1, h2 = offsetBasis ^ 2, h3 = offsetBasis ^ 3
        let words = (x1 - x0) / 2
        for y in y0..<y1 {
            let row = UnsafeRawPointer(data + y * rowPixels + x0)
            var w = 0
            while w + 4 <= words {
                h0 = (h0 ^ (row.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self) & mask)) &* prime
                h1 = (h1 ^ (row.loadUnaligned(fromByteOffset: w * 8 + 8, as: UInt64.self) & mask)) &* prime
                h2 = (h2 ^ (row.loadUnaligned(fromByteOffset: w * 8 + 16, as: UInt64.self) & mask)) &* prime
                h3 = (h3 ^ (row.loadUnaligned(fromByteOffset: w * 8 + 24, as: UInt64.self) & mask)) &* prime
                w += 4
            }
            while w < words {
                h0 = (h0 ^ (row.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self) & mask)) &* prime
                w += 1
            }
            if (x1 - x0) & 1 == 1 {
                h1 = (h1 ^ UInt64(row.load(fromByteOffset: words * 8, as: UInt32.self) & 0x00ff_ffff)) &* prime
            }
        }
        return (((h0 &* prime) ^ h1) &* prime ^ h2) &* prime ^ h3
    }

    /// The picture's hash after a frame that changed `damage` (canvas pixels) of `canvas`.
    /// A canvas of another size than last time is hashed whole.
    public func update(_ canvas: Canvas, damage: PixmanRegion) -> UInt64 {
        markDamaged(canvas, damage: damage)
        return pictureHash(canvas)
    }

    /// Notes that a frame changed `damage` of `canvas`, without hashing yet (the tiles it
    /// touches are hashed by the next `pictureHash`).
    public func markDamaged(_ canvas: Canvas, damage: PixmanRegion) {
        let t = Self.tileSize
        if canvas.width != width || canvas.height != height {
            width = canvas.width
            height = canvas.height
            columns = Int((width + t - 1) / t)
            rows = Int((height + t - 1) / t)
            tiles = [UInt64](repeating: 0, count: columns * rows)
            stale = [Bool](repeating: true, count: columns * rows)
            return
        }
        let w = width, h = height, columns = columns
        stale.withUnsafeMutableBufferPointer { stale in
            guard let flags = stale.baseAddress else { return }
            damage.forEachBox { box in
                let x1 = max(0, min(w, box.x1)), x2 = max(0, min(w, box.x2))
                let y1 = max(0, min(h, box.y1)), y2 = max(0, min(h, box.y2))
                guard x1 < x2, y1 < y2 else { return }
                // Clamped to the canvas: every index is inside `stale` (columns × rows).
                let first = Int(x1 / t), last = Int((x2 - 1) / t)
                for row in Int(y1 / t)...Int((y2 - 1) / t) {
                    (flags + row * columns + first).update(repeating: true, count: last - first + 1)
                }
            }
        }
    }

    /// The hash of `canvas`'s picture now: the tiles marked since the last hash are hashed again.
    public func pictureHash(_ canvas: Canvas) -> UInt64 {
        if canvas.width != width || canvas.height != height { markDamaged(canvas, damage: PixmanRegion()) }
        let t = Self.tileSize
        var hashed = 0
        let data = canvas.data
        let rowPixels = Int(canvas.stride) / 4
        for index in 0..<stale.count where stale[index] {
            stale[index] = false
            let x0 = Int32(index % columns) * t, y0 = Int32(index / columns) * t
            let x1 = min(width, x0 + t), y1 = min(height, y0 + t)
            tiles[index] = Self.hashTile(data, rowPixels: rowPixels, x0: Int(x0), x1: Int(x1), y0: Int(y0), y1: Int(y1))
            hashed += Int(x1 - x0) * Int(y1 - y0)
        }
        lastHashedPixels = hashed
        var picture = Self.offsetBasis ^ (UInt64(UInt32(bitPattern: width)) << 32 | UInt64(UInt32(bitPattern: height)))
        for tile in tiles { picture = (picture ^ tile) &* Self.prime }
        return picture
    }
}
