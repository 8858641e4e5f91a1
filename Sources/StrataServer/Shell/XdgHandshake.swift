/// How strictly the initial handshake of xdg_surface and zwlr_layer_surface_v1 is enforced
/// (docs/xdg-shell.md).
///
/// Both protocols ask a client to give its surface a role, commit without a buffer, receive the
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
    ///
    /// The same holds for a layer surface: a first commit with a buffer gets its configure and
    /// maps at once, and a buffer before the ack maps too (Mir's behaviour). WLCS's layer-shell
    /// helpers (`SurfaceOnLayer`, `LayerV1PopupManager`) attach the first buffer without waiting
    /// for the configure, in 1.5 and still upstream.
    case lenient
}
