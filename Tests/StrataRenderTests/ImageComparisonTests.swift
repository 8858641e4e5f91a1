import StrataModel
import StrataRender
import Testing

/// The one comparison (`ImageComparison`): threshold, masks, bounds, diff picture, sizes.
@Suite struct ImageComparisonTests {
    private func picture(_ width: Int, _ height: Int, _ argb: UInt32 = 0xff20_4060) -> PNGFile.Pixels {
        PNGFile.Pixels(width: width, height: height, argb: [UInt32](repeating: argb, count: width * height))
    }

    @Test func identicalPicturesMatch() throws {
        let result = try ImageComparison().compare(picture(8, 4), picture(8, 4))
        #expect(result.differing == 0 && result.compared == 32 && result.bounds == nil)
    }

    @Test func differencesAreCountedWithTheirBoundsAndTheThresholdForgivesSmallOnes() throws {
        var b = picture(10, 10)
        b.argb[2 * 10 + 3] = 0xff22_4060  // red +2
        b.argb[7 * 10 + 8] = 0xff20_4080  // blue +32
        let exact = try ImageComparison().compare(picture(10, 10), b)
        #expect(exact.differing == 2)
        #expect(exact.bounds == Rect(x: 3, y: 2, width: 6, height: 6))
        let tolerant = try ImageComparison(threshold: 2).compare(picture(10, 10), b)
        #expect(tolerant.differing == 1)
        #expect(tolerant.bounds == Rect(x: 8, y: 7, width: 1, height: 1))
        #expect(try ImageComparison(threshold: 32).compare(picture(10, 10), b).differing == 0)
    }

    /// Without a diff picture, identical rows are skipped whole: the counts, the compared pixels
    /// and the bounds are those of the pixel-by-pixel pass that draws the diff.
    @Test func skippingIdenticalRowsGivesWhatThePixelByPixelPassGives() throws {
        var b = picture(40, 30)
        var state: UInt32 = 12345
        for index in b.argb.indices where index / 40 % 3 == 1 {  // every third row changed here and there
            state = state &* 1_103_515_245 &+ 12345
            if state >> 28 == 0 { b.argb[index] = 0xff00_0000 | (state & 0xff_ffff) }
        }
        b.argb[5 * 40 + 7] = 0x0020_4060  // alpha only: a row whose bytes differ, with no pixel differing
        let comparison = ImageComparison(threshold: 3, masks: [Rect(x: 10, y: 0, width: 5, height: 30)])
        let skipping = try comparison.compare(picture(40, 30), b)
        let drawing = try comparison.compare(picture(40, 30), b, drawingDiff: true)
        #expect(skipping.differing > 0)
        #expect(
            skipping.differing == drawing.differing && skipping.compared == drawing.compared
                && skipping.bounds == drawing.bounds)
    }

    @Test func alphaIsIgnored() throws {
        #expect(try ImageComparison().compare(picture(2, 2, 0xff10_1010), picture(2, 2, 0x0010_1010)).differing == 0)
    }

    @Test func masksLeavePixelsOutAndAreClippedToThePicture() throws {
        var b = picture(10, 10)
        for index in b.argb.indices where index % 10 < 5 { b.argb[index] = 0xffff_ffff }
        let masked = try ImageComparison(masks: [.init(x: -5, y: -5, width: 10, height: 100)]).compare(
            picture(10, 10), b)
        #expect(masked.differing == 0)
        #expect(masked.compared == 50)
        let half = try ImageComparison(masks: [.init(x: 0, y: 0, width: 5, height: 5)]).compare(picture(10, 10), b)
        #expect(half.differing == 25)
    }

    @Test func theDiffPictureShowsDifferingPixelsRedOverTheDimmedOriginal() throws {
        var b = picture(4, 4, 0xff80_8080)
        b.argb[5] = 0xff00_0000
        let result = try ImageComparison(masks: [.init(x: 3, y: 3, width: 1, height: 1)]).compare(
            picture(4, 4, 0xff80_8080), b, drawingDiff: true)
        let diff = try #require(result.diff)
        #expect(diff.at(1, 1) == 0xffff_0000)
        #expect(diff.at(0, 0) == 0xff20_2020, "dimmed to a quarter")
        #expect(diff.at(3, 3) == 0xff10_1010, "masked: dimmer still")
    }

    @Test func differentSizesAreAClearError() {
        #expect(throws: ImageComparison.Failure.sizesDiffer(4, 4, 4, 5)) {
            try ImageComparison().compare(picture(4, 4), picture(4, 5))
        }
        #expect(
            ImageComparison.Failure.sizesDiffer(4, 4, 4, 5).description == "the pictures differ in size: 4x4 and 4x5")
    }
}
