import Testing

@testable import StrataModel

@Suite struct OverscanTests {
    @Test func aScreenStartsWithoutOverscanAndCompensatesByScaling() {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode1080])
        #expect(screen.overscan == 0)
        #expect(screen.overscanCompensation == .scale)
        #expect(screen.overscanSafeArea == Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func scaleCompensationKeepsTheBoundsAndNamesTheSafeArea() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode1080])
        let recorder = NotificationRecorder(manager)
        try manager.setOverscan(10, compensation: .scale, for: screen)
        #expect(recorder.take() == [.screenDidChangeOverscan(screen.id)])
        #expect(screen.overscan == 10)
        #expect(screen.bounds == Rect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(screen.usableArea == screen.bounds)
        #expect(screen.pixelSize == Size(width: 1920, height: 1080))
        // 90 % of each side, centred.
        #expect(screen.overscanSafeArea == Rect(x: 96, y: 54, width: 1728, height: 972))
    }

    @Test func insetCompensationShrinksTheBoundsAndTheUsableAreaToTheSafeArea() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode1080], scale: 2)
        try manager.setOverscan(10, compensation: .insetBounds, for: screen)
        #expect(screen.pixelSize == Size(width: 1728, height: 972))
        #expect(screen.fullPixelSize == Size(width: 1920, height: 1080))
        #expect(screen.bounds == Rect(x: 0, y: 0, width: 864, height: 486))
        #expect(screen.usableArea == screen.bounds)
        #expect(manager.placement.workArea(of: screen) == Rect(x: 0, y: 0, width: 864, height: 486))
    }

    @Test func noCompensationChangesNothingButIsRemembered() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode720])
        try manager.setOverscan(5, compensation: .none, for: screen)
        #expect(screen.overscan == 5)
        #expect(screen.overscanCompensation == OverscanCompensation.none)
        #expect(screen.bounds == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(screen.overscanSafeArea == Rect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func theSafeAreaFollowsTheTransform() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode1080])
        manager.setTransform(.rotated90, for: screen)
        try manager.setOverscan(10, compensation: .insetBounds, for: screen)
        #expect(screen.overscanSafeArea == Rect(x: 54, y: 96, width: 972, height: 1728))
        #expect(screen.bounds.size == Size(width: 972, height: 1728))
    }

    @Test func settingTheSameOverscanAgainPostsNothing() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode720])
        try manager.setOverscan(5, compensation: .scale, for: screen)
        let recorder = NotificationRecorder(manager)
        try manager.setOverscan(5, compensation: .scale, for: screen)
        #expect(recorder.take() == [])
        try manager.setOverscan(5, compensation: .insetBounds, for: screen)
        #expect(recorder.take() == [.screenDidChangeOverscan(screen.id)])
    }

    @Test(arguments: [-1, 20.5, Double.nan, Double.infinity, -Double.infinity])
    func anOverscanOutsideZeroToTwentyIsRefusedAndChangesNothing(percent: Double) {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode720])
        let recorder = NotificationRecorder(manager)
        #expect(throws: ScreenConfigurationError.self) {
            try manager.setOverscan(percent, compensation: .insetBounds, for: screen)
        }
        #expect(screen.overscan == 0)
        #expect(screen.overscanCompensation == .scale)
        #expect(recorder.take() == [])
    }

    @Test func aDisconnectedScreenRefusesAnOverscan() {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [mode720])
        manager.disconnectScreen(screen)
        #expect(throws: ScreenConfigurationError.screenNotConnected(screen.id)) {
            try manager.setOverscan(5, compensation: .scale, for: screen)
        }
    }

    @Test func theLargestOverscanOfATinyScreenLeavesAtLeastOnePixel() throws {
        let manager = WindowManager()
        let screen = manager.connectScreen(name: "A", modes: [ScreenMode(width: 1, height: 1, refreshMilliHz: 60000)])
        try manager.setOverscan(20, compensation: .insetBounds, for: screen)
        #expect(screen.overscanSafeArea == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(screen.bounds.size == Size(width: 1, height: 1))
    }

    @Test func theOverscanNotificationEncodesWithItsScreen() throws {
        let notification = WindowServerNotification.screenDidChangeOverscan(ScreenID(3))
        #expect(notification.payload == ["name": "screenDidChangeOverscan", "screen": "3"])
        #expect(notification.screenID == ScreenID(3))
        #expect(WindowServerNotification.allNames.contains("screenDidChangeOverscan"))
    }
}
