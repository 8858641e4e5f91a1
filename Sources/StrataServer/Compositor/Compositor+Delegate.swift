import StrataModel

extension Compositor {
    /// Asks the stacking delegate (`PolicyDelegation`) about a client's level request; true when
    /// it was asked: `answered` gets the level the applied answer set (nil: denied) once it is
    /// decided. False when no delegate holds stacking or it is busy: the level rules decide now.
    func askLevelDelegate(
        _ requested: WindowLevel, for window: Window, request: String, requester: String,
        answered: @escaping (WindowLevel?) -> Void
    ) -> Bool {
        guard policyDelegation.decisions.contains(.stacking) else { return false }
        var builtin: WindowLevel?
        if case .granted(let level) = levelRules.decide(requested: requested, appID: window.appID) { builtin = level }
        let cause = ChangeCause(.focusRequest, request: request, requester: requester, requestedAt: clock.nanoseconds)
        return policyDelegation.ask(
            .level, window: window.id, cause: cause, builtin: .level(builtin), builtinName: "level-rules"
        ) { question in
            question.requestedLevel = requested
            question.completion = { applied in
                if case .level(let level)? = applied { answered(level) } else { answered(nil) }
            }
        }
    }
}
