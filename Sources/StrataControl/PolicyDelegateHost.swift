import Glibc
import StrataControlProtocol
import StrataModel
import StrataServer

/// The control side of the policy delegate (docs/control.md, "Policy delegate"): which
/// connection holds which decisions (`delegate`), the questions written to it, their deadlines
/// (loop timers, realtime clock only), `decide` replies that wait for earlier questions, the
/// hang-up of a delegate (its questions fall back, `disconnected`), and, under the manual clock,
/// whether other connections' requests are held back while a question is outstanding.
final class PolicyDelegateHost {
    private unowned let server: ControlServer
    /// The connection holding each decision.
    private(set) var holders: [PolicyDecision: Int] = [:]
    /// Each delegate connection's deadline, in milliseconds.
    private var deadlines: [Int: Int] = [:]
    /// Outstanding questions: the connection asked, and its deadline timer.
    private var asked: [UInt64: (connection: Int, timer: LoopTimer?)] = [:]
    /// `decide` requests whose answer waits for earlier questions.
    private var waitingReplies: [UInt64: (connection: Int, id: JSONValue)] = [:]
    /// Invalid answers are logged at most once a second.
    private var lastLogged: UInt64 = 0
    private var unlogged = 0
    /// Runs the held-back requests on the loop's next idle turn once the questions are decided.
    private var release: LoopIdle?

    static let defaultDeadline = 50
    static let deadlineRange = 1...10_000

    init(server: ControlServer) {
        self.server = server
        let delegation = server.compositor.policyDelegation
        delegation.questionWasAsked = { [unowned self] in questionWasAsked($0) }
        delegation.questionWasDecided = { [unowned self] question, _, applied in
            questionWasDecided(question, applied: applied)
        }
    }

    var delegation: PolicyDelegation { server.compositor.policyDelegation }
    private var isManual: Bool { server.compositor.clock.isManual }

    /// Strata is stopping: every decision goes back to the built-in policies.
    func stop() {
        release?.cancel()
        release = nil
        holders.removeAll()
        for entry in asked.values { entry.timer?.cancel() }
        asked.removeAll()
        waitingReplies.removeAll()
        let delegation = delegation
        delegation.questionWasAsked = nil
        delegation.questionWasDecided = nil
        delegation.setDecisions([])
    }

    func isDelegate(_ connection: Int) -> Bool {
        holders.values.contains(connection)
    }

    /// Whether requests of `connection` wait (manual clock, a question outstanding, not a
    /// delegate).
    func holdsBack(_ connection: Int) -> Bool {
        isManual && delegation.hasOutstanding && !isDelegate(connection)
    }

    /// The `policy` reply's `delegate`: the key delegate's connection (else any delegate's), its
    /// decisions and deadline; nil when there is none.
    var description: JSONValue? {
        guard let connection = holders[.key] ?? holders.values.min() else { return nil }
        let decisions = PolicyDecision.allCases.filter { holders[$0] == connection }
        return [
            "decisions": .array(decisions.map { .string($0.rawValue) }), "connection": JSONValue(connection),
            "deadline_ms": JSONValue(deadlines[connection] ?? Self.defaultDeadline),
        ]
    }

    // MARK: Registering

    /// `connection` holds `decisions` from now on (the ones it held and did not name go back to
    /// the built-in policies), with questions due in `deadline` ms.
    func register(_ decisions: Set<PolicyDecision>, deadline: Int, connection: Int) throws(ControlError) {
        for decision in PolicyDecision.allCases where decisions.contains(decision) {
            if let holder = holders[decision], holder != connection, server.connection(number: holder) != nil {
                throw ControlError(
                    .failed,
                    "the \(decision.rawValue) decisions are held by the delegate on control connection \(holder)")
            }
        }
        for (decision, holder) in holders where holder == connection && !decisions.contains(decision) {
            holders[decision] = nil
        }
        for decision in decisions { holders[decision] = connection }
        if decisions.isEmpty { deadlines[connection] = nil } else { deadlines[connection] = deadline }
        delegation.setDecisions(Set(holders.keys))
    }

    /// A connection closed: what it held falls back (`disconnected`) and goes back to the
    /// built-in policies.
    func connectionDidClose(_ connection: Int) {
        waitingReplies = waitingReplies.filter { $0.value.connection != connection }
        guard isDelegate(connection) else { return }
        holders = holders.filter { $0.value != connection }
        deadlines[connection] = nil
        delegation.setDecisions(Set(holders.keys))
    }

    // MARK: Questions

    private func questionWasAsked(_ question: PolicyQuestion) {
        guard let number = holders[question.kind.decision], let connection = server.connection(number: number) else {
            return
        }
        let deadline = deadlines[number] ?? Self.defaultDeadline
        connection.send(
            reply: PolicyWire.question(
                question, manager: server.compositor.windows, deadlineMilliseconds: isManual ? nil : deadline))
        var timer: LoopTimer?
        if !isManual {
            let id = question.id
            timer = LoopTimer(eventLoop: server.compositor.display.eventLoop) { [weak self] in
                self?.deadlinePassed(id)
            }
            timer?.schedule(milliseconds: Int32(deadline))
        }
        asked[question.id] = (number, timer)
    }

    private func deadlinePassed(_ id: UInt64) {
        delegation.fallBack(id, reason: .deadline)
    }

    private func questionWasDecided(_ question: PolicyQuestion, applied: Bool) {
        if let entry = asked.removeValue(forKey: question.id) { entry.timer?.cancel() }
        if let waiting = waitingReplies.removeValue(forKey: question.id),
            let connection = server.connection(number: waiting.connection)
        {
            connection.send(reply: [
                "id": waiting.id, "ok": true, "question": JSONValue(question.id), "applied": .bool(applied),
            ])
            if !applied {
                logRefusal(
                    "the answer to \(question.kind.rawValue) question \(question.id) was refused by the model's rules; the built-in policy decided"
                )
            }
        }
        if !delegation.hasOutstanding, server.hasHeldRequests {
            if release == nil {
                release = LoopIdle(eventLoop: server.compositor.display.eventLoop) { [weak self] in
                    self?.server.releaseHeldRequests()
                }
            }
            release?.schedule()
        }
    }

    // MARK: Answers

    /// The question `id` as `connection` may answer it.
    func question(_ id: UInt64, answerableBy connection: Int) throws(ControlError) -> PolicyQuestion {
        guard delegation.isUnanswered(id), let question = delegation.question(withID: id) else {
            throw ControlError(.failed, delegation.describeNotWaiting(id))
        }
        if let entry = asked[id], entry.connection != connection {
            throw ControlError(
                .failed, "question \(id) was asked of control connection \(entry.connection), not this one")
        }
        return question
    }

    /// The answer was taken and waits for earlier questions: its reply goes when it is applied.
    func replyLater(to id: UInt64, request: JSONValue, connection: Int) {
        if let entry = asked[id] {
            entry.timer?.cancel()
            asked[id] = (entry.connection, nil)
        }
        waitingReplies[id] = (connection, request)
    }

    /// Logs a refused or malformed answer, at most one line a second.
    func logRefusal(_ text: String) {
        let now = Clock.monotonicNanoseconds()
        guard lastLogged == 0 || now &- lastLogged >= 1_000_000_000 else {
            unlogged += 1
            return
        }
        let more = unlogged > 0 ? " (and \(unlogged) more not logged)" : ""
        server.log("policy delegate: \(text)\(more)")
        lastLogged = now
        unlogged = 0
    }
}
