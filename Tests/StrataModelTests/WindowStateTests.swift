import Testing

@testable import StrataModel

/// The window state machine without sockets: normal, maximized, fullscreen, back to normal at the
/// frame from before; minimized; the notifications, once each and in order; title, app id and pid.
@Suite struct WindowStateTests {
    static let normalFrame = Rect(x: 100, y: 80, width: 640, height: 480)

    /// A shown window at `normalFrame` on a 1920×1080 screen with a 30-pixel panel at the top.
    static func setUp() -> (WindowManager, Window, NotificationRecorder) {
        let manager = makeManager()
        let screen = manager.screens[0]
        manager.setUsableArea(Rect(x: 0, y: 30, width: 1920, height: 1050), for: screen)
        let window = manager.shownWindow(frame: normalFrame)
        return (manager, window, NotificationRecorder(manager))
    }

    @Test func normalToMaximizedToFullscreenAndBackGivesTheRightFrames() {
        let (manager, window, recorder) = Self.setUp()
        #expect(window.state == .normal)
        #expect(manager.configuredSize(of: window) == nil)

        manager.setMaximized(window, true)
        #expect(window.state == .maximized)
        #expect(window.restoreFrame == Self.normalFrame)
        #expect(window.frame == Self.normalFrame, "the frame follows what the client draws, not the request")
        #expect(manager.configuredSize(of: window) == Size(width: 1920, height: 1050))
        let maximized = manager.frame(for: window, in: .maximized, size: Size(width: 1920, height: 1050))
        #expect(maximized == Rect(x: 0, y: 30, width: 1920, height: 1050))
        manager.setFrame(window, maximized)

        manager.setFullscreen(window, true)
        #expect(window.restoreFrame == Self.normalFrame, "the frame from the normal state is kept")
        #expect(manager.configuredSize(of: window) == Size(width: 1920, height: 1080))
        let fullscreen = manager.frame(for: window, in: .fullscreen, size: Size(width: 1920, height: 1080))
        #expect(fullscreen == Rect(x: 0, y: 0, width: 1920, height: 1080))
        manager.setFrame(window, fullscreen)

        manager.setFullscreen(window, false)
        #expect(window.state == .maximized, "leaving fullscreen goes back to maximized")
        #expect(manager.configuredSize(of: window) == Size(width: 1920, height: 1050))
        manager.setMaximized(window, false)
        #expect(window.state == .normal)
        #expect(manager.configuredSize(of: window) == Self.normalFrame.size, "the client is asked for its old size")
        let restored = manager.frame(for: window, in: .normal, size: Self.normalFrame.size)
        #expect(restored == Self.normalFrame)
        manager.setFrame(window, restored)
        manager.forgetRestoreFrame(window)
        #expect(window.restoreFrame == nil)
        #expect(manager.configuredSize(of: window) == nil)

        #expect(
            recorder.take() == [
                .windowDidChangeMaximized(window.id, true),
                .windowDidChangeFrame(window.id, from: Self.normalFrame, to: maximized),
                .windowDidChangeFullscreen(window.id, true),
                .windowDidChangeFrame(window.id, from: maximized, to: fullscreen),
                .windowDidChangeFullscreen(window.id, false),
                .windowDidChangeMaximized(window.id, false),
                .windowDidChangeFrame(window.id, from: fullscreen, to: Self.normalFrame),
            ])
    }

    @Test func settingTheSameStatePostsNothingAndARemaximizeKeepsTheFirstRestoreFrame() {
        let (manager, window, recorder) = Self.setUp()
        manager.setMaximized(window, true)
        manager.setMaximized(window, true)
        manager.setFrame(window, Rect(x: 0, y: 30, width: 1920, height: 1050))
        // Back to normal and maximized again before the client drew the restored frame.
        manager.setMaximized(window, false)
        manager.setMaximized(window, true)
        #expect(window.restoreFrame == Self.normalFrame)
        #expect(
            recorder.takeNames() == [
                "windowDidChangeMaximized", "windowDidChangeFrame", "windowDidChangeMaximized",
                "windowDidChangeMaximized",
            ])
        manager.forgetRestoreFrame(window)
        #expect(window.restoreFrame == Self.normalFrame, "only a normal window forgets its restore frame")
    }

    @Test func aHiddenWindowSavesNoRestoreFrame() {
        let manager = makeManager()
        let window = manager.createWindow()
        manager.setMaximized(window, true)
        #expect(window.state == .maximized)
        #expect(window.restoreFrame == nil)
        #expect(
            manager.frame(for: window, in: .normal, size: Size(width: 300, height: 200))
                == Rect(x: 0, y: 0, width: 300, height: 200))
    }

    @Test func fullscreenOnAnotherScreenMovesTheWindowThere() {
        let manager = makeManager(screens: 2)
        let window = manager.shownWindow(frame: Self.normalFrame)
        let recorder = NotificationRecorder(manager)
        manager.setFullscreen(window, true, on: manager.screens[1])
        #expect(window.screen === manager.screens[1])
        #expect(manager.placedFrame(of: window) == Rect(x: 0, y: 0, width: 1920, height: 1080))
        #expect(
            recorder.take() == [
                .windowDidMoveToScreen(window.id, from: manager.screens[0].id, to: manager.screens[1].id),
                .windowDidChangeFullscreen(window.id, true),
                .screenDidChangeMirroring(manager.screens[1].id, false),
            ])
    }

    @Test func aScreenChangeWhileMaximizedRePlacesIt() throws {
        let (manager, window, recorder) = Self.setUp()
        let screen = manager.screens[0]
        manager.setMaximized(window, true)
        #expect(manager.placedFrame(of: window) == Rect(x: 0, y: 30, width: 1920, height: 1050))
        manager.setUsableArea(Rect(x: 0, y: 60, width: 1920, height: 1020), for: screen)
        #expect(manager.placedFrame(of: window) == Rect(x: 0, y: 60, width: 1920, height: 1020))
        #expect(manager.configuredSize(of: window) == Size(width: 1920, height: 1020))
        try manager.setMode(mode720, for: screen)
        manager.setUsableArea(nil, for: screen)
        #expect(manager.placedFrame(of: window) == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(
            manager.frame(for: window, in: .maximized, size: Size(width: 1280, height: 720))
                == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(recorder.takeNames().first == "windowDidChangeMaximized")
    }

    @Test func minimizeHidesKeepsTheStateAndShowBringsItBack() {
        let (manager, window, recorder) = Self.setUp()
        let other = manager.shownWindow(frame: Self.normalFrame, makeKey: false)
        manager.makeKey(window)
        manager.setMaximized(window, true)
        _ = recorder.take()

        manager.minimize(window)
        #expect(window.isMinimized && window.isHidden)
        #expect(window.state == .maximized)
        #expect(
            recorder.take() == [
                .windowDidChangeMinimized(window.id, true), .windowDidResignKey(window.id),
                .windowDidBecomeHidden(window.id), .windowDidBecomeKey(other.id),
            ])
        manager.minimize(window)
        #expect(recorder.take().isEmpty)

        manager.show(window)
        #expect(!window.isMinimized && window.isVisible)
        #expect(window.state == .maximized)
        #expect(
            recorder.take() == [
                .windowDidChangeMinimized(window.id, false), .windowDidBecomeVisible(window.id),
                .windowDidResignKey(other.id), .windowDidBecomeKey(window.id),
            ])
    }

    @Test func aMinimizedWindowSavesItsRestoreFrameAndResetForgetsEverything() {
        let (manager, window, recorder) = Self.setUp()
        manager.minimize(window)
        manager.setFullscreen(window, true)
        #expect(window.restoreFrame == Self.normalFrame)
        _ = recorder.take()
        manager.resetState(window)
        #expect(window.state == .normal && !window.isMinimized && window.restoreFrame == nil)
        #expect(
            recorder.take() == [
                .windowDidChangeMinimized(window.id, false),
                .windowDidChangeFullscreen(window.id, false),
            ])
        manager.resetState(window)
        #expect(recorder.take().isEmpty)
    }

    @Test func titleAppIDAndPIDChangeThroughTheManagerWithANotificationEach() {
        let (manager, window, recorder) = Self.setUp()
        manager.setTitle(window, "Files")
        manager.setTitle(window, "Files")
        manager.setAppID(window, "org.example.Files")
        manager.setPID(window, 4242)
        manager.setPID(window, 4242)
        #expect(window.title == "Files" && window.appID == "org.example.Files" && window.pid == 4242)
        #expect(
            recorder.take() == [
                .windowDidChangeTitle(window.id), .windowDidChangeAppID(window.id), .windowDidChangePID(window.id),
            ])
        let hidden = manager.createWindow()
        _ = recorder.take()
        manager.setPID(hidden, 7)
        #expect(hidden.pid == 7)
        #expect(recorder.take().isEmpty, "a hidden window's pid is news with its windowDidBecomeVisible")
    }

    @Test func aClosedWindowsStateDoesNotChange() {
        let (manager, window, recorder) = Self.setUp()
        manager.close(window)
        _ = recorder.take()
        manager.setMaximized(window, true)
        manager.setFullscreen(window, true)
        manager.minimize(window)
        manager.setPID(window, 9)
        #expect(window.state == .normal && !window.isMinimized && window.pid == 1)
        #expect(recorder.take().isEmpty)
    }
}
