import Testing

@testable import StrataModel

/// A nested screen is a window of the parent session, which may give it any size.
@Suite struct CustomModeTests {
    @Test func customModeBecomesCurrentAndAvailableAndPostsModeChangeOnce() throws {
        let manager = makeManager()
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        let odd = ScreenMode(width: 1001, height: 677)
        try manager.setCustomMode(odd, for: screen)
        #expect(screen.currentMode == odd)
        #expect(screen.customMode == odd)
        #expect(screen.availableModes == [mode1080, mode720, odd])
        #expect(screen.bounds == Rect(x: 0, y: 0, width: 1001, height: 677))
        try manager.setCustomMode(odd, for: screen)
        #expect(recorder.take() == [.screenModeDidChange(screen.id)])
    }

    @Test func aNewCustomModeReplacesThePreviousOne() throws {
        let manager = makeManager()
        let screen = manager.screens[0]
        try manager.setCustomMode(ScreenMode(width: 800, height: 600), for: screen)
        try manager.setCustomMode(ScreenMode(width: 801, height: 600), for: screen)
        #expect(screen.availableModes == [mode1080, mode720, ScreenMode(width: 801, height: 600)])
    }

    @Test func customModeEqualToAFixedModeIsNotListedTwice() throws {
        let manager = makeManager()
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        try manager.setCustomMode(mode720, for: screen)
        #expect(screen.currentMode == mode720)
        #expect(screen.availableModes == [mode1080, mode720])
        #expect(recorder.take() == [.screenModeDidChange(screen.id)])
    }

    @Test func setModeAcceptsTheCustomModeAndFixedModesStayAvailable() throws {
        let manager = makeManager()
        let screen = manager.screens[0]
        let odd = ScreenMode(width: 640, height: 400)
        try manager.setCustomMode(odd, for: screen)
        try manager.setMode(mode1080, for: screen)
        #expect(screen.currentMode == mode1080)
        try manager.setMode(odd, for: screen)
        #expect(screen.currentMode == odd)
    }

    @Test func emptyCustomModesAndDisconnectedScreensAreRefused() {
        let manager = makeManager(screens: 2)
        let screen = manager.screens[0]
        let recorder = NotificationRecorder(manager)
        #expect(throws: ScreenConfigurationError.modeNotAvailable(ScreenMode(width: 0, height: 10), screen: screen.id))
        {
            try manager.setCustomMode(ScreenMode(width: 0, height: 10), for: screen)
        }
        let gone = manager.screens[1]
        manager.disconnectScreen(gone)
        _ = recorder.take()
        #expect(throws: ScreenConfigurationError.screenNotConnected(gone.id)) {
            try manager.setCustomMode(ScreenMode(width: 10, height: 10), for: gone)
        }
        #expect(screen.currentMode == mode1080)
        #expect(recorder.take().isEmpty)
    }
}
