/// The decisions a policy delegate may take over (`PolicyDelegation`): which window is key,
/// where a new window goes, and which level a client's window gets.
public enum PolicyDecision: String, CaseIterable, Hashable, Sendable {
    case key, placement, stacking
}
