import Testing

@testable import StrataModel

@Suite struct ScreenTests {
    @Test func firstConnectedScreenIsMainAndNewScreensGoToTheRight() {
        let manager = WindowManager()
        let recorder = NotificationRecorder(manager)
        let a = manager.connectScreen(name: "A", modes: [mode1080])
        let b = manager.connectScreen(name: "B", modes: [mode720])
        let c = manager.connectScreen(name: "C", modes: [mode4K], scale: 2)
        #expect(manager.mainScreen === a)
        #expect(a.isMain)
        #expect(!b.isMain)
        #expect(a.bounds == Rect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(b.bounds == Rect(x: 1920, y: 0, width: 1280, height: 720))
        #expect(c.bounds == Rect(x: 3200, y: 0, width: 1920, height: 1080))
        #expect([a.id, b.id, c.id] == [ScreenID(1), ScreenID(2), ScreenID(3)])
        #expect(
            recorder.take() == [
                .screenDidConnect(a.id), .screenDidConnect(b.id),
                .screenDidChangeMirroring(b.id, true), .screenDidConnect(c.id),
                .screenDidChangeMirroring(c.id, true),
            ])
    }

    @Test func screenStartsInItsPreferredModeWithDefaults() {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode720, mode1080], preferred: 1)
        #expect(screen.preferredMode == mode1080)
        #expect(screen.currentMode == mode1080)
        #expect(screen.availableModes == [mode720, mode1080])
        #expect(screen.scale == 1)
        #expect(screen.transform == .normal)
        #expect(screen.brightness == 1)
        #expect(screen.mirrorsWhenEmpty)
        #expect(screen.usableArea == screen.bounds)
        #expect(screen.isConnected)
    }

    @Test func outOfRangePreferredIndexAndNoModesDoNotCrash() {
        let manager = WindowManager()
        let a = manager.connectScreen(name: "A", modes: [mode720], preferred: 5, scale: 0)
        #expect(a.currentMode == mode720)
        #expect(a.scale == 1)
        let b = manager.connectScreen(name: "B", modes: [])
        #expect(b.currentMode == nil)
        #expect(b.bounds == Rect(x: 1280, y: 0, width: 0, height: 0))
    }

    @Test func disconnectingAScreenMovesItsWindowsToMainThenPostsDisconnect() {
        let manager = makeManager(screens: 2)
        let main = manager.screens[0]
        let second = manager.screens[1]
        let a = manager.shownWindow(screen: second, frame: Rect(x: 10, y: 10, width: 100, height: 100))
        let b = manager.createWindow(screen: second)
        let staying = manager.shownWindow(screen: main)
        let recorder = NotificationRecorder(manager)
        manager.disconnectScreen(second)
        #expect(
            recorder.take() == [
                .windowDidMoveToScreen(a.id, from: second.id, to: main.id),
                .windowDidMoveToScreen(b.id, from: second.id, to: main.id),
                .screenDidDisconnect(second.id),
            ])
        #expect(a.screen === main)
        #expect(b.screen === main)
        #expect(staying.screen === main)
        #expect(a.frame == Rect(x: 10, y: 10, width: 100, height: 100))
        #expect(manager.screens.map(\.id) == [main.id])
        #expect(!second.isConnected)
    }

    @Test func disconnectingMainMakesTheNextScreenMain() {
        let manager = makeManager(screens: 3)
        let oldMain = manager.screens[0]
        let next = manager.screens[1]
        let window = manager.shownWindow(screen: oldMain)
        let recorder = NotificationRecorder(manager)
        manager.disconnectScreen(oldMain)
        #expect(manager.mainScreen === next)
        #expect(window.screen === next)
        #expect(!next.isMirroring)
        // next was mirroring (empty, not main); it is main now, so it stops mirroring.
        #expect(
            recorder.take() == [
                .windowDidMoveToScreen(window.id, from: oldMain.id, to: next.id),
                .screenDidDisconnect(oldMain.id),
                .screenDidChangeMirroring(next.id, false),
            ])
    }

    @Test func windowsLeftWithoutScreensMoveToTheNextScreenThatConnects() {
        let manager = makeManager()
        let window = manager.shownWindow()
        manager.disconnectScreen(manager.screens[0])
        #expect(window.screen == nil)
        #expect(manager.mainScreen == nil)
        let orphanCreated = manager.createWindow()
        #expect(orphanCreated.screen == nil)
        let recorder = NotificationRecorder(manager)
        let screen = manager.connectScreen(name: "new", modes: [mode720])
        #expect(window.screen === screen)
        #expect(orphanCreated.screen === screen)
        #expect(
            recorder.take() == [
                .screenDidConnect(screen.id),
                .windowDidMoveToScreen(window.id, from: nil, to: screen.id),
                .windowDidMoveToScreen(orphanCreated.id, from: nil, to: screen.id),
            ])
        #expect(manager.keyWindow == nil)
        #expect(window.makeKey())
    }

    @Test func disconnectedScreenIsInertAndItsIdIsNeverReused() throws {
        let manager = makeManager(screens: 2)
        let gone = manager.screens[1]
        manager.disconnectScreen(gone)
        let recorder = NotificationRecorder(manager)
        manager.disconnectScreen(gone)
        manager.setTransform(.rotated90, for: gone)
        manager.setBrightness(0.1, for: gone)
        #expect(throws: ScreenConfigurationError.screenNotConnected(gone.id)) {
            try manager.setMode(mode720, for: gone)
        }
        let window = manager.createWindow(screen: gone)
        #expect(window.screen === manager.mainScreen)
        #expect(!manager.move(window, to: gone))
        #expect(recorder.take() == [.windowDidOpen(window.id)])
        let again = manager.connectScreen(name: "S2", modes: [mode1080])
        #expect(again.id == ScreenID(3))
    }

    @Test func modeMustBeOneOfTheAvailableModes() throws {
        let manager = makeManager()
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        #expect(throws: ScreenConfigurationError.modeNotAvailable(mode4K, screen: screen.id)) {
            try manager.setMode(mode4K, for: screen)
        }
        #expect(screen.currentMode == mode1080)
        try manager.setMode(mode720, for: screen)
        #expect(screen.currentMode == mode720)
        #expect(screen.bounds.size == Size(width: 1280, height: 720))
        #expect(recorder.take() == [.screenModeDidChange(screen.id)])
    }

    @Test func boundsFollowTransformAndScale() {
        let manager = makeManager()
        let screen = manager.screens[0]
        manager.setTransform(.rotated90, for: screen)
        #expect(screen.bounds.size == Size(width: 1080, height: 1920))
        manager.setTransform(.flipped180, for: screen)
        #expect(screen.bounds.size == Size(width: 1920, height: 1080))
        manager.setScale(2, for: screen)
        #expect(screen.bounds.size == Size(width: 960, height: 540))
        manager.setScale(-4, for: screen)
        #expect(screen.scale == 1)
    }

    @Test func fractionalScalesKeepStepsOf120thsWithinOneToEight() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        manager.setScale(1.5, for: screen)
        #expect(screen.scale == 1.5 && screen.scale120 == 180 && screen.integerScale == 2)
        #expect(screen.bounds.size == Size(width: 1280, height: 720))
        manager.setScale(1.333, for: screen)
        #expect(screen.scale120 == 160 && screen.scale == 160.0 / 120)
        manager.setScale(0.5, for: screen)
        #expect(screen.scale == 1 && screen.integerScale == 1)
        manager.setScale(20, for: screen)
        #expect(screen.scale == 8)
        manager.setScale(.nan, for: screen)
        manager.setScale(.infinity, for: screen)
        #expect(screen.scale == 8)
        #expect(recorder.take() == Array(repeating: .screenDidChangeScale(screen.id), count: 4))
    }

    @Test func theLogicalSizeIsRoundedUpToCoverEveryPixel() {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [ScreenMode(width: 1366, height: 768)], scale: 1.5)
        // 910.67 × 512: the last pixel column is half a logical pixel.
        #expect(screen.bounds.size == Size(width: 911, height: 512))
        #expect(screen.pixelSize == Size(width: 1366, height: 768))
        manager.setScale(1.25, for: screen)
        #expect(screen.bounds.size == Size(width: 1093, height: 615))
        manager.setTransform(.rotated270, for: screen)
        #expect(screen.pixelSize == Size(width: 768, height: 1366))
        #expect(screen.bounds.size == Size(width: 615, height: 1093))
    }

    @Test func brightnessIsClampedToZeroThroughOne() {
        let manager = makeManager()
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        manager.setBrightness(3, for: screen)
        #expect(screen.brightness == 1)
        manager.setBrightness(-1, for: screen)
        #expect(screen.brightness == 0)
        manager.setBrightness(0.4, for: screen)
        #expect(screen.brightness == 0.4)
        #expect(
            recorder.take() == [
                .screenDidChangeBrightness(screen.id), .screenDidChangeBrightness(screen.id),
            ])
    }

    @Test func secondaryScreenMirrorsOnlyWhileItHasNoVisibleWindow() {
        let manager = makeManager(screens: 2)
        let main = manager.screens[0]
        let external = manager.screens[1]
        #expect(!main.isMirroring)
        #expect(external.isMirroring)
        let recorder = NotificationRecorder(manager)
        let window = manager.createWindow(screen: external)
        #expect(external.isMirroring)
        manager.show(window, makeKey: false)
        #expect(!external.isMirroring)
        manager.hide(window)
        #expect(external.isMirroring)
        #expect(
            recorder.take() == [
                .windowDidOpen(window.id),
                .windowDidBecomeVisible(window.id), .screenDidChangeMirroring(external.id, false),
                .windowDidBecomeHidden(window.id), .screenDidChangeMirroring(external.id, true),
            ])
    }

    @Test func screenThatDoesNotMirrorWhenEmptyIsNeverMirroring() {
        let manager = makeManager(screens: 2)
        let external = manager.screens[1]
        let recorder = NotificationRecorder(manager)
        manager.setMirroring(false, for: external)
        #expect(!external.isMirroring)
        #expect(!external.mirrorsWhenEmpty)
        manager.setMirroring(true, for: external)
        #expect(external.isMirroring)
        #expect(
            recorder.take() == [
                .screenDidChangeMirroring(external.id, false), .screenDidChangeMirroring(external.id, true),
            ])
    }

    @Test func mainScreenNeverMirrors() {
        let manager = makeManager()
        #expect(!manager.screens[0].isMirroring)
    }

    @Test func usableAreaIsClippedToBoundsAndFollowsTheScreen() {
        let manager = makeManager(screens: 2)
        let screen = manager.screens[1]
        let recorder = NotificationRecorder(manager)
        manager.setUsableArea(Rect(x: 1920, y: 30, width: 1920, height: 1050), for: screen)
        #expect(screen.usableArea == Rect(x: 1920, y: 30, width: 1920, height: 1050))
        manager.setOrigin(Point(x: 0, y: 1080), for: screen)
        #expect(screen.bounds.origin == Point(x: 0, y: 1080))
        #expect(screen.usableArea == Rect(x: 0, y: 1110, width: 1920, height: 1050))
        try? manager.setMode(mode720, for: screen)
        #expect(screen.usableArea == Rect(x: 0, y: 1110, width: 1280, height: 690))
        manager.setUsableArea(nil, for: screen)
        #expect(screen.usableArea == screen.bounds)
        #expect(
            recorder.takeNames() == [
                "screenDidChangeUsableArea", "screenDidMove", "screenModeDidChange",
                "screenDidChangeUsableArea",
            ])
    }
}
