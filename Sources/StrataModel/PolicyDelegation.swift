/// The policy delegate's questions and answers (`docs/control.md`, "Policy delegate"): for the
/// decisions an outside process took over (`decisions`), each decision point asks a
/// `PolicyQuestion` instead of deciding, and the answer is applied later, through the
/// `WindowManager`'s public mutations, so every rule no policy breaks still holds (a hidden
/// window is never key, the lock, a window holding key, key routed past modal windows).
///
/// Questions wait in one queue, in the order they were asked, at most `maximumOutstanding`;
/// beyond that the built-in policy decides at once ("busy"). Answers are applied strictly in
/// question order: an answer to a later question waits until every earlier one is decided
/// (answered or fallen back). An applied answer runs under a `ChangeCause` of kind `delegate`; a
/// fallback applies the built-in answer (computed when the question was asked) under kind
/// `fallback`, decided by `"<built-in name> (<reason>)"`, and posts `policyDidFallBack`.
///
/// The owner (the control server) sends questions (`questionWasAsked`), keeps deadlines and
/// calls `fallBack(_:reason:)`, and hears of each decision (`questionWasDecided`). Key and
/// placement decisions are asked by wrapping the manager's policies
/// (`DelegatedKeyWindowPolicy`, `DelegatedPlacementPolicy`); the server asks focus-request and
/// level questions itself (`ask`).
public final class PolicyDelegation {
    /// Why the built-in policy decided instead of the delegate.
    public enum FallbackReason: String, Sendable, CaseIterable {
        /// No answer within the deadline (realtime clock).
        case deadline
        /// The answer was malformed, or the model's rules refused it.
        case invalid
        /// The delegate hung up or gave the decision up.
        case disconnected
        /// `maximumOutstanding` questions were waiting already.
        case busy
    }

    /// How a question was decided.
    public enum Resolution: Sendable {
        case answered(PolicyAnswer)
        case fallback(FallbackReason)
    }

    /// What became of an answer given to `resolve`.
    public enum Outcome: Equatable, Sendable {
        /// Applied now (true), or refused by the model's rules and fallen back (false).
        case applied(Bool)
        /// Kept until the earlier questions are decided.
        case waiting
    }

    /// An answer that cannot be taken: the question is unknown or decided already, or the answer
    /// does not fit it. The message says which, in words.
    public struct Refusal: Error, Sendable {
        public let message: String
    }

    public static let maximumOutstanding = 64

    public unowned let manager: WindowManager
    /// The decisions a delegate holds.
    public private(set) var decisions: Set<PolicyDecision> = []
    /// A question was asked: send it to the delegate.
    public var questionWasAsked: ((PolicyQuestion) -> Void)?
    /// A question was decided: how, and whether the delegate's answer was applied.
    public var questionWasDecided: ((PolicyQuestion, Resolution, Bool) -> Void)?

    private struct Entry {
        var question: PolicyQuestion
        var resolution: Resolution?
    }
    private var queue: [Entry] = []
    private var nextID: UInt64 = 1
    /// How recently decided questions were decided (for the message to a late answer), bounded.
    private var decided: [UInt64: (text: String, applied: Bool)] = [:]
    private var isDraining = false
    private var keyWrapper: DelegatedKeyWindowPolicy?
    private var placementWrapper: DelegatedPlacementPolicy?

    public init(manager: WindowManager) {
        self.manager = manager
    }

    /// The questions asked and not applied yet (answered ones waiting for earlier ones included).
    public var outstandingCount: Int { queue.count }
    public var hasOutstanding: Bool { !queue.isEmpty }
    /// The ids of the questions not applied yet, in order.
    public var outstandingIDs: [UInt64] { queue.map(\.question.id) }

    /// The outstanding question `id`, if any.
    public func question(withID id: UInt64) -> PolicyQuestion? {
        queue.first { $0.question.id == id }?.question
    }

    /// Whether question `id` waits for an answer (asked, not answered nor fallen back).
    public func isUnanswered(_ id: UInt64) -> Bool {
        queue.contains { $0.question.id == id && $0.resolution == nil }
    }

    // MARK: Delegated decisions

    /// Sets the decisions a delegate holds. Key and placement wrap the manager's policies
    /// (`DelegatedKeyWindowPolicy`, `DelegatedPlacementPolicy`); a decision given up gets its
    /// built-in policy back, and its unanswered questions fall back (`disconnected`).
    public func setDecisions(_ new: Set<PolicyDecision>) {
        let removed = decisions.subtracting(new)
        let changed = decisions != new
        decisions = new
        defer {
            if changed {
                manager.notifications.post(
                    .policyDelegateDidChange(decisions: new.map(\.rawValue).sorted().joined(separator: ",")))
            }
        }
        if new.contains(.key), keyWrapper == nil {
            let wrapper = DelegatedKeyWindowPolicy(builtin: manager.policy, delegation: self)
            keyWrapper = wrapper
            manager.policy = wrapper
        }
        if new.contains(.placement), placementWrapper == nil {
            let wrapper = DelegatedPlacementPolicy(builtin: manager.placement, delegation: self)
            placementWrapper = wrapper
            manager.placement = wrapper
        }
        if !removed.isEmpty { fallBackAll(in: removed, reason: .disconnected) }
        if !new.contains(.key), let wrapper = keyWrapper {
            if manager.policy === wrapper { manager.policy = wrapper.builtin }
            keyWrapper = nil
        }
        if !new.contains(.placement), let wrapper = placementWrapper {
            if manager.placement === wrapper { manager.placement = wrapper.builtin }
            placementWrapper = nil
        }
    }

    /// Switches the built-in key-window policy: inside the delegate's wrapper while a delegate
    /// holds key decisions (the fallback's policy), else the manager's own.
    public func setBuiltinPolicy(_ policy: any KeyWindowPolicy) {
        if let wrapper = keyWrapper, manager.policy === wrapper {
            wrapper.builtin = policy
        } else {
            manager.policy = policy
        }
    }

    /// Switches the built-in placement policy, as `setBuiltinPolicy` does the key policy.
    public func setBuiltinPlacement(_ placement: any WindowPlacementPolicy) {
        if let wrapper = placementWrapper, manager.placement === wrapper {
            wrapper.builtin = placement
        } else {
            manager.placement = placement
        }
    }

    // MARK: Asking

    /// Asks a question of `kind` about `window` (`configure` fills its extra fields). Returns
    /// false when `maximumOutstanding` questions wait already or no delegate holds the decision:
    /// then the caller applies `builtin` at once (a busy fallback is posted when a delegate
    /// holds it).
    @discardableResult
    public func ask(
        _ kind: PolicyQuestion.Kind, window: WindowID, cause: ChangeCause, builtin: PolicyAnswer, builtinName: String,
        configure: (inout PolicyQuestion) -> Void = { _ in }
    ) -> Bool {
        guard decisions.contains(kind.decision) else { return false }
        var question = PolicyQuestion(
            id: nextID, kind: kind, window: window, cause: cause, builtin: builtin, builtinName: builtinName)
        nextID += 1
        configure(&question)
        guard queue.count < Self.maximumOutstanding else {
            remember(question.id, "by the built-in policy at once (busy)", applied: false)
            postFallback(question, .busy)
            return false
        }
        queue.append(Entry(question: question))
        questionWasAsked?(question)
        return true
    }

    // MARK: Deciding

    /// The delegate's answer to question `id`. Applied now when every earlier question is
    /// decided (`.applied`: whether the model's rules took it; refused, the built-in answer is
    /// applied instead, reason `invalid`), else kept (`.waiting`). Throws when the question is
    /// not waiting for an answer, or when the answer does not fit it (the question then falls
    /// back, reason `invalid`).
    public func resolve(_ id: UInt64, _ answer: PolicyAnswer) throws(Refusal) -> Outcome {
        guard let index = queue.firstIndex(where: { $0.question.id == id }), queue[index].resolution == nil else {
            throw Refusal(message: describeNotWaiting(id))
        }
        let kind = queue[index].question.kind
        guard kind.fits(answer) else {
            fallBack(id, reason: .invalid)
            throw Refusal(message: "that is not an answer to a \(kind.rawValue) question")
        }
        queue[index].resolution = .answered(answer)
        drain()
        guard let record = decided[id] else { return .waiting }
        return .applied(record.applied)
    }

    /// The built-in policy decides question `id` (`reason`), in its turn. False when the question
    /// was not waiting for an answer.
    @discardableResult
    public func fallBack(_ id: UInt64, reason: FallbackReason) -> Bool {
        guard let index = queue.firstIndex(where: { $0.question.id == id }), queue[index].resolution == nil else {
            return false
        }
        queue[index].resolution = .fallback(reason)
        drain()
        return true
    }

    /// Every unanswered question of `decisions` falls back (`reason`).
    public func fallBackAll(in decisions: Set<PolicyDecision>, reason: FallbackReason) {
        for index in queue.indices
        where queue[index].resolution == nil && decisions.contains(queue[index].question.kind.decision) {
            queue[index].resolution = .fallback(reason)
        }
        drain()
    }

    /// Why question `id` takes no answer, in words.
    public func describeNotWaiting(_ id: UInt64) -> String {
        if let record = decided[id] { return "question \(id) was already decided \(record.text)" }
        if queue.contains(where: { $0.question.id == id }) {
            return "question \(id) was already answered; the answer waits for the earlier questions"
        }
        return id > 0 && id < nextID
            ? "question \(id) was decided long ago" : "there is no question \(id) (the last asked is \(nextID - 1))"
    }

    // MARK: Applying

    private func drain() {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while let head = queue.first, let resolution = head.resolution {
            queue.removeFirst()
            finish(head.question, resolution)
        }
    }

    private func finish(_ question: PolicyQuestion, _ resolution: Resolution) {
        var applied: PolicyAnswer?
        var delegateApplied = false
        switch resolution {
        case .answered(let answer):
            let cause = ChangeCause(
                .delegate, request: question.cause.request, requester: question.cause.requester,
                decidedBy: "delegate", requestedAt: question.cause.requestedAt)
            delegateApplied = manager.withCause(cause) { apply(answer, to: question) }
            if delegateApplied {
                applied = answer
                remember(question.id, "by the delegate", applied: true)
            } else {
                remember(question.id, "by the built-in policy (the answer was refused)", applied: false)
                applied = applyFallback(question, .invalid)
            }
        case .fallback(let reason):
            remember(question.id, "by the built-in policy (\(reason.rawValue))", applied: false)
            applied = applyFallback(question, reason)
        }
        questionWasDecided?(question, resolution, delegateApplied)
        question.completion?(applied)
    }

    private func applyFallback(_ question: PolicyQuestion, _ reason: FallbackReason) -> PolicyAnswer? {
        postFallback(question, reason)
        // A placement's built-in frame is the window's already.
        if question.kind == .placement { return question.builtin }
        let applied = manager.withCause(fallbackCause(question, reason)) { apply(question.builtin, to: question) }
        return applied ? question.builtin : nil
    }

    /// The cause a fallback's changes carry.
    public static func fallbackCause(_ question: PolicyQuestion, _ reason: FallbackReason) -> ChangeCause {
        ChangeCause(
            .fallback, request: question.cause.request, requester: question.cause.requester,
            decidedBy: "\(question.builtinName) (\(reason.rawValue))", requestedAt: question.cause.requestedAt)
    }

    private func fallbackCause(_ question: PolicyQuestion, _ reason: FallbackReason) -> ChangeCause {
        Self.fallbackCause(question, reason)
    }

    private func postFallback(_ question: PolicyQuestion, _ reason: FallbackReason) {
        manager.notifications.post(
            .policyDidFallBack(
                question.window, question: question.id, kind: question.kind.rawValue, reason: reason.rawValue),
            cause: fallbackCause(question, reason))
    }

    /// Applies `answer` through the manager's public mutations; false when the model's rules
    /// refuse it (the window is gone, may not be key, a lock, another window holds key).
    private func apply(_ answer: PolicyAnswer, to question: PolicyQuestion) -> Bool {
        // A successor's window is the one that lost key: closed, perhaps.
        if case .successor(let id) = answer {
            guard let id else { return true }
            guard manager.keyWindow == nil, let successor = manager.window(withID: id),
                manager.isEligibleForKey(successor)
            else { return false }
            return makeKey(successor)
        }
        guard let window = manager.window(withID: question.window) else { return false }
        switch answer {
        case .key(let key):
            return !key || makeKey(window)
        case .click(let key, let orderFront):
            if orderFront { manager.orderFront(window) }
            return !key || makeKey(window)
        case .successor:
            return false
        case .grant(let grant):
            guard grant else {
                manager.refuseKey(window)
                return true
            }
            return makeKey(window)
        case .level(let level):
            if let level { manager.setLevel(window, level) }
            return true
        case .origin(let origin):
            var frame = window.frame
            frame.origin = origin
            manager.setFrame(window, frame)
            return true
        }
    }

    /// `makeKey`, counting key routed to the modal window in the way as done.
    private func makeKey(_ window: Window) -> Bool {
        if manager.makeKey(window) { return true }
        guard let modal = manager.modalBlocker(of: window) else { return false }
        return manager.keyWindow === modal
    }

    private func remember(_ id: UInt64, _ text: String, applied: Bool) {
        if decided.count >= 4096 { decided = decided.filter { $0.key + 1024 >= nextID } }
        decided[id] = (text, applied)
    }
}
