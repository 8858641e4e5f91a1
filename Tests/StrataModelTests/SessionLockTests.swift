import Testing

@testable import StrataModel

@Suite struct SessionLockTests {
    @Test func lockingResignsTheKeyWindowBeforeSessionDidLock() {
        let manager = makeManager()
        let window = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.lock()
        #expect(manager.isLocked)
        #expect(manager.keyWindow == nil)
        #expect(!window.isKeyWindow)
        #expect(recorder.take() == [.windowDidResignKey(window.id), .sessionDidLock])
    }

    @Test func unlockingPostsSessionDidUnlockThenRestoresTheKeyWindow() {
        let manager = makeManager()
        let first = manager.shownWindow()
        let second = manager.shownWindow()
        #expect(first.makeKey())
        manager.lock()
        let recorder = NotificationRecorder(manager)
        manager.unlock()
        #expect(!manager.isLocked)
        #expect(manager.keyWindow === first)
        #expect(recorder.take() == [.sessionDidUnlock, .windowDidBecomeKey(first.id)])
        _ = second
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func noWindowBecomesKeyWhileLocked(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let shown = manager.shownWindow()
        manager.lock()
        let recorder = NotificationRecorder(manager)
        #expect(!manager.makeKey(shown))
        manager.pointerDidClick(shown)
        manager.pointerDidEnter(shown)
        let late = manager.shownWindow()
        manager.setHoldsKey(late, true)
        manager.show(shown, makeKey: true)
        #expect(manager.keyWindow == nil)
        #expect(!manager.isEligibleForKey(shown))
        #expect(!recorder.take().contains { $0.name == "windowDidBecomeKey" })
    }

    @Test func aKeyWindowClosedWhileLockedPassesKeyToItsSuccessorAtUnlock() {
        let manager = makeManager()
        let behind = manager.shownWindow(pid: 7)
        let front = manager.shownWindow(pid: 7)
        manager.lock()
        manager.close(front)
        let recorder = NotificationRecorder(manager)
        manager.unlock()
        #expect(manager.keyWindow === behind)
        #expect(recorder.take() == [.sessionDidUnlock, .windowDidBecomeKey(behind.id)])
    }

    @Test func aKeyWindowHiddenWhileLockedIsNotRestored() {
        let manager = makeManager()
        let window = manager.shownWindow()
        manager.lock()
        manager.hide(window)
        manager.unlock()
        #expect(manager.keyWindow == nil)
        #expect(!window.isKeyWindow)
    }

    @Test func unlockingWithoutAKeyWindowBeforeTheLockMakesNoneKey() {
        let manager = makeManager()
        let window = manager.shownWindow(makeKey: false)
        manager.lock()
        let recorder = NotificationRecorder(manager)
        manager.unlock()
        #expect(manager.keyWindow == nil)
        #expect(recorder.take() == [.sessionDidUnlock])
        #expect(manager.makeKey(window))
    }

    @Test func lockingTwiceOrUnlockingAnUnlockedSessionPostsNothing() {
        let manager = makeManager()
        manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.unlock()
        #expect(recorder.take().isEmpty)
        manager.lock()
        #expect(recorder.take().count == 2)
        manager.lock()
        #expect(recorder.take().isEmpty)
        manager.unlock()
        manager.unlock()
        #expect(recorder.takeNames() == ["sessionDidUnlock", "windowDidBecomeKey"])
    }

    @Test func windowsStillShowHideAndMoveWhileLocked() {
        let manager = makeManager(screens: 2)
        let window = manager.shownWindow()
        manager.lock()
        let recorder = NotificationRecorder(manager)
        manager.hide(window)
        manager.show(window, makeKey: true)
        #expect(manager.move(window, to: manager.screens[1]))
        // (The second screen stops mirroring: a window is on it.)
        #expect(
            recorder.takeNames() == [
                "windowDidBecomeHidden", "windowDidBecomeVisible", "windowDidMoveToScreen", "screenDidChangeMirroring",
            ])
        #expect(manager.keyWindow == nil)
    }
}
