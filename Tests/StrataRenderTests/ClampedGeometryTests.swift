import CPixman
import StrataModel
import StrataRender
import Testing

/// The render layer's arithmetic on client numbers: buffer transforms of wide buffers, buffer
/// damage at the Int32 edges, viewports past pixman's 16.16 range, regions at the edges, and
/// drawing far away — clamped (`Coordinate`), never trapping.
@Suite struct ClampedGeometryTests {
    let limit = Coordinate.limit

    @Test(arguments: 0..<8)
    func transformOfA32768PixelsWideBufferSaturatesInsteadOfTrapping(_ transform: Int32) {
        let t = BufferTransform(transform: transform, scale: 1)
        let size = t.surfaceSize(bufferWidth: 32768, bufferHeight: 2)
        let m = t.pixmanTransform(surfaceWidth: size.width, surfaceHeight: size.height)
        // Translations of 32,768 units are 2^31 in 16.16: one past Int32.max, saturated.
        let translations = [m.matrix.0.2, m.matrix.1.2]
        #expect(translations.allSatisfy { $0 == 0 || $0 == 2 * 65536 || $0 == Int32.max })
        #expect(m.matrix.2 == (0, 0, 65536))
    }

    @Test func aSmallTransformIsExact() {
        let m = BufferTransform(transform: 2, scale: 3).pixmanTransform(surfaceWidth: 10, surfaceHeight: 4)
        #expect(m.matrix.0 == (-3 * 65536, 0, 30 * 65536))
        #expect(m.matrix.1 == (0, -3 * 65536, 12 * 65536))
    }

    @Test(arguments: [(Int32(1), Int32(2)), (7, 4), (2, 1), (5, 8), (0, 2147483647)])
    func bufferDamageAtTheInt32EdgesMapsToClampedSurfaceBoxes(_ transform: Int32, _ scale: Int32) {
        let t = BufferTransform(transform: transform, scale: scale)
        let boxes = [
            PixmanRegion.Box(x1: .min, y1: .min, x2: .max, y2: .max),
            PixmanRegion.Box(x1: .max - 1, y1: .max - 1, x2: .max, y2: .max),
            PixmanRegion.Box(x1: .min, y1: 0, x2: .min + 1, y2: 1),
        ]
        for surface in [(Int32(40), Int32(40)), (Int32.max, Int32.max), (limit, 1)] {
            for box in boxes {
                let s = t.surfaceBox(fromBuffer: box, surfaceWidth: surface.0, surfaceHeight: surface.1)
                #expect(s.x1 <= s.x2 && s.y1 <= s.y2)
                #expect([s.x1, s.y1, s.x2, s.y2].allSatisfy { abs(Int($0)) <= Int(limit) })
            }
        }
    }

    @Test func viewportSourcesPast32768AndTinyDestinationsSaturate() {
        let far = Viewport(
            source: .init(x: 40000, y: 0, width: 25535, height: 0.5), destination: .init(width: 1, height: 1))
        let m = far.pixmanTransform(surfaceWidth: 1, surfaceHeight: 1, contentWidth: 65535, contentHeight: 1)
        #expect(m.matrix.0.2 == Int32.max)  // 40,000 is past 16.16: saturated
        #expect(m.matrix.0.0 == 25535 * 65536)  // below it: exact
        #expect(m.matrix.1.1 == 32768)  // 0.5 exactly
        let wider = Viewport(
            source: .init(x: 0, y: 0, width: 40000, height: 1), destination: .init(width: 1, height: 1))
        #expect(
            wider.pixmanTransform(surfaceWidth: 1, surfaceHeight: 1, contentWidth: 65535, contentHeight: 1).matrix.0.0
                == Int32.max)
        let huge = Viewport(destination: .init(width: .max, height: .max))
        #expect(huge.surfaceSize(contentWidth: 1, contentHeight: 1) == .init(width: .max, height: .max))
        let t = huge.pixmanTransform(surfaceWidth: .max, surfaceHeight: .max, contentWidth: 1, contentHeight: 1)
        #expect(t.matrix.0.0 == 0 && t.matrix.1.1 == 0)  // below 1/65536: rounds to 0, no trap
        let wholeFarSource = Viewport(source: .init(x: 0, y: 0, width: 8_388_607, height: 1))
        #expect(wholeFarSource.surfaceSize(contentWidth: 1, contentHeight: 1) == .init(width: 8_388_607, height: 1))
    }

    @Test func regionRectanglesAtTheInt32EdgesAreClampedToTheLimit() {
        let region = PixmanRegion()
        region.addRect(x: .max, y: .max, width: .max, height: .max)  // wholly past the limit
        #expect(region.isEmpty)
        region.addRect(x: .min, y: .min, width: .max, height: .max)
        #expect(region.extents == PixmanRegion.Box(x1: -limit, y1: -limit, x2: -1, y2: -1))
        region.addRect(x: 0, y: 0, width: .max, height: 1)
        #expect(region.extents.x2 == limit)
        region.subtractRect(x: .min, y: .min, width: .max, height: .max)
        #expect(region.extents == PixmanRegion.Box(x1: 0, y1: 0, x2: limit, y2: 1))
        region.intersect(x: -5, y: -5, width: .max, height: .max)
        #expect(region.extents.x2 == limit)
        region.setInfinite()
        #expect(region.extents == PixmanRegion.Box(x1: -limit, y1: -limit, x2: limit, y2: limit))
        #expect(PixmanRegion.Box(x1: .min, y1: 0, x2: .max, y2: 1).width == .max)
    }

    @Test func drawingATextureFarAwayOrHugeDrawsNothingOutsideTheCanvas() throws {
        let canvas = try #require(Canvas(width: 16, height: 16))
        let texture = SurfaceTexture()
        texture.fill(width: 4, height: 4, argb: 0xffff_0000)
        canvas.fill(argb: 0xff00_0000)
        let region = PixmanRegion(x: 0, y: 0, width: 16, height: 16)
        for (x, y) in [(limit, limit), (-limit, -limit), (Int32.max, Int32.min), (Int32.min, 0)] {
            canvas.draw(
                texture, x: x, y: y, surfaceWidth: 4, surfaceHeight: 4,
                transform: BufferTransform(transform: 3, scale: 1),
                in: region)
        }
        #expect(canvas.pixel(x: 0, y: 0) == 0xff00_0000)
        // A surface whose size is the limit, starting just left of the canvas, covers it.
        canvas.draw(
            texture, x: -8, y: -8, surfaceWidth: limit, surfaceHeight: limit, transform: .identity,
            viewport: Viewport(destination: .init(width: limit, height: limit)), in: region)
        #expect(canvas.pixel(x: 15, y: 15) == 0xffff_0000)
        #expect(canvas.pixel(x: 0, y: 0) == 0xffff_0000)
    }
}
