import StrataControlProtocol
import StrataModel
import StrataServer

/// `delegate` and `decide`: the policy delegate (docs/control.md, "Policy delegate";
/// `PolicyDelegateHost`, `PolicyDelegation`).
extension ControlCommands {
    /// `delegate`: this connection takes over `decisions` (a subset of key, placement,
    /// stacking; [] gives them all up), its questions due in `deadline_ms`.
    func delegate(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        let names = try request.stringArray("decisions")
        var decisions: Set<PolicyDecision> = []
        for name in names {
            guard let decision = PolicyDecision(rawValue: name) else {
                throw ControlError(
                    .invalidArgument,
                    "unknown decision \"\(name)\"; use some of \(PolicyDecision.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            decisions.insert(decision)
        }
        let deadline =
            try request.optionalInt("deadline_ms", in: PolicyDelegateHost.deadlineRange)
            ?? PolicyDelegateHost.defaultDeadline
        try server.delegates.register(decisions, deadline: deadline, connection: connection.number)
        return [
            "decisions": .array(PolicyDecision.allCases.filter { decisions.contains($0) }.map { .string($0.rawValue) }),
            "deadline_ms": JSONValue(deadline), "clock": .string(compositor.clock.mode.rawValue),
        ]
    }

    /// `decide`: the answer to question `question` (an object its kind takes, or "builtin").
    /// Replies with `applied` once it is applied, which waits for the earlier questions.
    func decide(_ request: ControlRequest, connection: ControlConnection) throws(ControlError) -> Reply? {
        let id = UInt64(try request.int("question", in: 1...Int(Int32.max)))
        let delegates = server.delegates
        let question = try delegates.question(id, answerableBy: connection.number)
        guard let value = request.arguments["answer"], !value.isNull else {
            delegates.delegation.fallBack(id, reason: .invalid)
            delegates.logRefusal("question \(id) got no answer; the built-in policy decided")
            throw ControlError(.missingArgument, "missing argument \"answer\"")
        }
        let answer: PolicyAnswer
        do throws(ControlError) {
            answer = try PolicyWire.parseAnswer(value, for: question)
        } catch {
            delegates.delegation.fallBack(id, reason: .invalid)
            delegates.logRefusal("a malformed answer to question \(id) (\(error.message)); the built-in policy decided")
            throw error
        }
        let outcome: PolicyDelegation.Outcome
        do {
            outcome = try delegates.delegation.resolve(id, answer)
        } catch {
            throw ControlError(.failed, error.message)
        }
        switch outcome {
        case .applied(let applied):
            if !applied {
                delegates.logRefusal(
                    "the answer to \(question.kind.rawValue) question \(id) was refused by the model's rules; the built-in policy decided"
                )
            }
            return ["question": JSONValue(id), "applied": .bool(applied)]
        case .waiting:
            delegates.replyLater(to: id, request: request.id, connection: connection.number)
            return nil
        }
    }
}
