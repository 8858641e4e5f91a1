import Testing

@testable import StrataModel

/// `Window.holdsKey` (`WindowManager.setHoldsKey`): what a layer surface with `exclusive`
/// keyboard interactivity on the top or overlay layer asks for. While the holder is shown and
/// key, no other window takes key by any route; hiding or closing it passes key on as usual.
@Suite struct KeyHoldingTests {
    @Test(arguments: KeyWindowPolicies.allNames)
    func noOtherWindowTakesKeyFromAShownHolderByAnyRoute(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let other = manager.shownWindow()
        let holder = manager.shownWindow(level: .alert, makeKey: false)
        manager.setHoldsKey(holder, true)
        #expect(holder.isKeyWindow)

        #expect(!manager.makeKey(other))
        manager.show(other, makeKey: true)
        manager.pointerDidClick(other)
        manager.pointerDidEnter(other)
        let newcomer = manager.shownWindow()
        #expect(holder.isKeyWindow)
        #expect(!other.isKeyWindow && !newcomer.isKeyWindow)
        #expect(manager.keyWindow === holder)
    }

    @Test func turningHoldingOnTakesKeyAtOnceWithResignBeforeBecome() {
        let manager = makeManager()
        let other = manager.shownWindow()
        let holder = manager.shownWindow(makeKey: false)
        let recorder = NotificationRecorder(manager)
        manager.setHoldsKey(holder, true)
        #expect(recorder.take() == [.windowDidResignKey(other.id), .windowDidBecomeKey(holder.id)])
        #expect(holder.isKeyWindow)
    }

    @Test func aHiddenHolderDoesNotHoldAndTakesKeyBackWhenShown() {
        let manager = makeManager()
        let other = manager.shownWindow()
        let holder = manager.createWindow()
        manager.setHoldsKey(holder, true)
        #expect(other.isKeyWindow)
        #expect(manager.makeKey(other))

        manager.show(holder, makeKey: true)
        #expect(holder.isKeyWindow)
        manager.hide(holder)
        #expect(other.isKeyWindow)
        #expect(manager.makeKey(other))
        manager.show(holder, makeKey: true)
        #expect(holder.isKeyWindow)
        #expect(!manager.makeKey(other))
    }

    @Test func closingTheHolderPassesKeyOnAndReleasesTheHold() {
        let manager = makeManager()
        let other = manager.shownWindow()
        let holder = manager.shownWindow()
        manager.setHoldsKey(holder, true)
        manager.close(holder)
        #expect(other.isKeyWindow)
        let next = manager.shownWindow()
        #expect(next.isKeyWindow)
    }

    @Test func turningHoldingOffLeavesKeyWhereItIsAndLetsOthersTakeIt() {
        let manager = makeManager()
        let other = manager.shownWindow()
        let holder = manager.shownWindow()
        manager.setHoldsKey(holder, true)
        manager.setHoldsKey(holder, false)
        #expect(holder.isKeyWindow)
        #expect(manager.makeKey(other))
        #expect(other.isKeyWindow)
    }

    @Test func aSecondHolderWaitsUntilTheFirstLetsGo() {
        let manager = makeManager()
        let first = manager.shownWindow()
        manager.setHoldsKey(first, true)
        let second = manager.shownWindow()
        manager.setHoldsKey(second, true)
        #expect(first.isKeyWindow)
        #expect(!manager.makeKey(second))
        manager.hide(first)
        #expect(second.isKeyWindow)
    }

    @Test func aHolderThatCannotBecomeKeyHoldsNothing() {
        let manager = makeManager()
        let other = manager.shownWindow()
        let holder = manager.shownWindow(canBecomeKey: false)
        manager.setHoldsKey(holder, true)
        #expect(other.isKeyWindow)
        #expect(!holder.isKeyWindow)
        let next = manager.shownWindow()
        #expect(next.isKeyWindow)
    }
}
