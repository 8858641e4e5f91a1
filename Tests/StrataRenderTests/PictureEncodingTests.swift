import Foundation
import StrataRender
import StrataTestSupport
import Testing

/// `PictureEncoding`: what a trace keeps of a picture (docs/experiments.md, "Pictures in a trace").
@Suite struct PictureEncodingTests {
    @Test func aPNGReadsBackAsTheSamePixels() throws {
        let canvas = try #require(Canvas(width: 33, height: 17))
        canvas.fill(argb: 0xff20_4060)
        canvas.data[5 * Int(canvas.stride) / 4 + 7] = 0x00ff_ee00  // an undefined top byte: written opaque
        let png = try #require(PictureEncoding.png(of: canvas))
        #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        let folder = try ScratchPath()
        #expect(FileManager.default.createFile(atPath: folder.path, contents: Data(png)))
        let pixels = try PNGFile.read(path: folder.path)
        #expect(pixels.width == 33 && pixels.height == 17)
        #expect(pixels.at(0, 0) == 0xff20_4060 && pixels.at(7, 5) == 0xffff_ee00)
        #expect(pixels == PNGFile.Pixels(opaque: canvas))
    }

    @Test func aThumbnailKeepsTheShapeWithinItsSides() throws {
        let canvas = try #require(Canvas(width: 1280, height: 720))
        canvas.fill(argb: 0xff80_4020)
        let small = try #require(PictureEncoding.thumbnail(of: canvas))
        #expect(small.width == 320 && small.height == 180)
        #expect(small.pixel(x: 160, y: 90) == 0xff80_4020)
        let tall = try #require(Canvas(width: 100, height: 1000))
        let narrow = try #require(PictureEncoding.thumbnail(of: tall))
        #expect(narrow.width == 32 && narrow.height == 320)
        let tiny = try #require(Canvas(width: 40, height: 30))
        #expect(PictureEncoding.thumbnail(of: tiny) === tiny, "no larger than the sides: the same canvas")
    }

    @Test func hashesAreWrittenAndCheckedAsTheTraceHasThem() throws {
        #expect(PictureEncoding.hex(0x2f) == "000000000000002f")
        #expect(PictureEncoding.isHash("2f0a230b835ec8ed"))
        for text in ["2F0A230B835EC8ED", "2f0a230b835ec8e", "2f0a230b835ec8edd", "2f0a230b835ec8eg", ""] {
            #expect(!PictureEncoding.isHash(text), "\(text)")
        }
        let a = try #require(Canvas(width: 8, height: 8)), b = try #require(Canvas(width: 8, height: 8))
        a.fill(argb: 0xff01_0203)
        b.fill(argb: 0x0001_0203)
        #expect(PictureEncoding.hash(of: a) == PictureEncoding.hash(of: b), "alpha is not part of the picture")
    }

    /// A file path in a fresh temporary folder, removed with it.
    final class ScratchPath {
        let folder: ScratchFolder
        var path: String { folder.path + "/picture.png" }
        init() throws { folder = try ScratchFolder(prefix: "strata-picture") }
    }
}
