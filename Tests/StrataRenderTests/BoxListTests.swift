import CPixman
import StrataRender
import StrataTestRandom
import Testing

/// The grid every comparison covers: wider than the rectangles' reach on every side.
private let gridRange: ClosedRange<Int32> = -12...76

private typealias Rect = (x: Int32, y: Int32, width: Int32, height: Int32)

/// A random rectangle around a 64×48 area; sometimes of zero or negative size, sometimes huge.
private func randomRect(_ g: inout SeededGenerator) -> Rect {
    switch Int.random(in: 0..<20, using: &g) {
    case 0:
        return (
            Int32.random(in: -8...70, using: &g), Int32.random(in: -8...60, using: &g),
            Int32.random(in: -6...0, using: &g), Int32.random(in: -6...20, using: &g)
        )
    case 1: return (-10, -10, 200, 200)
    default:
        return (
            Int32.random(in: -8...64, using: &g), Int32.random(in: -8...48, using: &g),
            Int32.random(in: 1...40, using: &g), Int32.random(in: 1...30, using: &g)
        )
    }
}

/// The list's boxes as values (tests only).
private func boxes(of list: BoxList) -> [BoxList.Box] {
    list.withBoxes { Array($0) }
}

/// Checks that `list` covers exactly the pixels of `region` (every pixel of the grid, the area
/// and the bounding box), and that its boxes are non-empty, disjoint and inside its extents.
private func expectSamePixels(
    _ list: BoxList, _ region: PixmanRegion, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(list.area == region.area, "area, \(context)", sourceLocation: sourceLocation)
    #expect(list.isEmpty == region.isEmpty, "emptiness, \(context)", sourceLocation: sourceLocation)
    var mismatches = 0
    for y in gridRange {
        for x in gridRange where list.contains(x: x, y: y) != region.contains(x: x, y: y) { mismatches += 1 }
    }
    #expect(mismatches == 0, "pixels that differ, \(context)", sourceLocation: sourceLocation)
    let all = boxes(of: list)
    #expect(all.count == list.count, sourceLocation: sourceLocation)
    let e = list.extents
    if region.isEmpty {
        #expect(
            e.x1 == 0 && e.y1 == 0 && e.x2 == 0 && e.y2 == 0, "extents of an empty list, \(context)",
            sourceLocation: sourceLocation)
    } else {
        let r = region.extents
        #expect(
            e.x1 == r.x1 && e.y1 == r.y1 && e.x2 == r.x2 && e.y2 == r.y2, "extents, \(context)",
            sourceLocation: sourceLocation)
    }
    for (i, a) in all.enumerated() {
        #expect(a.x1 < a.x2 && a.y1 < a.y2, "an empty box, \(context)", sourceLocation: sourceLocation)
        #expect(
            a.x1 >= e.x1 && a.y1 >= e.y1 && a.x2 <= e.x2 && a.y2 <= e.y2, "a box outside the extents, \(context)",
            sourceLocation: sourceLocation)
        for b in all[(i + 1)...] {
            let overlaps = a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2
            #expect(!overlaps, "overlapping boxes, \(context)", sourceLocation: sourceLocation)
        }
    }
}

@Suite struct BoxListTests {
    /// Random scenes: a region of a few rectangles, then random subtractions, intersections and
    /// opaque-region subtractions, each applied to a BoxList and (independently) to a pixman
    /// region; after every step both cover the same pixels.
    @Test(arguments: 0..<64)
    func randomOperationsCoverTheSamePixelsAsPixmanRegions(seed: UInt64) {
        var g = SeededGenerator(seed: seed)
        let region = PixmanRegion()
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let r = randomRect(&g)
            region.addRect(x: r.x, y: r.y, width: r.width, height: r.height)
        }
        let list = BoxList()
        if Bool.random(using: &g) {
            list.set(region)
        } else {
            let c = randomRect(&g)
            list.set(region, clippedTo: c.x, c.y, c.width, c.height)
            region.intersect(x: c.x, y: c.y, width: c.width, height: c.height)
        }
        expectSamePixels(list, region, "seed \(seed), initial")
        let other = BoxList()
        for step in 0..<24 {
            let r = randomRect(&g)
            let context = "seed \(seed), step \(step), rect \(r)"
            switch Int.random(in: 0..<10, using: &g) {
            case 0:
                // Into another list, the source unchanged.
                other.setIntersection(list, x: r.x, y: r.y, width: r.width, height: r.height)
                let expected = PixmanRegion()
                expected.setIntersection(region, x: r.x, y: r.y, width: r.width, height: r.height)
                expectSamePixels(other, expected, context + ", intersection into another list")
                expectSamePixels(list, region, context + ", the intersection's source")
            case 1:
                list.setIntersection(list, x: r.x, y: r.y, width: r.width, height: r.height)
                region.intersect(x: r.x, y: r.y, width: r.width, height: r.height)
                expectSamePixels(list, region, context + ", intersection in place")
            case 2, 3:
                // An opaque region of a surface at (dx, dy), clipped to its size, at scale 1 or 2.
                let opaque = PixmanRegion()
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    let o = randomRect(&g)
                    opaque.addRect(x: o.x, y: o.y, width: o.width, height: o.height)
                }
                let dx = Int32.random(in: -10...20, using: &g), dy = Int32.random(in: -10...20, using: &g)
                let w = Int32.random(in: -2...40, using: &g), h = Int32.random(in: -2...40, using: &g)
                let k: Int32 = Bool.random(using: &g) ? 1 : 2
                list.subtract(opaque, clippedTo: 0, 0, w, h) { b in
                    ((dx + b.x1) * k, (dy + b.y1) * k, (b.x2 - b.x1) * k, (b.y2 - b.y1) * k)
                }
                let placed = PixmanRegion()
                if w > 0, h > 0 {
                    opaque.intersect(x: 0, y: 0, width: w, height: h)
                    opaque.forEachBox { b in
                        placed.addRect(x: (dx + b.x1) * k, y: (dy + b.y1) * k, width: b.width * k, height: b.height * k)
                    }
                }
                region.subtract(placed)
                expectSamePixels(
                    list, region, context + ", opaque region \(opaque.boxes) at (\(dx), \(dy)) ×\(k) within \(w)×\(h)")
            default:
                list.subtract(x: r.x, y: r.y, width: r.width, height: r.height)
                region.subtractRect(x: r.x, y: r.y, width: r.width, height: r.height)
                expectSamePixels(list, region, context + ", subtraction")
            }
        }
    }

    @Test func anEmptyListStaysEmptyUnderEveryOperation() {
        let list = BoxList()
        #expect(list.isEmpty && list.count == 0 && list.area == 0)
        #expect(!list.extentsIntersect(x: -100, y: -100, width: 1000, height: 1000))
        list.subtract(x: 0, y: 0, width: 10, height: 10)
        list.setIntersection(list, x: 0, y: 0, width: 10, height: 10)
        list.set(PixmanRegion())
        list.set(PixmanRegion(), clippedTo: 0, 0, 10, 10)
        #expect(list.isEmpty && list.area == 0)
        let other = BoxList()
        other.set(PixmanRegion(x: 0, y: 0, width: 5, height: 5))
        other.setIntersection(list, x: 0, y: 0, width: 10, height: 10)
        #expect(other.isEmpty)
        let e = other.extents
        #expect(e.x1 == 0 && e.y1 == 0 && e.x2 == 0 && e.y2 == 0)
    }

    @Test func zeroAndNegativeSizesChangeNothingOrLeaveNothing() {
        let list = BoxList()
        list.set(PixmanRegion(x: 0, y: 0, width: 10, height: 10))
        for (w, h) in [(0, 5), (5, 0), (-3, 5), (5, -3), (-1, -1)] as [(Int32, Int32)] {
            list.subtract(x: 2, y: 2, width: w, height: h)
            #expect(list.area == 100, "subtracting \(w)×\(h)")
            #expect(!list.extentsIntersect(x: 2, y: 2, width: w, height: h), "extents test with \(w)×\(h)")
        }
        let clipped = BoxList()
        clipped.set(PixmanRegion(x: 0, y: 0, width: 10, height: 10), clippedTo: 2, 2, 0, 4)
        #expect(clipped.isEmpty)
        clipped.setIntersection(list, x: 2, y: 2, width: -4, height: 4)
        #expect(clipped.isEmpty)
        list.subtract(PixmanRegion(x: 0, y: 0, width: 10, height: 10), clippedTo: 0, 0, 0, 10) { b in
            (b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1)
        }
        #expect(list.area == 100, "an opaque region clipped to an empty surface")
    }

    @Test func aRectangleCoveringEverythingLeavesNothing() {
        let region = PixmanRegion(x: 0, y: 0, width: 10, height: 10)
        region.addRect(x: 20, y: 5, width: 10, height: 30)
        let list = BoxList()
        list.set(region)
        list.subtract(x: 0, y: 5, width: 10, height: 2)
        #expect(list.count > 1)
        list.subtract(x: -5, y: -5, width: 100, height: 100)
        #expect(list.isEmpty && list.area == 0)
        #expect(!list.extentsIntersect(x: 0, y: 0, width: 100, height: 100))
        list.set(region)
        list.setIntersection(list, x: -1000, y: -1000, width: 5000, height: 5000)
        #expect(list.area == region.area)
    }

    @Test func rectanglesThatOnlyTouchTheBoxesChangeNothing() {
        let list = BoxList()
        list.set(PixmanRegion(x: 10, y: 10, width: 10, height: 10))
        for r in [(0, 10, 10, 10), (20, 10, 5, 10), (10, 0, 10, 10), (10, 20, 10, 3), (20, 20, 4, 4), (0, 0, 10, 10)]
            as [Rect]
        {
            list.subtract(x: r.x, y: r.y, width: r.width, height: r.height)
            #expect(list.area == 100 && list.count == 1, "subtracting \(r)")
            #expect(!list.extentsIntersect(x: r.x, y: r.y, width: r.width, height: r.height), "extents test with \(r)")
            let other = BoxList()
            other.setIntersection(list, x: r.x, y: r.y, width: r.width, height: r.height)
            #expect(other.isEmpty, "intersecting with \(r)")
        }
        #expect(list.extentsIntersect(x: 19, y: 19, width: 1, height: 1))
    }

    @Test func aHoleInABoxLeavesFourBoxesAroundIt() {
        let list = BoxList()
        list.set(PixmanRegion(x: 0, y: 0, width: 10, height: 10))
        list.subtract(x: 3, y: 4, width: 2, height: 3)
        #expect(list.count == 4)
        #expect(list.area == 100 - 6)
        #expect(!list.contains(x: 3, y: 4) && !list.contains(x: 4, y: 6))
        #expect(
            list.contains(x: 2, y: 4) && list.contains(x: 5, y: 6) && list.contains(x: 3, y: 3)
                && list.contains(x: 4, y: 7))
        let e = list.extents
        #expect(e.x1 == 0 && e.y1 == 0 && e.x2 == 10 && e.y2 == 10)
        // A cut through the whole middle: the bands above and below, extents unchanged.
        list.set(PixmanRegion(x: 0, y: 0, width: 10, height: 10))
        list.subtract(x: -5, y: 4, width: 20, height: 2)
        #expect(list.count == 2 && list.area == 80)
        // A cut along the top: the extents shrink.
        list.subtract(x: -5, y: 0, width: 20, height: 4)
        let f = list.extents
        #expect(list.count == 1 && f.y1 == 6 && f.y2 == 10 && f.x1 == 0 && f.x2 == 10)
    }

    @Test func coordinatesNearTheInt32LimitsDoNotOverflow() {
        let list = BoxList()
        list.set(PixmanRegion(x: 0, y: 0, width: 10, height: 10))
        list.subtract(x: Int32.max - 1, y: Int32.max - 1, width: Int32.max, height: Int32.max)
        #expect(list.area == 100)
        #expect(!list.extentsIntersect(x: Int32.max - 1, y: 0, width: Int32.max, height: 5))
        list.subtract(x: Int32.min, y: Int32.min, width: Int32.max, height: Int32.max)
        #expect(list.area == 100)
        list.subtract(x: -1, y: -1, width: Int32.max, height: Int32.max)
        #expect(list.isEmpty)
    }

    /// Filling a list's boxes paints exactly its pixels (the background fill of a frame).
    @Test func fillingABoxListPaintsExactlyItsPixels() throws {
        let region = PixmanRegion(x: 2, y: 1, width: 12, height: 9)
        let list = BoxList()
        list.set(region)
        list.subtract(x: 5, y: 3, width: 3, height: 3)
        list.subtract(x: 0, y: 8, width: 4, height: 4)
        region.subtractRect(x: 5, y: 3, width: 3, height: 3)
        region.subtractRect(x: 0, y: 8, width: 4, height: 4)
        let canvas = try #require(Canvas(width: 16, height: 12))
        canvas.fill(argb: 0xff00_0000)
        canvas.fill(argb: 0xff12_3456, in: list)
        for y in 0..<Int32(12) {
            for x in 0..<Int32(16) {
                #expect(
                    canvas.pixel(x: x, y: y) == (region.contains(x: x, y: y) ? 0xff12_3456 : 0xff00_0000),
                    "pixel (\(x), \(y))")
            }
        }
    }
}
