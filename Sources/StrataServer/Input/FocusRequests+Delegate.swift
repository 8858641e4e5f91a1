import StrataModel

extension FocusRequests {
    /// Asks the key delegate (`PolicyDelegation`) about a focus request the rule decided
    /// (`decision`, the built-in answer); true when it was asked: the answer makes the window key
    /// later (or not). False when no delegate holds key decisions, the window is hidden, or the
    /// delegate is busy: the rule decides now. An X window refused for now demands attention
    /// until it becomes key, as after a refusal.
    func askDelegate(_ decision: FocusRequestRule.Decision, request: String, window: Window, requester: String) -> Bool
    {
        let delegation = compositor.policyDelegation
        // A hidden (iconic) window is shown by its request: the show asks a map question.
        guard delegation.decisions.contains(.key), window.isVisible else { return false }
        let wire = request == "make_key" ? "strata_window_v1.make_key" : request
        // The caller's cause (its requester in the contract's words), else one made here.
        let cause =
            compositor.windows.currentCause
            ?? ChangeCause(
                .focusRequest, request: wire, requester: requester, requestedAt: compositor.clock.nanoseconds)
        return delegation.ask(
            .focusRequest, window: window.id, cause: cause, builtin: .grant(decision.isHonoured),
            builtinName: "focus-rule"
        ) { $0.rule = "\(decision)" }
    }
}
