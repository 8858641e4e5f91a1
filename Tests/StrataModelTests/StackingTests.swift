import Testing

@testable import StrataModel

@Suite struct StackingTests {
    @Test func alertWindowStaysAboveKeyNormalWindow() {
        let manager = makeManager()
        let alert = manager.shownWindow(level: .alert, makeKey: false)
        let normal = manager.shownWindow()
        #expect(normal.isKeyWindow)
        manager.orderFront(normal)
        #expect(manager.stackingIDs == [normal.id, alert.id])
    }

    @Test func newWindowGoesToTheFrontOfItsLevelOnly() {
        let manager = makeManager()
        let bar = manager.createWindow(level: .statusBar)
        let a = manager.createWindow()
        let b = manager.createWindow()
        let wallpaper = manager.createWindow(level: .background)
        #expect(manager.stackingIDs == [wallpaper.id, a.id, b.id, bar.id])
    }

    @Test func orderFrontMovesAWindowInFrontOfItsLevelButNotAboveHigherLevels() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let alert = manager.shownWindow(level: .alert)
        manager.orderFront(a)
        #expect(manager.stackingIDs == [b.id, a.id, alert.id])
    }

    @Test func orderingAWindowAboveAnotherTakesTheOtherLevelDirectlyInFrontOfIt() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let alert = manager.shownWindow(level: .alert)
        let menu = manager.shownWindow(level: WindowLevel(rawValue: 3000), makeKey: false)
        manager.order(menu, above: a)
        #expect(manager.stackingIDs == [a.id, menu.id, b.id, alert.id])
        #expect(menu.level == .normal)
        // Again (nothing moves), and above itself or a closed window (refused).
        manager.order(menu, above: a)
        manager.order(menu, above: menu)
        manager.close(b)
        manager.order(menu, above: b)
        #expect(manager.stackingIDs == [a.id, menu.id, alert.id])
        manager.order(menu, above: alert)
        #expect(manager.stackingIDs == [a.id, alert.id, menu.id])
        #expect(menu.level == .alert)
    }

    @Test func orderBackMovesAWindowBehindItsLevelButNotBelowLowerLevels() {
        let manager = makeManager()
        let wallpaper = manager.shownWindow(level: .background)
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.orderBack(b)
        #expect(manager.stackingIDs == [wallpaper.id, b.id, a.id])
    }

    @Test func customLevelWindowStacksBetweenAlertAndStatusBar() {
        let manager = makeManager()
        let bar = manager.shownWindow(level: .statusBar)
        let custom = manager.shownWindow(level: WindowLevel(rawValue: 1500))
        let alert = manager.shownWindow(level: .alert)
        let normal = manager.shownWindow()
        #expect(manager.stackingIDs == [normal.id, alert.id, custom.id, bar.id])
    }

    @Test func settingTheLevelPutsTheWindowInFrontOfItsNewLevel() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let alert1 = manager.shownWindow(level: .alert)
        let alert2 = manager.shownWindow(level: .alert)
        manager.setLevel(a, .alert)
        #expect(manager.stackingIDs == [alert1.id, alert2.id, a.id])
        #expect(a.level == .alert)
    }

    @Test func showingAVisibleWindowOrdersItFront() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.show(a)
        #expect(manager.stackingIDs == [b.id, a.id])
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(a.id), .windowDidResignKey(b.id), .windowDidBecomeKey(a.id),
            ])
    }

    @Test func showingAHiddenWindowBringsItToTheFrontOfItsLevel() {
        let manager = makeManager()
        let a = manager.createWindow()
        let b = manager.shownWindow()
        manager.show(a)
        #expect(manager.stackingIDs == [b.id, a.id])
    }

    @Test func visibleWindowsOnAScreenAreBackToFrontAndSkipHiddenAndOtherScreens() {
        let manager = makeManager(screens: 2)
        let s1 = manager.screens[0]
        let s2 = manager.screens[1]
        let a = manager.shownWindow(screen: s1)
        _ = manager.createWindow(screen: s1)
        let c = manager.shownWindow(screen: s2)
        let d = manager.shownWindow(level: .alert, screen: s1)
        let e = manager.shownWindow(screen: s1)
        #expect(manager.visibleWindows(on: s1).map(\.id) == [a.id, e.id, d.id])
        #expect(manager.visibleWindows(on: s2).map(\.id) == [c.id])
    }

    @Test func orderingAWindowAlreadyInPlacePostsNothing() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.orderFront(b)
        manager.orderBack(a)
        manager.setLevel(a, .normal)
        #expect(recorder.take().isEmpty)
        manager.orderBack(b)
        #expect(recorder.take() == [.windowDidChangeStacking(b.id)])
    }

    @Test func closedWindowLeavesTheStackingAndIgnoresRequests() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.close(a)
        #expect(manager.stackingIDs == [b.id])
        #expect(a.isClosed)
        let recorder = NotificationRecorder(manager)
        manager.show(a)
        manager.orderFront(a)
        manager.setLevel(a, .alert)
        a.makeKeyAndVisible()
        manager.close(a)
        #expect(recorder.take().isEmpty)
        #expect(manager.stackingIDs == [b.id])
        #expect(manager.window(withID: a.id) == nil)
        #expect(manager.window(withID: b.id) === b)
    }
}
