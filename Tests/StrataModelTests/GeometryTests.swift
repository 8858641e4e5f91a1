import Testing

@testable import StrataModel

@Suite struct GeometryTests {
    @Test func rectContainsItsTopLeftCornerButNotItsBottomRightEdge() {
        let r = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(r.contains(Point(x: 109.9, y: 69.9)))
        #expect(!r.contains(Point(x: 110, y: 30)))
        #expect(!r.contains(Point(x: 50, y: 70)))
        #expect(!r.contains(Point(x: 9.99, y: 30)))
    }

    @Test func emptyRectContainsNothing() {
        #expect(!Rect(x: 0, y: 0, width: 0, height: 10).contains(Point(x: 0, y: 0)))
        #expect(Rect(x: 0, y: 0, width: 0, height: 10).isEmpty)
        #expect(Rect(x: 0, y: 0, width: 5, height: -1).isEmpty)
        #expect(!Rect(x: 0, y: 0, width: 1, height: 1).isEmpty)
    }

    @Test func intersectionOfOverlappingRectsIsTheirCommonPart() {
        let a = Rect(x: 0, y: 0, width: 100, height: 100)
        let b = Rect(x: 50, y: 80, width: 100, height: 100)
        #expect(a.intersection(b) == Rect(x: 50, y: 80, width: 50, height: 20))
        #expect(b.intersection(a) == Rect(x: 50, y: 80, width: 50, height: 20))
    }

    @Test func rectsThatOnlyTouchDoNotIntersect() {
        let a = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(a.intersection(Rect(x: 100, y: 0, width: 10, height: 10)) == nil)
        #expect(a.intersection(Rect(x: 500, y: 500, width: 10, height: 10)) == nil)
    }

    @Test func originAndSizeReadAndWriteTheFields() {
        var r = Rect(x: 1, y: 2, width: 3, height: 4)
        #expect(r.origin == Point(x: 1, y: 2))
        #expect(r.size == Size(width: 3, height: 4))
        r.origin = Point(x: -7.9, y: 8.2)
        r.size = Size(width: 30, height: 40)
        #expect(r == Rect(x: -7, y: 8, width: 30, height: 40))
    }

    @Test func settingANonFiniteOriginDoesNotCrash() {
        var r = Rect.zero
        r.origin = Point(x: .nan, y: .infinity)
        #expect(r.x == 0)
        #expect(r.y == Int.max)
    }

    @Test func transformsWithAQuarterTurnSwapWidthAndHeight() {
        let size = Size(width: 1920, height: 1080)
        for transform in ScreenTransform.allCases {
            let expected = transform.swapsAxes ? Size(width: 1080, height: 1920) : size
            #expect(transform.apply(to: size) == expected)
        }
        #expect(ScreenTransform.allCases.filter(\.swapsAxes).count == 4)
    }

    @Test func transformRawValuesAreWlrRandrNames() {
        #expect(
            ScreenTransform.allCases.map(\.rawValue) == [
                "normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270",
            ])
        for transform in ScreenTransform.allCases {
            #expect(ScreenTransform(waylandValue: transform.waylandValue) == transform)
        }
        #expect(ScreenTransform(waylandValue: 8) == nil)
    }

    @Test func idsCompareByAllocationOrderAndDescribeThemselves() {
        #expect(WindowID(1) < WindowID(2))
        #expect(ScreenID(3) > ScreenID(2))
        #expect(WindowID(7).description == "window-7")
        #expect(ScreenID(2).description == "screen-2")
    }
}
