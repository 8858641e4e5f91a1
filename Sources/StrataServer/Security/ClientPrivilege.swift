/// Who may see the privileged globals (screencopy, output management, virtual input, foreign
/// toplevels, input methods). The answer depends only on the client's `ClientOrigin`, decided
/// once when its connection was made; a sandboxed client is never privileged.
public enum ClientPrivilege: Equatable, Sendable {
    /// Clients on a connection Strata made for a process it started (WAYLAND_SOCKET): the
    /// command after `--` and `strata-ctl exec`. The default.
    case startedByStrata
    /// Every client that is not sandboxed (`--allow-privileged`).
    case everyone
    /// No client (tests of the hiding; a locked-down session).
    case nobody

    /// Whether a client that connected as `origin` may see and bind the privileged globals.
    public func allows(_ origin: ClientOrigin) -> Bool {
        if origin.isSandboxed { return false }
        switch self {
        case .everyone: return true
        case .nobody: return false
        case .startedByStrata: return origin == .startedByStrata
        }
    }
}
