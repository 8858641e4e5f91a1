import Testing

@testable import StrataModel

/// Who inherits key status when the key window goes, under each policy.
@Suite struct KeyPassingTests {
    /// The policies that pass key on (all but "explicit").
    static let passingPolicies = ["uikit", "click-to-focus", "focus-follows-pointer"]

    enum Loss: CaseIterable {
        case hide, close
    }

    static func lose(_ window: Window, _ loss: Loss, in manager: WindowManager) {
        switch loss {
        case .hide: manager.hide(window)
        case .close: manager.close(window)
        }
    }

    @Test(arguments: passingPolicies, Loss.allCases)
    func keyPassesToFrontmostVisibleWindowWhenKeyWindowGoes(policyName: String, loss: Loss) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let back = manager.shownWindow(pid: 2)
        let front = manager.shownWindow(pid: 3)
        _ = back
        let key = manager.shownWindow(pid: 4, level: .alert)
        Self.lose(key, loss, in: manager)
        #expect(manager.keyWindow === front)
    }

    @Test(arguments: passingPolicies, Loss.allCases)
    func keyPassesToSameClientFirst(policyName: String, loss: Loss) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let sameClient = manager.shownWindow(pid: 7)
        _ = manager.shownWindow(pid: 8)
        let key = manager.shownWindow(pid: 7)
        Self.lose(key, loss, in: manager)
        #expect(manager.keyWindow === sameClient)
    }

    @Test(arguments: passingPolicies, Loss.allCases)
    func keyPassesToSameScreenBeforeOtherScreens(policyName: String, loss: Loss) throws {
        let manager = makeManager(screens: 2, policy: try #require(KeyWindowPolicies.named(policyName)))
        let s1 = manager.screens[0]
        let s2 = manager.screens[1]
        let sameScreen = manager.shownWindow(pid: 2, screen: s2)
        _ = manager.shownWindow(pid: 3, screen: s1)
        let key = manager.shownWindow(pid: 4, screen: s2)
        Self.lose(key, loss, in: manager)
        #expect(manager.keyWindow === sameScreen)
    }

    @Test(arguments: passingPolicies, Loss.allCases)
    func keyPassesToAnyScreenWhenItsScreenHasNoCandidate(policyName: String, loss: Loss) throws {
        let manager = makeManager(screens: 2, policy: try #require(KeyWindowPolicies.named(policyName)))
        let elsewhere = manager.shownWindow(pid: 2, screen: manager.screens[0])
        let key = manager.shownWindow(pid: 4, screen: manager.screens[1])
        Self.lose(key, loss, in: manager)
        #expect(manager.keyWindow === elsewhere)
    }

    @Test(arguments: passingPolicies)
    func sameClientOnAnotherScreenBeatsAnotherClientOnTheSameScreen(policyName: String) throws {
        let manager = makeManager(screens: 2, policy: try #require(KeyWindowPolicies.named(policyName)))
        let sameClient = manager.shownWindow(pid: 5, screen: manager.screens[0])
        _ = manager.shownWindow(pid: 6, screen: manager.screens[1])
        let key = manager.shownWindow(pid: 5, screen: manager.screens[1])
        manager.hide(key)
        #expect(manager.keyWindow === sameClient)
    }

    @Test(arguments: passingPolicies)
    func successorSkipsHiddenAndIneligibleWindows(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let eligible = manager.shownWindow(pid: 1)
        _ = manager.shownWindow(pid: 1, canBecomeKey: false)
        let hidden = manager.shownWindow(pid: 1, makeKey: false)
        manager.hide(hidden)
        let key = manager.shownWindow(pid: 1)
        manager.close(key)
        #expect(manager.keyWindow === eligible)
    }

    @Test func unknownClientPidZeroIsNotTreatedAsTheSameClient() {
        let manager = makeManager(screens: 2)
        _ = manager.shownWindow(pid: 0, screen: manager.screens[0])
        let sameScreen = manager.shownWindow(pid: 9, screen: manager.screens[1])
        let key = manager.shownWindow(pid: 0, screen: manager.screens[1])
        manager.hide(key)
        #expect(manager.keyWindow === sameScreen)
    }

    @Test(arguments: Loss.allCases)
    func explicitPolicyPassesKeyToNobody(loss: Loss) {
        let manager = makeManager(policy: ExplicitKeyPolicy())
        _ = manager.shownWindow(pid: 1)
        let key = manager.shownWindow(pid: 1)
        let recorder = NotificationRecorder(manager)
        Self.lose(key, loss, in: manager)
        #expect(manager.keyWindow == nil)
        #expect(!recorder.take().contains { $0.name == "windowDidBecomeKey" })
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func keyWindowStaysKeyWhenItsScreenIsDisconnectedAndItMovesToMain(policyName: String) throws {
        let manager = makeManager(screens: 2, policy: try #require(KeyWindowPolicies.named(policyName)))
        _ = manager.shownWindow(screen: manager.screens[0], makeKey: false)
        let key = manager.shownWindow(screen: manager.screens[1])
        manager.disconnectScreen(manager.screens[1])
        #expect(manager.keyWindow === key)
        #expect(key.screen === manager.mainScreen)
    }

    @Test(arguments: KeyWindowPolicies.allNames)
    func keyWindowResignsWhenTheLastScreenGoes(policyName: String) throws {
        let manager = makeManager(policy: try #require(KeyWindowPolicies.named(policyName)))
        let key = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        let screen = manager.screens[0]
        manager.disconnectScreen(screen)
        #expect(manager.keyWindow == nil)
        #expect(key.screen == nil)
        #expect(!key.isHidden)
        #expect(recorder.take() == [.windowDidResignKey(key.id), .screenDidDisconnect(screen.id)])
        #expect(!manager.makeKey(key))
    }

    @Test func nonKeyWindowHidingDoesNotMoveKey() {
        let manager = makeManager()
        let a = manager.shownWindow()
        let b = manager.shownWindow(makeKey: false)
        manager.hide(b)
        #expect(manager.keyWindow === a)
    }

    @Test func hidingTheKeyWindowWithNoOtherCandidateLeavesNoKeyWindow() {
        let manager = makeManager()
        let only = manager.shownWindow()
        let recorder = NotificationRecorder(manager)
        manager.hide(only)
        #expect(manager.keyWindow == nil)
        #expect(recorder.take() == [.windowDidResignKey(only.id), .windowDidBecomeHidden(only.id)])
    }
}
