import Testing

@testable import StrataModel

/// Causes (`ChangeCause`, `WindowManager.withCause`): every notification of a transaction carries
/// the cause it ran under; the manager's own steps (successor, modal) name their own kind and
/// keep the request; the policy that decided is named when the caller named nothing.
@Suite struct ChangeCauseTests {
    private let click = ChangeCause(.click, request: "pointer-button 272", requester: "user", requestedAt: 7)

    /// The recorded notifications' names and causes; clears the recorder.
    private func taken(_ recorder: NotificationRecorder) -> [(name: String, cause: ChangeCause?)] {
        defer { _ = recorder.take() }
        return recorder.posted.map { ($0.name, $0.cause) }
    }

    @Test func everyNotificationOfATransactionCarriesItsCause() {
        let manager = makeManager()
        let window = manager.createWindow(pid: 4)
        let recorder = NotificationRecorder(manager)
        let map = ChangeCause(.map, request: "xdg_toplevel map", requester: "pid 4", requestedAt: 12)
        manager.withCause(map) { manager.show(window) }

        let posted = taken(recorder)
        #expect(posted.map(\.name) == ["windowDidBecomeVisible", "windowDidBecomeKey"])
        #expect(posted.allSatisfy { $0.cause?.kind == .map && $0.cause?.requester == "pid 4" })
        #expect(posted.allSatisfy { $0.cause?.requestedAt == 12 })
        // The policy agreed to make it key: it is named as what decided.
        #expect(posted[0].cause?.decidedBy == "")
        #expect(posted[1].cause?.decidedBy == "uikit")
    }

    @Test func notificationsOutsideACauseHaveNone() {
        let manager = makeManager()
        let recorder = NotificationRecorder(manager)
        manager.shownWindow()
        #expect(!recorder.posted.isEmpty)
        #expect(recorder.posted.allSatisfy { $0.cause == nil })
        #expect(manager.currentCause == nil)
    }

    @Test func aClickNamesThePolicyThatOrderedFrontAndMadeKey() {
        let manager = makeManager(policy: ClickToFocusPolicy())
        let back = manager.shownWindow()
        manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.withCause(click) { manager.pointerDidClick(back) }

        let posted = taken(recorder)
        #expect(posted.map(\.name) == ["windowDidChangeStacking", "windowDidResignKey", "windowDidBecomeKey"])
        for item in posted {
            #expect(
                item.cause
                    == ChangeCause(
                        .click, request: "pointer-button 272", requester: "user",
                        decidedBy: "click-to-focus", requestedAt: 7))
        }
    }

    @Test func aPointerEntryCarriesItsKindAndPolicy() {
        let manager = makeManager(policy: FocusFollowsPointerPolicy())
        let first = manager.shownWindow()
        manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.withCause(ChangeCause(.pointerEnter, request: "pointer-enter", requester: "user")) {
            manager.pointerDidEnter(first)
        }
        let posted = taken(recorder)
        #expect(posted.map(\.name) == ["windowDidResignKey", "windowDidBecomeKey"])
        #expect(posted.allSatisfy { $0.cause?.kind == .pointerEnter && $0.cause?.decidedBy == "focus-follows-pointer" })
    }

    @Test func aCallerThatNamedWhatDecidedKeepsIt() {
        let manager = makeManager()
        let window = manager.createWindow(pid: 1)
        let recorder = NotificationRecorder(manager)
        manager.withCause(ChangeCause(.delegate, request: "map", requester: "pid 1", decidedBy: "delegate")) {
            manager.show(window)
        }
        #expect(recorder.posted.allSatisfy { $0.cause?.decidedBy == "delegate" })
    }

    @Test func theSuccessorStepKeepsTheRequestAndRequester() {
        let manager = makeManager()
        let first = manager.shownWindow()
        let second = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        let command = ChangeCause(.command, request: "close window=2", requester: "control 3", requestedAt: 99)
        manager.withCause(command) { manager.close(second) }

        let posted = taken(recorder)
        #expect(
            posted.map(\.name) == [
                "windowDidResignKey", "windowDidBecomeHidden", "windowDidClose", "windowDidBecomeKey",
            ])
        #expect(posted.dropLast().allSatisfy { $0.cause == command })
        #expect(
            posted.last?.cause
                == ChangeCause(
                    .successor, request: "close window=2", requester: "control 3", decidedBy: "uikit",
                    requestedAt: 99))
        #expect(first.isKeyWindow)
    }

    @Test func theModalStepKeepsTheRequestAndRequester() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog)
        let other = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        let request = ChangeCause(.focusRequest, request: "strata_window_v1.make_key", requester: "pid 1")
        manager.withCause(request) { _ = manager.makeKey(parent) }

        let posted = taken(recorder)
        #expect(posted.map(\.name) == ["windowDidResignKey", "windowDidBecomeKey"])
        #expect(posted.last?.cause?.kind == .modal)
        #expect(posted.last?.cause?.request == "strata_window_v1.make_key")
        #expect(posted.last?.cause?.requester == "pid 1")
        #expect(dialog.isKeyWindow && !other.isKeyWindow)
    }

    @Test func nestedCausesGiveTheInnermostInsideAndRestoreTheOuterAfter() {
        let manager = makeManager()
        let a = manager.createWindow(pid: 1)
        let b = manager.createWindow(pid: 2)
        let recorder = NotificationRecorder(manager)
        let outer = ChangeCause(.command, request: "show window=1", requester: "control 1")
        let inner = ChangeCause(.map, requester: "pid 2")
        manager.withCause(outer) {
            manager.show(a)
            #expect(manager.currentCause == outer)
            manager.withCause(inner) {
                manager.show(b)
                #expect(manager.currentCause == inner)
            }
            #expect(manager.currentCause == outer)
            manager.orderFront(a)
        }
        #expect(manager.currentCause == nil)

        let posted = taken(recorder)
        let kinds = posted.map { $0.cause?.kind }
        #expect(kinds == [.command, .command, .map, .map, .map, .command])
    }

    @Test func refuseKeyPostsOnlyTheRefusalUnderTheCurrentCause() {
        let manager = makeManager()
        let window = manager.shownWindow()
        let key = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        let request = ChangeCause(.focusRequest, request: "_NET_ACTIVE_WINDOW", requester: "pid 9")
        manager.withCause(request) { manager.refuseKey(window) }

        let posted = taken(recorder)
        #expect(posted.map(\.name) == ["keyRequestWasRefused"])
        #expect(posted.first?.cause == request)
        #expect(recorder.posted.isEmpty)
        #expect(key.isKeyWindow)
        #expect(WindowServerNotification.keyRequestWasRefused(window.id).payload["window"] == "\(window.id.rawValue)")

        manager.close(window)
        _ = recorder.take()
        manager.refuseKey(window)
        #expect(recorder.posted.isEmpty)
    }

    @Test func makeKeyOrRefusePostsTheRefusalOnlyWhenNothingChanged() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog)
        let other = manager.shownWindow()
        let hidden = manager.createWindow(pid: 2)
        let recorder = NotificationRecorder(manager)
        let request = ChangeCause(.command, request: "make-key window=1", requester: "control 1")

        // Routed to the modal window: key changed, no refusal.
        #expect(!manager.withCause(request) { manager.makeKeyOrRefuse(parent) })
        #expect(recorder.takeNames() == ["windowDidResignKey", "windowDidBecomeKey"])
        // Already blocked by the key modal window: nothing to refuse either.
        #expect(!manager.withCause(request) { manager.makeKeyOrRefuse(parent) })
        #expect(recorder.takeNames() == [])
        // Hidden, then locked: refused.
        #expect(!manager.withCause(request) { manager.makeKeyOrRefuse(hidden) })
        #expect(recorder.take() == [.keyRequestWasRefused(hidden.id)])
        manager.lock()
        _ = recorder.take()
        #expect(!manager.withCause(request) { manager.makeKeyOrRefuse(other) })
        #expect(recorder.posted.first?.cause == request)
        #expect(recorder.take() == [.keyRequestWasRefused(other.id)])
        manager.unlock()
        _ = recorder.take()
        #expect(manager.withCause(request) { manager.makeKeyOrRefuse(other) })
        #expect(recorder.takeNames() == ["windowDidResignKey", "windowDidBecomeKey"])
    }

    @Test func lockAndUnlockCarryTheLockCause() {
        let manager = makeManager()
        manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        let lock = ChangeCause(.lock, request: "ext_session_lock_v1.lock", requester: "pid 5")
        manager.withCause(lock) { manager.lock() }
        manager.withCause(lock) { manager.unlock() }
        let posted = taken(recorder)
        #expect(
            posted.map(\.name) == ["windowDidResignKey", "sessionDidLock", "sessionDidUnlock", "windowDidBecomeKey"])
        #expect(posted.allSatisfy { $0.cause?.kind == .lock })
    }

    @Test func theCauseFieldsLeaveOutWhatIsEmpty() {
        let posted = PostedNotification(
            sequence: 4, notification: .windowDidBecomeKey(WindowID(2)),
            cause: ChangeCause(.click, requester: "user", decidedBy: "uikit"))
        #expect(
            posted.payload == [
                "name": "windowDidBecomeKey", "window": "2", "sequence": "4", "cause": "click", "requester": "user",
                "decided_by": "uikit",
            ])
    }
}
