/// How strictly the xdg_surface initial handshake is enforced (docs/xdg-shell.md).
///
/// The protocol asks a client to give its surface a role, commit without a buffer, receive the
/// initial configure, acknowledge it, and only then attach a buffer.
public enum XdgHandshake: Sendable {
    /// Any buffer before the initial configure was acknowledged is `unconfigured_buffer` (the
    /// spec; weston and wlroots do the same). The default.
    case strict
    /// A toplevel or popup may commit its first buffer before the initial configure or before
    /// acknowledging it: the commit sends the initial configure if it was not sent yet and maps
    /// the surface (Mir does the same). Attaching a buffer to an xdg_surface that has no role
    /// object yet stays an error. WLCS 1.5's surface helpers need this: they attach the first
    /// buffer without waiting for the configure (fixed upstream in wlcs 1.8.1).
    case lenient
}
