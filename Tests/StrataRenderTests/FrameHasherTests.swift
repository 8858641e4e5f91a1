import CPixman
import StrataRender
import Testing

/// The frame hash of traces: equal pictures hash equal whatever the damage on the way.
@Suite struct FrameHasherTests {
    func canvas(_ argb: UInt32) throws -> Canvas {
        let canvas = try #require(Canvas(width: 200, height: 130))
        canvas.fill(argb: argb)
        return canvas
    }

    @Test func equalPicturesHashEqualWhateverTheDamageThatMadeThem() throws {
        let a = try canvas(0xff10_2030), b = try canvas(0xff10_2030)
        let hashA = FrameHasher(), hashB = FrameHasher()
        let whole = PixmanRegion()
        whole.addRect(x: 0, y: 0, width: 200, height: 130)
        _ = hashA.update(a, damage: whole)
        _ = hashB.update(b, damage: whole)
        // a: one rectangle drawn in one frame; b: the same rectangle in two frames.
        let red = PixmanRegion()
        red.addRect(x: 70, y: 20, width: 90, height: 80)
        a.fill(argb: 0xffff_0000, in: red)
        let first = hashA.update(a, damage: red)
        let left = PixmanRegion(), right = PixmanRegion()
        left.addRect(x: 70, y: 20, width: 40, height: 80)
        right.addRect(x: 110, y: 20, width: 50, height: 80)
        b.fill(argb: 0xffff_0000, in: left)
        let between = hashB.update(b, damage: left)
        b.fill(argb: 0xffff_0000, in: right)
        let second = hashB.update(b, damage: right)
        #expect(first == second)
        #expect(between != second)
        #expect(hashA.lastHashedPixels == 32 * 32 * 12, "only the twelve tiles the damage touches")
        #expect(FrameHasher().update(a, damage: PixmanRegion()) == first, "a fresh hasher hashes the whole canvas")
    }

    @Test func theUndefinedTopByteDoesNotChangeTheHash() throws {
        let a = try canvas(0xff10_2030), b = try canvas(0x0010_2030)
        #expect(FrameHasher().update(a, damage: PixmanRegion()) == FrameHasher().update(b, damage: PixmanRegion()))
    }

    @Test func oneChangedPixelChangesTheHash() throws {
        let a = try canvas(0xff10_2030)
        let hasher = FrameHasher()
        let before = hasher.update(a, damage: PixmanRegion())
        let dot = PixmanRegion()
        dot.addRect(x: 199, y: 129, width: 1, height: 1)
        a.fill(argb: 0xff10_2031, in: dot)
        #expect(hasher.update(a, damage: dot) != before)
    }
}
