import Testing

@testable import StrataModel

@Suite struct KeyWindowTests {
    @Test func makeKeyAndVisibleShowsAndMakesKey() {
        let manager = makeManager()
        let window = manager.createWindow()
        #expect(window.isHidden)
        window.makeKeyAndVisible()
        #expect(!window.isHidden)
        #expect(window.isKeyWindow)
        #expect(manager.keyWindow === window)
    }

    @Test func showWithoutMakeKeyLeavesTheKeyWindowAlone() {
        let manager = makeManager()
        let key = manager.shownWindow()
        let other = manager.shownWindow(makeKey: false)
        #expect(key.isKeyWindow)
        #expect(!other.isKeyWindow)
        #expect(!other.isHidden)
    }

    @Test func onlyOneWindowIsKeyAtATime() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        #expect(!a.isKeyWindow)
        #expect(b.isKeyWindow)
        #expect(a.makeKey())
        #expect(a.isKeyWindow)
        #expect(!b.isKeyWindow)
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func windowThatCannotBecomeKeyIsNeverKey(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let panel = manager.shownWindow(canBecomeKey: false)
        #expect(!panel.isKeyWindow)
        #expect(!manager.makeKey(panel))
        manager.pointerDidClick(panel)
        manager.pointerDidEnter(panel)
        manager.show(panel, makeKey: true)
        #expect(manager.keyWindow == nil)
        let app = manager.shownWindow()
        manager.hide(app)
        #expect(manager.keyWindow == nil)
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func hiddenWindowIsNeverKey(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let hidden = manager.createWindow()
        #expect(!manager.makeKey(hidden))
        manager.pointerDidClick(hidden)
        manager.pointerDidEnter(hidden)
        #expect(manager.keyWindow == nil)
        let shown = manager.shownWindow()
        manager.hide(shown)
        #expect(!shown.isKeyWindow)
        #expect(manager.keyWindow == nil)
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func explicitMakeKeyIsHonouredUnderEveryPolicy(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let a = manager.shownWindow(makeKey: false)
        let b = manager.shownWindow(makeKey: false)
        #expect(manager.makeKey(a))
        #expect(manager.keyWindow === a)
        #expect(b.makeKey())
        #expect(manager.keyWindow === b)
    }

    @Test func clickMakesKeyUnderUIKitPolicyWithoutRaising() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.pointerDidClick(a)
        #expect(a.isKeyWindow)
        #expect(manager.stackingIDs == [a.id, b.id])
    }

    @Test func pointerEnterDoesNotMakeKeyUnderUIKitPolicy() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.pointerDidEnter(a)
        #expect(b.isKeyWindow)
    }

    @Test func clickToFocusClickRaisesAndMakesKey() {
        let manager = makeManager(policy: ClickToFocusPolicy())
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.pointerDidClick(a)
        #expect(a.isKeyWindow)
        #expect(manager.stackingIDs == [b.id, a.id])
        #expect(
            recorder.take() == [
                .windowDidChangeStacking(a.id), .windowDidResignKey(b.id), .windowDidBecomeKey(a.id),
            ])
        manager.pointerDidEnter(b)
        #expect(a.isKeyWindow)
    }

    @Test func focusFollowsPointerEnterMakesKeyWithoutRaising() {
        let manager = makeManager(policy: FocusFollowsPointerPolicy())
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.pointerDidEnter(a)
        #expect(a.isKeyWindow)
        #expect(manager.stackingIDs == [a.id, b.id])
        manager.pointerDidClick(b)
        #expect(b.isKeyWindow)
    }

    @Test func explicitPolicyIgnoresClicksAndPointer() {
        let manager = makeManager(policy: ExplicitKeyPolicy())
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.pointerDidClick(a)
        manager.pointerDidEnter(a)
        #expect(b.isKeyWindow)
        #expect(recorder.take().isEmpty)
    }

    @Test func explicitPolicyStillHonoursMakeKeyAndVisible() {
        let manager = makeManager(policy: ExplicitKeyPolicy())
        let a = manager.shownWindow()
        #expect(a.isKeyWindow)
        let b = manager.shownWindow(makeKey: false)
        #expect(!b.isKeyWindow)
    }

    @Test func resignKeyLeavesNoKeyWindow() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        b.resignKey()
        a.resignKey()
        #expect(manager.keyWindow == nil)
        #expect(recorder.take() == [.windowDidResignKey(b.id)])
        manager.resignKey()
        #expect(recorder.take().isEmpty)
    }

    @Test func switchingPolicyAtRunTimeKeepsTheKeyWindowAndChangesDecisions() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        manager.pointerDidEnter(a)
        #expect(b.isKeyWindow)
        manager.policy = FocusFollowsPointerPolicy()
        #expect(b.isKeyWindow)
        manager.pointerDidEnter(a)
        #expect(a.isKeyWindow)
    }

    @Test func policyRegistryKnowsEveryBuiltInName() throws {
        #expect(
            KeyWindowPolicies.allNames == [
                "uikit", "click-to-focus", "focus-follows-pointer", "explicit",
            ])
        for name in KeyWindowPolicies.allNames {
            #expect(try #require(KeyWindowPolicies.named(name)).name == name)
        }
        #expect(KeyWindowPolicies.named("sloppy") == nil)
        #expect(WindowManager().policy.name == "uikit")
    }

    @Test func turningOffCanBecomeKeyOnTheKeyWindowPassesKey() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.setCanBecomeKey(b, false)
        #expect(a.isKeyWindow)
        #expect(!b.canBecomeKey)
        #expect(recorder.take() == [.windowDidResignKey(b.id), .windowDidBecomeKey(a.id)])
    }

    @Test func policySuccessorThatIsNotEligibleIsIgnored() {
        final class BadPolicy: KeyWindowPolicy {
            var name: String { "bad" }
            var answer: Window?
            func successor(afterLosing old: Window, manager: WindowManager) -> Window? { answer }
        }
        let policy = BadPolicy()
        let manager = makeManager(policy: policy)
        let hidden = manager.createWindow()
        let panel = manager.shownWindow(canBecomeKey: false)
        let a = manager.shownWindow()
        policy.answer = hidden
        manager.hide(a)
        #expect(manager.keyWindow == nil)
        manager.show(a)
        policy.answer = panel
        manager.close(a)
        #expect(manager.keyWindow == nil)
    }
}
