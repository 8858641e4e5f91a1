import Testing

@testable import StrataModel

@Suite struct CoordinateConversionTests {
    @Test func windowPointConvertsToScreenCoordinatesByItsOrigin() {
        let manager = makeManager()
        let window = manager.shownWindow(frame: Rect(x: 100, y: 50, width: 300, height: 200))
        #expect(window.convert(Point(x: 10, y: 20), to: nil) == Point(x: 110, y: 70))
        #expect(window.convert(Point(x: 110, y: 70), from: nil) == Point(x: 10, y: 20))
    }

    @Test func pointConvertsBetweenWindowsOnTheSameScreen() {
        let manager = makeManager()
        let a = manager.shownWindow(frame: Rect(x: 100, y: 100, width: 10, height: 10))
        let b = manager.shownWindow(frame: Rect(x: 300, y: 50, width: 10, height: 10))
        #expect(a.convert(Point(x: 0, y: 0), to: b) == Point(x: -200, y: 50))
        #expect(b.convert(Point(x: 0, y: 0), from: a) == Point(x: -200, y: 50))
        #expect(a.convert(Point(x: -200, y: 50), from: b) == Point(x: 0, y: 0))
    }

    @Test func pointConvertsBetweenWindowsOnDifferentScreensThroughGlobalCoordinates() {
        let manager = makeManager(screens: 2)
        let a = manager.shownWindow(
            screen: manager.screens[0], frame: Rect(x: 100, y: 100, width: 10, height: 10))
        let b = manager.shownWindow(
            screen: manager.screens[1], frame: Rect(x: 10, y: 20, width: 10, height: 10))
        // b's origin is at global (1930, 20); a's at (100, 100).
        #expect(a.convert(Point(x: 0, y: 0), to: b) == Point(x: -1830, y: 80))
        #expect(b.convert(Point(x: 0, y: 0), to: a) == Point(x: 1830, y: -80))
    }

    @Test(arguments: [
        Point(x: 0, y: 0), Point(x: 12.5, y: -3.25), Point(x: -1000, y: 4000), Point(x: 1e6, y: 0.5),
    ])
    func conversionRoundTripsWindowToScreenToWindow(p: Point) {
        let manager = makeManager(screens: 2)
        manager.setOrigin(Point(x: 2500, y: -300), for: manager.screens[1])
        let a = manager.shownWindow(
            screen: manager.screens[0], frame: Rect(x: 37, y: 91, width: 10, height: 10))
        let b = manager.shownWindow(
            screen: manager.screens[1], frame: Rect(x: -5, y: 700, width: 10, height: 10))
        #expect(a.convert(a.convert(p, to: nil), from: nil) == p)
        #expect(a.convert(a.convert(p, to: b), from: b) == p)
        #expect(b.convert(a.convert(p, to: b), to: a) == p)
        #expect(b.convert(b.convert(p, from: a), to: a) == p)
    }

    @Test func rectConversionMovesTheOriginAndKeepsTheSize() {
        let manager = makeManager(screens: 2)
        let a = manager.shownWindow(
            screen: manager.screens[0], frame: Rect(x: 100, y: 100, width: 10, height: 10))
        let b = manager.shownWindow(
            screen: manager.screens[1], frame: Rect(x: 10, y: 20, width: 10, height: 10))
        let r = Rect(x: 1, y: 2, width: 30, height: 40)
        #expect(a.convert(r, to: nil) == Rect(x: 101, y: 102, width: 30, height: 40))
        #expect(a.convert(r, to: b) == Rect(x: -1829, y: 82, width: 30, height: 40))
        #expect(a.convert(a.convert(r, to: b), from: b) == r)
        // nil means each window's own screen: a's screen coordinates read on b's screen.
        #expect(b.convert(a.convert(r, to: nil), from: nil) == Rect(x: 91, y: 82, width: 30, height: 40))
    }

    @Test func convertingToNilUsesTheWindowsOwnScreenNotTheGlobalLayout() {
        let manager = makeManager(screens: 2)
        let window = manager.shownWindow(
            screen: manager.screens[1], frame: Rect(x: 10, y: 20, width: 10, height: 10))
        #expect(window.convert(Point(x: 0, y: 0), to: nil) == Point(x: 10, y: 20))
    }
}
