import CPixman

/// A cheap 64-bit hash of a canvas's picture, for traces (`strata --record`): equal pictures
/// hash equal, whatever the damage that led to them.
///
/// The canvas is cut into 64×64 tiles; each tile keeps its own hash (FNV-1a over its pixels,
/// alpha ignored: x8r8g8b8 leaves the top byte undefined), and a frame rehashes only the tiles
/// its damage touches, then folds the tile hashes into the picture's hash. A 300×200 damage on
/// a 1280×720 screen rehashes 24 tiles (98,304 pixels) and folds 240 hashes; storage grows only
/// when the canvas does, so steady frames allocate nothing.
public final class FrameHasher {
    public static let tileSize: Int32 = 64
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

    /// The picture's hash after a frame that changed `damage` (canvas pixels) of `canvas`.
    /// A canvas of another size than last time is hashed whole.
    public func update(_ canvas: Canvas, damage: PixmanRegion) -> UInt64 {
        let t = Self.tileSize
        if canvas.width != width || canvas.height != height {
            width = canvas.width
            height = canvas.height
            columns = Int((width + t - 1) / t)
            rows = Int((height + t - 1) / t)
            tiles = [UInt64](repeating: 0, count: columns * rows)
            stale = [Bool](repeating: true, count: columns * rows)
        } else {
            let w = width, h = height, columns = columns
            damage.forEachBox { box in
                let x1 = max(0, min(w, box.x1)), x2 = max(0, min(w, box.x2))
                let y1 = max(0, min(h, box.y1)), y2 = max(0, min(h, box.y2))
                guard x1 < x2, y1 < y2 else { return }
                for row in Int(y1 / t)...Int((y2 - 1) / t) {
                    for column in Int(x1 / t)...Int((x2 - 1) / t) { stale[row * columns + column] = true }
                }
            }
        }
        var hashed = 0
        let data = canvas.data
        let rowPixels = Int(canvas.stride) / 4
        for index in 0..<stale.count where stale[index] {
            stale[index] = false
            let x0 = Int32(index % columns) * t, y0 = Int32(index / columns) * t
            let x1 = min(width, x0 + t), y1 = min(height, y0 + t)
            var h = Self.offsetBasis
            for y in Int(y0)..<Int(y1) {
                let row = data + y * rowPixels
                for x in Int(x0)..<Int(x1) {
                    h = (h ^ UInt64(row[x] & 0x00ff_ffff)) &* Self.prime
                }
            }
            tiles[index] = h
            hashed += Int(x1 - x0) * Int(y1 - y0)
        }
        lastHashedPixels = hashed
        var picture = Self.offsetBasis ^ (UInt64(UInt32(bitPattern: width)) << 32 | UInt64(UInt32(bitPattern: height)))
        for tile in tiles { picture = (picture ^ tile) &* Self.prime }
        return picture
    }
}
