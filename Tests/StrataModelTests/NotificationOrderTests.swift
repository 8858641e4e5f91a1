import Testing

@testable import StrataModel

@Suite struct NotificationOrderTests {
    @Test func showingWithKeyPostsVisibleThenResignOldThenBecomeNew() {
        let manager = makeManager()
        let old = manager.shownWindow()
        let new = manager.createWindow()
        let recorder = NotificationRecorder(manager)
        manager.show(new)
        #expect(
            recorder.take() == [
                .windowDidBecomeVisible(new.id), .windowDidResignKey(old.id), .windowDidBecomeKey(new.id),
            ])
    }

    @Test func hidingTheKeyWindowPostsResignThenHiddenThenBecomeKeyForSuccessor() {
        let manager = makeManager()
        let successor = manager.shownWindow()
        let old = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.hide(old)
        #expect(
            recorder.take() == [
                .windowDidResignKey(old.id), .windowDidBecomeHidden(old.id),
                .windowDidBecomeKey(successor.id),
            ])
    }

    @Test func closingTheKeyWindowPostsResignHiddenCloseThenBecomeKey() {
        let manager = makeManager()
        let successor = manager.shownWindow()
        let old = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.close(old)
        #expect(
            recorder.take() == [
                .windowDidResignKey(old.id), .windowDidBecomeHidden(old.id), .windowDidClose(old.id),
                .windowDidBecomeKey(successor.id),
            ])
    }

    @Test func closingAHiddenWindowPostsOnlyClose() {
        let manager = makeManager()
        let window = manager.createWindow()
        let recorder = NotificationRecorder(manager)
        manager.close(window)
        #expect(recorder.take() == [.windowDidClose(window.id)])
    }

    @Test func creatingAWindowPostsOpenOnly() {
        let manager = makeManager()
        let recorder = NotificationRecorder(manager)
        let window = manager.createWindow()
        #expect(recorder.take() == [.windowDidOpen(window.id)])
    }

    @Test func makeKeyPostsResignBeforeBecome() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.makeKey(a)
        #expect(recorder.take() == [.windowDidResignKey(b.id), .windowDidBecomeKey(a.id)])
    }

    @Test func noOpChangesPostNothing() throws {
        let manager = makeManager(screens: 2)
        let screen = manager.screens[1]
        let hidden = manager.createWindow()
        let key = manager.shownWindow(screen: screen)
        manager.setFrame(key, Rect(x: 1, y: 2, width: 3, height: 4))
        let recorder = NotificationRecorder(manager)
        manager.hide(hidden)
        manager.makeKey(key)
        manager.show(key)
        manager.setLevel(key, .normal)
        manager.move(key, to: screen)
        manager.setFrame(key, Rect(x: 1, y: 2, width: 3, height: 4))
        manager.setCanBecomeKey(key, true)
        try manager.setMode(mode1080, for: screen)
        manager.setTransform(.normal, for: screen)
        manager.setScale(1, for: screen)
        manager.setBrightness(1, for: screen)
        manager.setBrightness(.nan, for: screen)
        manager.setMirroring(true, for: screen)
        manager.setOrigin(screen.origin, for: screen)
        manager.setUsableArea(nil, for: screen)
        manager.setUsableArea(screen.bounds, for: screen)
        manager.pointerDidClick(key)
        manager.pointerDidEnter(key)
        manager.policy = ExplicitKeyPolicy()
        #expect(recorder.take() == [])
    }

    @Test func hidingAHiddenWindowPostsNothing() {
        let manager = makeManager()
        let window = manager.shownWindow()
        manager.hide(window)
        let recorder = NotificationRecorder(manager)
        manager.hide(window)
        #expect(recorder.take().isEmpty)
    }

    @Test func levelChangePostsFromAndTo() {
        let manager = makeManager()
        let window = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.setLevel(window, .statusBar)
        #expect(recorder.take() == [.windowDidChangeLevel(window.id, from: .normal, to: .statusBar)])
    }

    @Test func movingToAnotherScreenWithAnOriginPostsMoveThenFrame() {
        let manager = makeManager(screens: 2)
        let window = manager.shownWindow(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        let recorder = NotificationRecorder(manager)
        let target = manager.screens[1]
        #expect(manager.move(window, to: target, origin: Point(x: 20, y: 30)))
        #expect(
            recorder.take() == [
                .windowDidMoveToScreen(window.id, from: manager.screens[0].id, to: target.id),
                .windowDidChangeFrame(
                    window.id, from: Rect(x: 5, y: 5, width: 10, height: 10),
                    to: Rect(x: 20, y: 30, width: 10, height: 10)),
                .screenDidChangeMirroring(target.id, false),
            ])
        #expect(window.screen === target)
    }

    @Test func sequenceNumbersStartAtOneAndIncreaseByOne() {
        let manager = WindowManager()
        let recorder = NotificationRecorder(manager)
        let screen = manager.connectScreen(name: "A", modes: [mode1080])
        let a = manager.createWindow()
        manager.show(a)
        manager.hide(a)
        manager.disconnectScreen(screen)
        let sequences = recorder.posted.map(\.sequence)
        #expect(sequences.first == 1)
        #expect(sequences == Array(1...UInt64(sequences.count)))
        #expect(manager.notifications.lastSequence == UInt64(sequences.count))
    }

    @Test func everyObserverSeesTheSameSequence() {
        let manager = makeManager()
        let first = NotificationRecorder(manager)
        let second = NotificationRecorder(manager)
        let a = manager.shownWindow()
        manager.close(a)
        #expect(!first.posted.isEmpty)
        #expect(first.posted == second.posted)
    }
}
