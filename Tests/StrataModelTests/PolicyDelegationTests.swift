import Testing

@testable import StrataModel

/// The policy delegate's model part: questions asked instead of decisions, answers applied in
/// question order through the manager's mutations, fallbacks with their causes.
@Suite struct PolicyDelegationTests {
    /// A manager with a delegation holding `decisions`, and the questions it asked.
    final class Harness {
        let manager: WindowManager
        let delegation: PolicyDelegation
        var asked: [PolicyQuestion] = []
        var decided: [(UInt64, Bool)] = []
        let recorder: NotificationRecorder

        init(_ decisions: Set<PolicyDecision> = [.key], policy: any KeyWindowPolicy = UIKitKeyWindowPolicy()) {
            manager = makeManager(policy: policy)
            delegation = PolicyDelegation(manager: manager)
            recorder = NotificationRecorder(manager)
            delegation.questionWasAsked = { [unowned self] in asked.append($0) }
            delegation.questionWasDecided = { [unowned self] question, _, applied in
                decided.append((question.id, applied))
            }
            delegation.setDecisions(decisions)
        }

        var last: PolicyQuestion? { asked.last }
    }

    @Test func aShowAsksAndTheAnswerMakesKey() throws {
        let h = Harness()
        let window = h.manager.createWindow(pid: 1)
        h.manager.show(window, makeKey: true)
        #expect(h.manager.keyWindow == nil)
        let question = try #require(h.last)
        #expect(question.kind == .map)
        #expect(question.window == window.id)
        #expect(question.requested == true)
        #expect(question.builtin == .key(true))
        #expect(question.builtinName == "uikit")
        _ = h.recorder.take()
        #expect(try h.delegation.resolve(question.id, .key(true)) == .applied(true))
        #expect(h.manager.keyWindow === window)
        let key = try #require(h.recorder.posted.last)
        #expect(key.notification == .windowDidBecomeKey(window.id))
        #expect(key.cause?.kind == .delegate)
        #expect(key.cause?.decidedBy == "delegate")
        #expect(!h.delegation.hasOutstanding)
    }

    @Test func aClickAsksAndTheDelegateMayOrderFrontWithoutKey() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        let b = h.manager.createWindow(pid: 2)
        h.manager.show(a)
        try h.delegation.resolve(h.last!.id, .key(true))
        h.manager.show(b)
        try h.delegation.resolve(h.last!.id, .key(true))
        #expect(h.manager.keyWindow === b)
        h.manager.pointerDidClick(a)
        let click = try #require(h.last)
        #expect(click.kind == .click)
        #expect(click.input == "click")
        #expect(click.builtin == .click(key: true, orderFront: false))
        #expect(h.manager.keyWindow === b)
        #expect(try h.delegation.resolve(click.id, .click(key: false, orderFront: true)) == .applied(true))
        #expect(h.manager.keyWindow === b)
        #expect(h.manager.windows.last === a)
    }

    @Test func theSuccessorIsTheDelegatesAndAHiddenOneIsRefused() throws {
        let h = Harness()
        let a = h.manager.shownWindow(pid: 1)
        try h.delegation.resolve(h.last!.id, .key(true))
        let b = h.manager.shownWindow(pid: 2)
        try h.delegation.resolve(h.last!.id, .key(true))
        let c = h.manager.shownWindow(pid: 3)
        try h.delegation.resolve(h.last!.id, .key(true))
        h.manager.hide(b)
        h.manager.close(c)
        let successor = try #require(h.last)
        #expect(successor.kind == .successor)
        #expect(successor.lost == c.id)
        #expect(successor.builtin == .successor(a.id))
        #expect(h.manager.keyWindow == nil)
        // b is hidden: refused, and the built-in's answer (a) applies, reason invalid.
        _ = h.recorder.take()
        #expect(try h.delegation.resolve(successor.id, .successor(b.id)) == .applied(false))
        #expect(h.manager.keyWindow === a)
        let posted = h.recorder.posted
        #expect(
            posted.first?.notification
                == .policyDidFallBack(c.id, question: successor.id, kind: "successor", reason: "invalid"))
        #expect(posted.last?.cause?.kind == .fallback)
        #expect(posted.last?.cause?.decidedBy == "uikit (invalid)")
    }

    @Test func answersApplyInQuestionOrder() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        let b = h.manager.createWindow(pid: 2)
        h.manager.show(a)
        let first = try #require(h.last)
        h.manager.show(b)
        let second = try #require(h.last)
        #expect(try h.delegation.resolve(second.id, .key(true)) == .waiting)
        #expect(h.manager.keyWindow == nil)
        #expect(throws: PolicyDelegation.Refusal.self) { try h.delegation.resolve(second.id, .key(false)) }
        #expect(try h.delegation.resolve(first.id, .key(true)) == .applied(true))
        // a first, then b: b is key.
        #expect(h.manager.keyWindow === b)
        #expect(h.decided.map(\.0) == [first.id, second.id])
    }

    @Test func aFallbackAppliesTheBuiltInAnswerAndSaysSo() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        h.manager.show(a)
        let question = try #require(h.last)
        _ = h.recorder.take()
        #expect(h.delegation.fallBack(question.id, reason: .deadline))
        #expect(h.manager.keyWindow === a)
        #expect(h.recorder.posted.map(\.notification.name) == ["policyDidFallBack", "windowDidBecomeKey"])
        #expect(h.recorder.posted.last?.cause?.decidedBy == "uikit (deadline)")
        #expect(!h.delegation.fallBack(question.id, reason: .deadline))
        let refusal = #expect(throws: PolicyDelegation.Refusal.self) {
            try h.delegation.resolve(question.id, .key(true))
        }
        #expect(refusal?.message == "question \(question.id) was already decided by the built-in policy (deadline)")
    }

    @Test func anAnswerOfTheWrongKindFallsBack() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        h.manager.show(a)
        let question = try #require(h.last)
        #expect(throws: PolicyDelegation.Refusal.self) { try h.delegation.resolve(question.id, .grant(true)) }
        #expect(h.manager.keyWindow === a)
        #expect(!h.delegation.hasOutstanding)
    }

    @Test func beyondSixtyFourOutstandingTheBuiltInDecidesAtOnce() throws {
        let h = Harness(policy: ClickToFocusPolicy())
        let a = h.manager.shownWindow(pid: 1)
        h.delegation.fallBack(h.last!.id, reason: .deadline)
        let b = h.manager.shownWindow(pid: 2)
        h.delegation.fallBack(h.last!.id, reason: .deadline)
        #expect(h.manager.keyWindow === b)
        _ = h.recorder.take()
        for _ in 0..<10_000 { h.manager.pointerDidClick(a) }
        #expect(h.delegation.outstandingCount == PolicyDelegation.maximumOutstanding)
        #expect(h.asked.count == 2 + PolicyDelegation.maximumOutstanding)
        // The first busy click made a key and ordered it front, at once.
        #expect(h.manager.keyWindow === a)
        let busy = h.recorder.posted.filter {
            if case .policyDidFallBack(_, _, _, "busy") = $0.notification { return true }
            return false
        }
        #expect(busy.count == 10_000 - PolicyDelegation.maximumOutstanding)
    }

    @Test func givingUpADecisionFallsBackItsQuestionsAndRestoresTheBuiltIn() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        h.manager.show(a)
        #expect(h.manager.policy is DelegatedKeyWindowPolicy)
        h.delegation.setBuiltinPolicy(ClickToFocusPolicy())
        #expect(h.manager.policy is DelegatedKeyWindowPolicy)
        #expect(h.manager.policy.name == "click-to-focus")
        h.delegation.setDecisions([])
        #expect(h.manager.keyWindow === a)
        #expect(h.manager.policy is ClickToFocusPolicy)
        #expect(!h.delegation.hasOutstanding)
        let b = h.manager.createWindow(pid: 2)
        h.manager.show(b)
        #expect(h.manager.keyWindow === b)
        #expect(h.asked.count == 1)
    }

    @Test func theLockStillKeepsEveryWindowFromKey() throws {
        let h = Harness()
        let a = h.manager.createWindow(pid: 1)
        h.manager.show(a, makeKey: false)
        let question = try #require(h.last)
        h.manager.lock()
        #expect(try h.delegation.resolve(question.id, .key(true)) == .applied(false))
        #expect(h.manager.keyWindow == nil)
    }

    @Test func placementGivesTheBuiltInFrameAndTheAnswerMovesIt() throws {
        let h = Harness([.placement])
        let window = h.manager.createWindow(pid: 1)
        let screen = try #require(h.manager.mainScreen)
        let frame = h.manager.placement.initialFrame(
            for: window, size: Size(width: 200, height: 100), requestedOrigin: nil, on: screen)
        h.manager.setFrame(window, frame)
        let question = try #require(h.last)
        #expect(question.kind == .placement)
        #expect(question.size == Size(width: 200, height: 100))
        #expect(question.builtin == .origin(frame.origin))
        #expect(try h.delegation.resolve(question.id, .origin(Point(x: 300, y: 40))) == .applied(true))
        #expect(h.manager.window(withID: window.id)?.frame == Rect(x: 300, y: 40, width: 200, height: 100))
    }

    @Test func aLevelQuestionIsAskedOnlyOfAStackingDelegate() throws {
        let h = Harness([.key])
        let window = h.manager.shownWindow(pid: 1)
        #expect(
            !h.delegation.ask(
                .level, window: window.id, cause: ChangeCause(.focusRequest), builtin: .level(nil),
                builtinName: "level-rules"))
        h.delegation.setDecisions([.stacking])
        var completed: PolicyAnswer?? = .none
        #expect(
            h.delegation.ask(
                .level, window: window.id, cause: ChangeCause(.focusRequest), builtin: .level(nil),
                builtinName: "level-rules"
            ) {
                $0.requestedLevel = .alert
                $0.completion = { completed = .some($0) }
            })
        let question = try #require(h.last)
        #expect(try h.delegation.resolve(question.id, .level(.alert)) == .applied(true))
        #expect(h.manager.window(withID: window.id)?.level == .alert)
        #expect(completed == .some(.level(.alert)))
    }
}
