/// How a client's connection reached Strata: fixed when the connection is made (`Display.createClient`,
/// a security context's listener), read by the global filters, never guessed later from the
/// process behind the socket.
public enum ClientOrigin: Equatable, Sendable {
    /// Accepted on the public socket (WAYLAND_DISPLAY): an ordinary client.
    case socket
    /// The server end of a socket pair Strata made for a process it started (the command after
    /// `--`, `strata-ctl exec`), handed to it as WAYLAND_SOCKET.
    case startedByStrata
    /// Accepted on the listening socket of a committed wp_security_context_v1: a sandboxed
    /// client, with the metadata its sandbox engine gave.
    case sandboxed(SecurityContextMetadata)

    public var isSandboxed: Bool {
        if case .sandboxed = self { return true }
        return false
    }
}
