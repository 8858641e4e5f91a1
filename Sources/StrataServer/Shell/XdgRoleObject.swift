/// What an xdg_surface's role object (xdg_toplevel, xdg_popup) does for it. The xdg_surface
/// owns the configure/ack handshake, the window geometry and the mapped state; it calls these
/// hooks at the points the protocol defines.
protocol XdgRoleObject: AnyObject {
    var isDestroyed: Bool { get }
    /// Checks the role's double-buffered state before a commit is applied.
    func roleWillCommit() throws(ProtocolError)
    /// Sends the role's events of the initial configure sequence, ending with
    /// `XdgSurface.sendConfigure()` (the first commit after the role was given).
    func sendInitialConfigure()
    /// The client acknowledged `serial` (one the role recorded from `sendConfigure()`).
    func didAckConfigure(_ serial: UInt32)
    /// A commit was applied: the last acknowledged configuration becomes current.
    func didCommit()
    /// The first commit with a buffer after the initial configure was acknowledged.
    func didMap()
    /// A commit without a buffer: the surface is unmapped and must redo the initial configure.
    func didUnmap()
    /// Where the surface hangs in the scene while mapped (`XdgSurface.updateAnchor`).
    var anchor: SurfaceAnchor? { get }
    /// The xdg_surface or its wl_surface died first: show nothing from now on.
    func xdgSurfaceDidGoAway()
}
