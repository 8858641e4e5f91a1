import Testing

@testable import StrataModel

@Suite struct HitTestingTests {
    @Test func topmostWindowUnderThePointIsHit() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let back = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        let front = manager.shownWindow(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        #expect(manager.window(at: Point(x: 150, y: 150), on: screen) === front)
        #expect(manager.window(at: Point(x: 50, y: 50), on: screen) === back)
        #expect(manager.window(at: Point(x: 600, y: 50), on: screen) == nil)
    }

    @Test func hiddenWindowsAreNotHit() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let back = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        let front = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        manager.hide(front)
        #expect(manager.window(at: Point(x: 10, y: 10), on: screen) === back)
        let neverShown = manager.createWindow()
        manager.setFrame(neverShown, Rect(x: 0, y: 0, width: 500, height: 500))
        #expect(manager.window(at: Point(x: 10, y: 10), on: screen) === back)
    }

    @Test func higherLevelWindowIsHitEvenWhenALowerOneWasOrderedFront() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let alert = manager.shownWindow(level: .alert, frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let normal = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        manager.orderFront(normal)
        #expect(manager.window(at: Point(x: 1, y: 1), on: screen) === alert)
    }

    @Test func acceptingClosureSeesWindowLocalPointAndCanPassTheHitThrough() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let back = manager.shownWindow(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        let front = manager.shownWindow(frame: Rect(x: 100, y: 200, width: 100, height: 100))
        var seen: [(WindowID, Point)] = []
        let hit = manager.window(at: Point(x: 130, y: 210), on: screen) { window, local in
            seen.append((window.id, local))
            return window !== front
        }
        #expect(hit === back)
        #expect(seen.count == 2)
        #expect(seen.first?.0 == front.id)
        #expect(seen.first?.1 == Point(x: 30, y: 10))
        #expect(seen.last?.1 == Point(x: 130, y: 210))
    }

    @Test func windowsOnAnotherScreenAreNotHit() {
        let manager = makeManager(screens: 2)
        let other = manager.shownWindow(
            screen: manager.screens[1], frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(manager.window(at: Point(x: 10, y: 10), on: manager.screens[0]) == nil)
        #expect(manager.window(at: Point(x: 10, y: 10), on: manager.screens[1]) === other)
    }
}
