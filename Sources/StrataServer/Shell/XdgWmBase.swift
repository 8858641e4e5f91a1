import CStrataServerGlue
import CWaylandServer

/// xdg_wm_base (or zxdg_shell_v6, by `flavor`): makes positioners and xdg_surfaces, pings the
/// client, and keeps the client's chain of grabbing popups (the topmost is last).
final class XdgWmBase: ResourceObject {
    unowned let compositor: Compositor
    let flavor: XdgShellFlavor
    /// The xdg_surfaces made through this binding and still alive.
    private var surfaces: [Weak<XdgSurface>] = []
    /// Popups holding an explicit grab, bottom to top.
    var grabChain: [XdgPopup] = []
    /// The serial of the ping waiting for its pong, if any.
    private(set) var pendingPingSerial: UInt32?

    init?(compositor: Compositor, flavor: XdgShellFlavor = .stable, client: OpaquePointer, version: UInt32, id: UInt32)
    {
        self.compositor = compositor
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.wmBaseInterface, version: version, id: id,
            implementation: Self.implementation)
    }

    var hasLiveSurfaces: Bool {
        surfaces.removeAll { $0.value == nil || $0.value?.isDestroyed == true }
        return !surfaces.isEmpty
    }

    /// Sends a ping; the client answers with a pong carrying `serial`. Returns the serial.
    @discardableResult
    func ping() -> UInt32? {
        guard !isDestroyed else { return nil }
        let serial = compositor.display.nextSerial()
        pendingPingSerial = serial
        switch flavor {
        case .stable: xdg_wm_base_send_ping(resource, serial)
        case .v6: zxdg_shell_v6_send_ping(resource, serial)
        }
        return serial
    }

    /// Whether the last ping was answered (true when none was sent).
    var isResponsive: Bool { pendingPingSerial == nil }

    /// A ProtocolError on this xdg_wm_base (the enum `xdg_wm_base.error`; zxdg_shell_v6.error has
    /// the same values).
    func error(_ code: xdg_wm_base_error, _ message: String) -> ProtocolError {
        ProtocolError(on: isDestroyed ? nil : resource, code: code.rawValue, message)
    }

    static let implementation = makeImplementation(
        xdg_wm_base_interface(
            destroy: { _, resource in
                handle(resource, as: XdgWmBase.self) { base throws(ProtocolError) in
                    guard !base.hasLiveSurfaces else {
                        throw base.error(
                            XDG_WM_BASE_ERROR_DEFUNCT_SURFACES,
                            "xdg_wm_base destroyed while xdg_surfaces made from it are alive")
                    }
                    base.destroyResource()
                }
            },
            create_positioner: { client, resource, id in
                handle(resource, as: XdgWmBase.self) { base in
                    guard let client else { return }
                    _ = XdgPositioner(flavor: base.flavor, client: client, version: base.version, id: id)
                }
            },
            get_xdg_surface: { client, resource, id, surface in
                handle(resource, as: XdgWmBase.self) { base throws(ProtocolError) in
                    guard let client, let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try base.handleGetXdgSurfaceRequest(client: client, id: id, surface: surface)
                }
            },
            pong: { _, resource, serial in
                handle(resource, as: XdgWmBase.self) { base in
                    // A pong with another serial is ignored (it may answer an older ping).
                    if base.pendingPingSerial == serial { base.pendingPingSerial = nil }
                }
            }))

    func handleGetXdgSurfaceRequest(client: OpaquePointer, id: UInt32, surface: Surface) throws(ProtocolError) {
        if surface.role != nil || (surface.roleName != nil && surface.roleName != flavor.surfaceRoleName) {
            throw error(
                XDG_WM_BASE_ERROR_ROLE,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName ?? "?")")
        }
        // A surface with a buffer is in no state to become an xdg_surface (as Mir; WLCS checks
        // for invalid_surface_state on the xdg_wm_base).
        if surface.hasContent || (surface.pending.bufferChanged && surface.pending.buffer.resource != nil) {
            throw error(
                XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
                "get_xdg_surface for a wl_surface that already has a buffer attached or committed")
        }
        guard
            let xdgSurface = XdgSurface(
                wmBase: self, flavor: flavor, client: client, version: version, id: id, surface: surface)
        else { return }
        surfaces.append(Weak(xdgSurface))
    }
}
