import CStrataServerGlue
import CWaylandServer

/// Who draws a toplevel's title bar and borders. UIKit windows have none: by default Strata asks
/// clients for server-side decorations and draws none; `--client-side-decorations` lets them
/// decorate themselves.
public enum DecorationMode: Sendable {
    case serverSide
    case clientSide

    var wireValue: UInt32 {
        switch self {
        case .serverSide: return ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
        case .clientSide: return ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue
        }
    }
}

/// zxdg_decoration_manager_v1 v1: one zxdg_toplevel_decoration_v1 per xdg_toplevel.
enum DecorationManager {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zxdg_decoration_manager_v1_interface(), version: version)
        { [unowned compositor] client, version, id in
            _ = DecorationManagerBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class DecorationManagerBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_zxdg_decoration_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleGetToplevelDecorationRequest(id: UInt32, toplevel toplevelResource: OpaquePointer?) throws(ProtocolError)
    {
        guard let toplevel = ResourceObject.from(toplevelResource, as: XdgToplevel.self) else { return }
        guard toplevel.decoration == nil else {
            throw ProtocolError(
                code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                "the xdg_toplevel already has a zxdg_toplevel_decoration_v1")
        }
        if let surface = toplevel.xdgSurface?.surface,
            surface.hasContent || (surface.pending.bufferChanged && surface.pending.buffer.resource != nil)
        {
            throw ProtocolError(
                code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
                "the xdg_toplevel's surface already has a buffer")
        }
        // The resource holds the object; the toplevel only points at it.
        let decoration = ToplevelDecoration(
            client: client, version: version, id: id, toplevel: toplevel,
            mode: compositor.decorationMode)
        toplevel.decoration = decoration
        toplevel.sendConfigure()  // after the initial configure; before it, that one carries the mode
    }

    static let implementation = makeImplementation(
        zxdg_decoration_manager_v1_interface(
            destroy: destroyRequest,
            get_toplevel_decoration: { _, resource, id, toplevel in
                handle(resource, as: DecorationManagerBinding.self) {
                    try $0.handleGetToplevelDecorationRequest(id: id, toplevel: toplevel)
                }
            }))
}

/// zxdg_toplevel_decoration_v1: tells the client the compositor's mode in the toplevel's next
/// configure sequence. The client's preference (set_mode, unset_mode) is heard and answered with
/// the same mode: Strata's decoration policy is the command line's, not the client's.
final class ToplevelDecoration: ResourceObject {
    private(set) weak var toplevel: XdgToplevel?
    let mode: DecorationMode
    /// The mode goes out with the next configure sequence.
    private(set) var needsConfigure = true

    init?(client: OpaquePointer, version: UInt32, id: UInt32, toplevel: XdgToplevel, mode: DecorationMode) {
        self.toplevel = toplevel
        self.mode = mode
        super.init(
            client: client, interface: strata_zxdg_toplevel_decoration_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// Called by the toplevel's configure sequence, before xdg_surface.configure.
    func sendConfigureIfNeeded() {
        guard needsConfigure, !isDestroyed else { return }
        needsConfigure = false
        zxdg_toplevel_decoration_v1_send_configure(resource, mode.wireValue)
    }

    private func handleModeRequest() {
        needsConfigure = true
        toplevel?.sendConfigure()
    }

    override func resourceDidDestroy() {
        if let toplevel, toplevel.decoration === self { toplevel.decoration = nil }
    }

    static let implementation = makeImplementation(
        zxdg_toplevel_decoration_v1_interface(
            destroy: destroyRequest,
            set_mode: { _, resource, _ in
                handle(resource, as: ToplevelDecoration.self) { $0.handleModeRequest() }
            },
            unset_mode: { _, resource in
                handle(resource, as: ToplevelDecoration.self) { $0.handleModeRequest() }
            }))
}
