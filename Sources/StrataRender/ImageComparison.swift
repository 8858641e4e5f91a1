import Glibc
import StrataModel

/// The one comparison of two pictures (`strata-ctl compare`, docs/control.md): two pixels
/// differ when any of their red, green and blue channels differs by more than `threshold`
/// (alpha is ignored: Strata's pictures are opaque); pixels under a mask are not compared. The
/// result is within tolerance when at most `maximumDiffering` pixels differ. Masks and bounds are
/// the model's `Rect`, clipped to the picture when used.
public struct ImageComparison {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case sizesDiffer(Int, Int, Int, Int)
        public var description: String {
            switch self {
            case .sizesDiffer(let aw, let ah, let bw, let bh):
                return "the pictures differ in size: \(aw)x\(ah) and \(bw)x\(bh)"
            }
        }
    }

    /// Per-channel difference (0...255) up to which two pixels count as the same.
    public var threshold = 0
    /// Rectangles left out of the comparison (a clock, a blinking caret).
    public var masks: [Rect] = []

    public init(threshold: Int = 0, masks: [Rect] = []) {
        self.threshold = max(0, min(255, threshold))
        self.masks = masks
    }

    public struct Result: Equatable {
        /// Pixels that differ beyond the threshold, outside the masks.
        public var differing: Int
        /// Pixels compared (the picture minus the masked ones).
        public var compared: Int
        /// The smallest rectangle holding every differing pixel (nil: none differ).
        public var bounds: Rect?
        /// The diff picture, when asked for: `a` dimmed, masked pixels dimmer still, differing
        /// pixels bright red.
        public var diff: PNGFile.Pixels?
        /// The share of compared pixels that differ (0...1).
        public var share: Double { compared == 0 ? 0 : Double(differing) / Double(compared) }
    }

    /// Compares `a` with `b`, and draws the diff picture when asked.
    public func compare(_ a: PNGFile.Pixels, _ b: PNGFile.Pixels, drawingDiff: Bool = false) throws(Failure) -> Result {
        guard a.width == b.width, a.height == b.height else { throw .sizesDiffer(a.width, a.height, b.width, b.height) }
        let width = a.width, height = a.height
        // One byte a pixel: 1 where masked.
        var masked: [UInt8] = []
        var maskedCount = 0
        if !masks.isEmpty {
            masked = [UInt8](repeating: 0, count: width * height)
            for mask in masks {
                let x0 = max(0, mask.x), y0 = max(0, mask.y)
                let x1 = min(width, mask.x &+ max(0, mask.width)), y1 = min(height, mask.y &+ max(0, mask.height))
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    for x in x0..<x1 where masked[y * width + x] == 0 {
                        masked[y * width + x] = 1
                        maskedCount += 1
                    }
                }
            }
        }
        var out: [UInt32] = !drawingDiff ? [] : [UInt32](repeating: 0, count: width * height)
        let limit = UInt32(threshold)
        var differing = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        a.argb.withUnsafeBufferPointer { pa in
            b.argb.withUnsafeBufferPointer { pb in
                masked.withUnsafeBufferPointer { pm in
                    out.withUnsafeMutableBufferPointer { po in
                        let drawing = po.count > 0, masking = pm.count > 0
                        for y in 0..<height {
                            var rowDiffers = false
                            let row = y * width
                            // Without a diff picture to draw, a row whose bytes are all the same
                            // has nothing to count (the usual case of a passing comparison).
                            if !drawing, let ra = pa.baseAddress, let rb = pb.baseAddress,
                                memcmp(ra + row, rb + row, width * 4) == 0
                            {
                                continue
                            }
                            for x in 0..<width {
                                let index = row + x
                                let p = pa[index], q = pb[index]
                                if masking, pm[index] != 0 {
                                    if drawing { po[index] = 0xff00_0000 | ((p >> 3) & 0x1f1f1f) }
                                    continue
                                }
                                var same = (p ^ q) & 0xffffff == 0
                                if !same, limit > 0 {
                                    let dr = Self.distance(p >> 16, q >> 16), dg = Self.distance(p >> 8, q >> 8),
                                        db = Self.distance(p, q)
                                    same = dr <= limit && dg <= limit && db <= limit
                                }
                                if same {
                                    if drawing { po[index] = 0xff00_0000 | ((p >> 2) & 0x3f3f3f) }
                                } else {
                                    differing += 1
                                    rowDiffers = true
                                    if x < minX { minX = x }
                                    if x > maxX { maxX = x }
                                    if drawing { po[index] = 0xffff_0000 }
                                }
                            }
                            if rowDiffers {
                                if y < minY { minY = y }
                                maxY = y
                            }
                        }
                    }
                }
            }
        }
        let bounds = maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        return Result(
            differing: differing, compared: width * height - maskedCount, bounds: bounds,
            diff: drawingDiff ? PNGFile.Pixels(width: width, height: height, argb: out) : nil)
    }

    @inline(__always)
    private static func distance(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let x = a & 0xff, y = b & 0xff
        return x > y ? x - y : y - x
    }
}
