import CPixman
import Foundation
import StrataRender
import Testing

/// A 3×2 buffer whose every pixel has its own colour, so any mix-up of axes shows.
private func distinctBuffer() -> [UInt32] {
    (0..<6).map { 0xff00_0000 | UInt32($0 + 1) * 0x10_2030 }
}

/// Where surface pixel (sx, sy) samples the buffer, written out per transform independently of
/// BufferTransform's matrix (the inverse of what the client applied, wl_output.transform order).
private func expectedBufferPixel(transform: Int32, sx: Int, sy: Int, sw: Int, sh: Int) -> (Int, Int) {
    switch transform {
    case 1: return (sy, sw - 1 - sx)
    case 2: return (sw - 1 - sx, sh - 1 - sy)
    case 3: return (sh - 1 - sy, sx)
    case 4: return (sw - 1 - sx, sy)
    case 5: return (sy, sx)
    case 6: return (sx, sh - 1 - sy)
    case 7: return (sh - 1 - sy, sw - 1 - sx)
    default: return (sx, sy)
    }
}

@Suite struct RenderTests {
    @Test(arguments: 0..<8)
    func everyBufferTransformSamplesTheRightPixel(transform: Int32) throws {
        var pixels = distinctBuffer()
        let texture = SurfaceTexture()
        let bw: Int32 = 3, bh: Int32 = 2
        pixels.withUnsafeMutableBytes { raw in
            _ = texture.update(
                from: raw.baseAddress!, stride: bw * 4, width: bw, height: bh, hasAlpha: false, damage: nil)
        }
        let t = BufferTransform(transform: transform, scale: 1)
        let (sw, sh) = t.surfaceSize(bufferWidth: bw, bufferHeight: bh)
        let canvas = try #require(Canvas(width: 8, height: 8))
        canvas.fill(argb: 0xff00_0000)
        canvas.draw(texture, x: 1, y: 1, surfaceWidth: sw, surfaceHeight: sh, transform: t)
        for sy in 0..<Int(sh) {
            for sx in 0..<Int(sw) {
                let (bx, by) = expectedBufferPixel(transform: transform, sx: sx, sy: sy, sw: Int(sw), sh: Int(sh))
                #expect(
                    canvas.pixel(x: Int32(sx) + 1, y: Int32(sy) + 1) == pixels[by * Int(bw) + bx],
                    "transform \(transform) surface (\(sx),\(sy))")
            }
        }
        #expect(canvas.pixel(x: 0, y: 0) == 0xff00_0000)
    }

    @Test func bufferScaleTwoShowsEachBufferPixelOncePerSurfacePixel() throws {
        // A 4×4 buffer at scale 2 is a 2×2 surface: surface pixel (x, y) samples buffer (2x, 2y).
        var pixels = (0..<16).map { 0xff00_0000 | UInt32($0) * 0x0f_0f0f }
        let texture = SurfaceTexture()
        pixels.withUnsafeMutableBytes { raw in
            _ = texture.update(from: raw.baseAddress!, stride: 16, width: 4, height: 4, hasAlpha: false, damage: nil)
        }
        let t = BufferTransform(transform: 0, scale: 2)
        #expect(t.surfaceSize(bufferWidth: 4, bufferHeight: 4) == (2, 2))
        let canvas = try #require(Canvas(width: 4, height: 4))
        canvas.fill(argb: 0)
        canvas.draw(texture, x: 0, y: 0, surfaceWidth: 2, surfaceHeight: 2, transform: t)
        #expect(canvas.pixel(x: 0, y: 0) == pixels[0])
        #expect(canvas.pixel(x: 1, y: 0) == pixels[2])
        #expect(canvas.pixel(x: 0, y: 1) == pixels[8])
        #expect(canvas.pixel(x: 1, y: 1) == pixels[10])
        #expect(canvas.pixel(x: 2, y: 2) == 0xff00_0000)
    }

    @Test func bufferDamageMapsBackToTheSurfaceRectangleItCovers() {
        let t = BufferTransform(transform: 1, scale: 2)
        // Surface 3×2 → buffer (2·2)×(3·2) = 4×6. Buffer pixels x 0..<2, y 0..<2 are surface
        // x 2..<3 (by = sw - sx), y 0..<1 (bx = sy).
        let box = t.surfaceBox(fromBuffer: .init(x1: 0, y1: 0, x2: 2, y2: 2), surfaceWidth: 3, surfaceHeight: 2)
        #expect(box == .init(x1: 2, y1: 0, x2: 3, y2: 1))
    }

    @Test func drawingIsClippedToTheDamage() throws {
        let canvas = try #require(Canvas(width: 10, height: 10))
        canvas.fill(argb: 0xff11_1111)
        let clip = PixmanRegion(x: 2, y: 2, width: 3, height: 3)
        canvas.setClip(clip)
        canvas.fill(argb: 0xff22_2222)
        canvas.setClip(nil)
        #expect(canvas.pixel(x: 2, y: 2) == 0xff22_2222)
        #expect(canvas.pixel(x: 4, y: 4) == 0xff22_2222)
        #expect(canvas.pixel(x: 5, y: 5) == 0xff11_1111)
        #expect(canvas.pixel(x: 1, y: 2) == 0xff11_1111)
    }

    @Test func translucentPixelsBlendOverWhatIsBelow() throws {
        var pixels: [UInt32] = [0x8000_0080]  // premultiplied: half-transparent blue at half
        let texture = SurfaceTexture()
        pixels.withUnsafeMutableBytes { raw in
            _ = texture.update(from: raw.baseAddress!, stride: 4, width: 1, height: 1, hasAlpha: true, damage: nil)
        }
        let canvas = try #require(Canvas(width: 1, height: 1))
        canvas.fill(argb: 0xffff_0000)
        canvas.draw(texture, x: 0, y: 0, surfaceWidth: 1, surfaceHeight: 1, transform: .identity)
        // OVER: src + dst·(1 − αs) = (0,0,0x80) + (0xff,0,0)·(0x7f/0xff)
        #expect(canvas.pixel(x: 0, y: 0) == 0xff7f_0080)
    }

    @Test func partialUpdateCopiesOnlyTheDamagedPixels() throws {
        var first: [UInt32] = [0xff00_0001, 0xff00_0002, 0xff00_0003, 0xff00_0004]
        var second: [UInt32] = [0xffaa_aaaa, 0xffbb_bbbb, 0xffcc_cccc, 0xffdd_dddd]
        let texture = SurfaceTexture()
        first.withUnsafeMutableBytes { raw in
            _ = texture.update(from: raw.baseAddress!, stride: 8, width: 2, height: 2, hasAlpha: false, damage: nil)
        }
        second.withUnsafeMutableBytes { raw in
            _ = texture.update(
                from: raw.baseAddress!, stride: 8, width: 2, height: 2, hasAlpha: false,
                damage: PixmanRegion(x: 1, y: 1, width: 1, height: 1))
        }
        let canvas = try #require(Canvas(width: 2, height: 2))
        canvas.draw(texture, x: 0, y: 0, surfaceWidth: 2, surfaceHeight: 2, transform: .identity)
        #expect(canvas.pixel(x: 0, y: 0) == 0xff00_0001)
        #expect(canvas.pixel(x: 1, y: 0) == 0xff00_0002)
        #expect(canvas.pixel(x: 1, y: 1) == 0xffdd_dddd)
    }

    @Test func pngRoundTripKeepsEveryPixel() throws {
        let canvas = try #require(Canvas(width: 5, height: 3))
        canvas.fill(argb: 0xff12_3456)
        let clip = PixmanRegion(x: 1, y: 1, width: 2, height: 1)
        canvas.setClip(clip)
        canvas.fill(argb: 0xffab_cdef)
        canvas.setClip(nil)
        let path = NSTemporaryDirectory() + "strata-png-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGFile.write(path: path, canvas: canvas)
        let read = try PNGFile.read(path: path)
        #expect(read.width == 5 && read.height == 3)
        #expect(read.at(0, 0) == 0xff12_3456)
        #expect(read.at(1, 1) == 0xffab_cdef)
        #expect(read.at(2, 1) == 0xffab_cdef)
        #expect(read.at(3, 1) == 0xff12_3456)
    }

    @Test func writingToAnUnwritablePathIsAnError() throws {
        let canvas = try #require(Canvas(width: 1, height: 1))
        #expect(throws: PNGFile.Failure.self) {
            try PNGFile.write(path: "/nonexistent-dir/x.png", canvas: canvas)
        }
    }

    @Test func regionsAddSubtractAndIgnoreNonPositiveSizes() {
        let region = PixmanRegion(x: 0, y: 0, width: 10, height: 10)
        region.subtractRect(x: 0, y: 0, width: 5, height: 10)
        #expect(region.area == 50)
        region.addRect(x: 100, y: 100, width: -5, height: 3)
        region.addRect(x: 100, y: 100, width: 0, height: 3)
        #expect(region.area == 50)
        #expect(!region.contains(x: 2, y: 2))
        #expect(region.contains(x: 7, y: 2))
    }
}
