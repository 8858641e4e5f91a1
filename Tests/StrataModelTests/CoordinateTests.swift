import StrataModel
import Testing

/// The clamping helpers every computation on client numbers goes through (`Coordinate`).
@Suite struct CoordinateTests {
    let limit = Coordinate.limit

    @Test func theLimitLeavesRoomForASumOfTwoClampedValuesInInt32() {
        #expect(limit == 1 << 29)
        #expect(Int(limit) * 4 <= Int(Int32.max) + 1)
        // The sum or difference of two clamped values fits Int32.
        #expect(limit.addingReportingOverflow(limit).overflow == false)
        #expect((-limit).subtractingReportingOverflow(limit).overflow == false)
    }

    @Test func clampedIntegersSaturateAtTheLimit() {
        #expect(Coordinate.clamped(Int.max) == limit)
        #expect(Coordinate.clamped(Int.min) == -limit)
        #expect(Coordinate.clamped(Int32.max) == limit)
        #expect(Coordinate.clamped(Int32.min) == -limit)
        #expect(Coordinate.clamped(-7 as Int32) == -7)
        #expect(Coordinate.clamped(12 as Int) == 12)
    }

    @Test func clampedDoublesRoundTowardZeroAndNaNIsZero() {
        #expect(Coordinate.clamped(Double.nan) == 0)
        #expect(Coordinate.clamped(Double.infinity) == limit)
        #expect(Coordinate.clamped(-Double.infinity) == -limit)
        #expect(Coordinate.clamped(1e300) == limit)
        #expect(Coordinate.clamped(-2.7) == -2)
        #expect(Coordinate.floor(-2.2) == -3)
        #expect(Coordinate.floor(.nan) == 0)
        #expect(Coordinate.floor(-.greatestFiniteMagnitude) == -limit)
    }

    @Test func sizesAreNeverNegative() {
        #expect(Coordinate.size(-5 as Int32) == 0)
        #expect(Coordinate.size(Int32.min) == 0)
        #expect(Coordinate.size(Int32.max) == limit)
        #expect(Coordinate.size(Int.max) == limit)
        #expect(Coordinate.size(640 as Int) == 640)
    }

    @Test func sumsAndDifferencesOfInt32ExtremesAreComputedWideThenClamped() {
        #expect(Coordinate.sum(Int32.max, Int32.max) == limit)
        #expect(Coordinate.sum(Int32.min, Int32.min) == -limit)
        #expect(Coordinate.sum(Int32.max, Int32.min) == -1)
        #expect(Coordinate.sum(Int32.max, Int32.max, Int32.max) == limit)
        #expect(Coordinate.sum(300, -Int32.max + 300) == -limit)
        #expect(Coordinate.sum(limit, Int32.max - 5) == limit)
        #expect(Coordinate.sum(-limit, Int32.max - 5) == limit)
        #expect(Coordinate.difference(Int32.min, Int32.max) == -limit)
        #expect(Coordinate.difference(10, 3) == 7)
    }

    @Test func scaledCoordinatesRoundAndClamp() {
        #expect(Coordinate.scaled(3, by: 1.5) == 5)  // 4.5 rounds away from zero
        #expect(Coordinate.scaled(-3, by: 1.5) == -5)
        #expect(Coordinate.scaled(3, by: 1.5, rounding: .down) == 4)
        #expect(Coordinate.scaled(Int32.max, by: 8) == limit)
        #expect(Coordinate.scaled(Int32.min, by: 2) == -limit)
        #expect(Coordinate.scaled(limit, by: .nan) == 0)
    }

    @Test func fixedPointSaturatesAtTheInt32Ends() {
        #expect(Coordinate.fixed(1) == 65536)
        #expect(Coordinate.fixed(-0.5) == -32768)
        #expect(Coordinate.fixed(32768) == Int32.max)
        #expect(Coordinate.fixed(-32769) == Int32.min)
        #expect(Coordinate.fixed(.nan) == 0)
        #expect(Coordinate.fixed(.infinity) == Int32.max)
    }

    @Test func rectanglesAreClampedToTheLimitWithNonNegativeSides() {
        let r = Coordinate.clamped(Rect(x: Int.max, y: Int.min, width: -5, height: Int.max))
        #expect(r == Rect(x: Int(limit), y: -Int(limit), width: 0, height: Int(limit)))
        let ordinary = Rect(x: 10, y: -20, width: 30, height: 40)
        #expect(Coordinate.clamped(ordinary) == ordinary)
    }

    @Test func rectEdgesAndOffsetsSaturateInsteadOfTrapping() {
        let r = Rect(x: Int.max - 1, y: Int.min, width: 10, height: 10)
        #expect(r.maxX == Int.max)
        #expect(r.offsetBy(dx: 5, dy: -5) == Rect(x: Int.max, y: Int.min, width: 10, height: 10))
        let wide = Rect(x: 10, y: 0, width: Int.max, height: 1)
        #expect(wide.maxX == Int.max)
        #expect(wide.intersection(Rect(x: 12, y: 0, width: 5, height: 5)) == Rect(x: 12, y: 0, width: 5, height: 1))
        let far = Rect(x: Int.min, y: 0, width: Int.max, height: 1)
        #expect(
            far.intersection(Rect(x: Int.min, y: 0, width: 10, height: 1))
                == Rect(x: Int.min, y: 0, width: 10, height: 1))
        #expect(
            Rect(x: Int.min, y: 0, width: 1, height: 1).intersection(Rect(x: Int.max - 1, y: 0, width: 1, height: 1))
                == nil)
    }
}
