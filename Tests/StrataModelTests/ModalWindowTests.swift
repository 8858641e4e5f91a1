import Testing

@testable import StrataModel

/// Modal windows (`WindowManager.setModal`, `modalBlocker(of:)`): a shown modal child keeps key
/// over its parent; every route to making the parent key goes to the modal child instead, or is
/// refused when the policy says so (`KeyWindowPolicy.shouldRouteKey`).
@Suite struct ModalWindowTests {
    /// A parent with a shown modal child, the child key.
    private func parentWithModalChild(_ manager: WindowManager) -> (parent: Window, dialog: Window) {
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog, makeKey: true)
        return (parent, dialog)
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func everyRouteToTheParentMakesTheModalChildKeyInstead(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let (parent, dialog) = parentWithModalChild(manager)
        let other = manager.shownWindow()
        #expect(other.isKeyWindow)

        #expect(!manager.makeKey(parent))
        #expect(dialog.isKeyWindow)
        #expect(manager.makeKey(other))
        manager.show(parent, makeKey: true)
        #expect(dialog.isKeyWindow)
        #expect(manager.makeKey(other))
        manager.pointerDidClick(parent)
        manager.pointerDidEnter(parent)
        // Clicks and pointer entries move key only under the policies that move it at all.
        let movesOnClick = policyName != "explicit"
        #expect(dialog.isKeyWindow == movesOnClick)
        #expect(!parent.isKeyWindow)
    }

    @Test func showingAModalChildOfTheKeyWindowTakesKeyEvenWithoutAskingForIt() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        let recorder = NotificationRecorder(manager)

        manager.show(dialog, makeKey: false)
        #expect(dialog.isKeyWindow)
        #expect(
            recorder.take() == [
                .windowDidBecomeVisible(dialog.id), .windowDidResignKey(parent.id), .windowDidBecomeKey(dialog.id),
            ])
    }

    @Test func makingAShownChildModalTakesKeyFromItsParentAfterTheModalNotification() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let child = manager.shownWindow(makeKey: false)
        manager.setParent(child, parent)
        #expect(parent.isKeyWindow)
        let recorder = NotificationRecorder(manager)

        manager.setModal(child, true)
        #expect(
            recorder.take() == [
                .windowDidChangeModal(child.id, true), .windowDidResignKey(parent.id), .windowDidBecomeKey(child.id),
            ])
        manager.setModal(child, true)
        #expect(recorder.take() == [])
        manager.setModal(child, false)
        #expect(recorder.take() == [.windowDidChangeModal(child.id, false)])
        #expect(manager.makeKey(parent))
    }

    @Test func givingAShownModalWindowTheKeyWindowAsParentTakesKey() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.shownWindow(makeKey: false)
        manager.setModal(dialog, true)
        #expect(parent.isKeyWindow)
        manager.setParent(dialog, parent)
        #expect(dialog.isKeyWindow)
        manager.setParent(dialog, nil)
        #expect(manager.makeKey(parent))
    }

    @Test func hidingOrClosingTheModalChildFreesTheParent() {
        let manager = makeManager()
        let (parent, dialog) = parentWithModalChild(manager)
        manager.hide(dialog)
        #expect(parent.isKeyWindow)
        manager.show(dialog, makeKey: false)
        #expect(dialog.isKeyWindow)
        manager.close(dialog)
        #expect(parent.isKeyWindow)
        #expect(parent.modalChildren.isEmpty)
        #expect(manager.makeKey(parent))
    }

    @Test func aModalChildThatCannotBeKeyBlocksNothing() {
        let manager = makeManager()
        let (parent, dialog) = parentWithModalChild(manager)
        manager.setCanBecomeKey(dialog, false)
        #expect(parent.isKeyWindow)
        manager.setCanBecomeKey(dialog, true)
        #expect(dialog.isKeyWindow)
    }

    @Test func theSuccessorOfAClosedWindowIsRoutedToTheModalChildOfThePreferredWindow() {
        let manager = makeManager()
        let (parent, dialog) = parentWithModalChild(manager)
        manager.orderFront(parent)
        let other = manager.shownWindow(pid: 2)
        manager.close(other)
        // The default successor is the frontmost window of another pid… none; then the same
        // screen's frontmost: the parent, which the dialog blocks.
        #expect(dialog.isKeyWindow)
        #expect(!parent.isKeyWindow)
    }

    @Test func aPolicyMayRefuseToRouteAndThenNothingChanges() {
        final class Refusing: KeyWindowPolicy {
            let name = "refusing"
            func shouldRouteKey(to modal: Window, blocking window: Window, manager: WindowManager) -> Bool { false }
        }
        let manager = makeManager(policy: Refusing())
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog, makeKey: false)
        // Not a request for the parent: the rule that the key window is never blocked.
        #expect(dialog.isKeyWindow)
        let other = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        #expect(!manager.makeKey(parent))
        manager.pointerDidClick(parent)
        #expect(other.isKeyWindow)
        #expect(recorder.take() == [])
    }

    @Test func theFrontmostOfSeveralModalChildrenTakesKeyAndTheNextWhenItCloses() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let first = manager.createWindow(pid: 1)
        let second = manager.createWindow(pid: 1)
        for dialog in [first, second] {
            manager.setParent(dialog, parent)
            manager.setModal(dialog, true)
            manager.show(dialog, makeKey: false)
        }
        #expect(manager.modalBlocker(of: parent) === second)
        manager.orderFront(first)
        #expect(manager.modalBlocker(of: parent) === first)
        #expect(manager.keyAfterAsking(for: parent) === first)
        manager.close(first)
        #expect(manager.modalBlocker(of: parent) === second)
        #expect(second.isKeyWindow)
    }

    @Test func aModalWindowWithoutAParentBlocksNothingAndALockedSessionHasNoBlocker() {
        let manager = makeManager()
        let lone = manager.shownWindow(makeKey: false)
        manager.setModal(lone, true)
        let (parent, dialog) = parentWithModalChild(manager)
        #expect(dialog.isKeyWindow)
        manager.lock()
        #expect(manager.modalBlocker(of: parent) == nil)
        manager.unlock()
        #expect(dialog.isKeyWindow)
        #expect(manager.makeKey(lone))
    }

    @Test func unlockingRestoresTheModalChildWhenTheParentWasRemembered() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        manager.lock()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog, makeKey: true)
        #expect(manager.keyWindow == nil)
        manager.unlock()
        #expect(dialog.isKeyWindow)
    }

    @Test func aModalChainTwoHundredThousandDeepRoutesToItsInnermostWindowWithoutRecursion() {
        let manager = makeManager()
        // Shown without key (no key window: nothing to keep above), made modal, each new window
        // the parent of the chain's top.
        var top = manager.createWindow()
        manager.show(top, makeKey: false)
        let innermost = top
        for _ in 0..<200_000 {
            let newTop = manager.createWindow()
            manager.show(newTop, makeKey: false)
            manager.setModal(top, true)
            manager.setParent(top, newTop)
            top = newTop
        }
        let root = top
        #expect(manager.modalBlocker(of: root) === innermost)
        #expect(!manager.makeKey(root))
        #expect(innermost.isKeyWindow)
        manager.pointerDidClick(root)
        #expect(innermost.isKeyWindow)
        // Closing the innermost hands key to the next one up, the new innermost.
        let next = innermost.parent
        manager.close(innermost)
        #expect(next?.isKeyWindow == true)
        #expect(manager.modalBlocker(of: root) === next)
    }

    @Test func orderingABlockedParentFrontOrdersItsModalChainFrontAfterIt() {
        let manager = makeManager()
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog, makeKey: true)
        let inner = manager.createWindow(pid: 1)
        manager.setParent(inner, dialog)
        manager.setModal(inner, true)
        manager.show(inner, makeKey: false)
        let other = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.orderFront(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, dialog.id, inner.id])
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(parent.id), .windowDidChangeStacking(dialog.id),
                .windowDidChangeStacking(inner.id),
            ])
        manager.hide(parent)
        manager.orderFront(other)
        manager.show(parent, makeKey: false)
        #expect(manager.stackingIDs == [other.id, parent.id, dialog.id, inner.id])
    }

    @Test func clickingABlockedParentUnderClickToFocusRaisesItsModalChainAboveIt() {
        let manager = makeManager(policy: ClickToFocusPolicy())
        let parent = manager.shownWindow()
        let dialog = manager.createWindow(pid: 1)
        manager.setParent(dialog, parent)
        manager.setModal(dialog, true)
        manager.show(dialog, makeKey: true)
        let other = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.pointerDidClick(parent)
        #expect(manager.stackingIDs == [other.id, parent.id, dialog.id])
        #expect(dialog.isKeyWindow)
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(parent.id), .windowDidChangeStacking(dialog.id),
                .windowDidResignKey(other.id), .windowDidBecomeKey(dialog.id),
            ])
    }
}

extension WindowManager {
    /// Asks for `other` to be key and returns the window that is key afterwards.
    fileprivate func keyAfterAsking(for window: Window) -> Window? {
        makeKey(window)
        return keyWindow
    }
}
