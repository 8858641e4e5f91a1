import CStrataServerGlue
import CWaylandServer
import StrataModel

/// One binding of zwlr_layer_shell_v1: makes layer surfaces.
final class LayerShellBinding: ResourceObject {
    private(set) weak var shell: LayerShell?

    init?(shell: LayerShell, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.shell = shell
        super.init(
            client: client, interface: strata_zwlr_layer_shell_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    private static func error(_ code: zwlr_layer_shell_v1_error, _ message: String) -> ProtocolError {
        ProtocolError(code: code.rawValue, message)
    }

    func handleGetLayerSurfaceRequest(
        client: OpaquePointer, id: UInt32, surface: Surface, output: OpaquePointer?,
        layer: UInt32, namespace: String
    ) throws(ProtocolError) {
        guard let shell else { return }
        if surface.role != nil || surface.roleName != nil {
            throw Self.error(
                ZWLR_LAYER_SHELL_V1_ERROR_ROLE,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName ?? "?")")
        }
        guard layer <= ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue else {
            throw Self.error(
                ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER, "layer \(layer) is not a zwlr_layer_shell_v1.layer")
        }
        if surface.hasContent || (surface.pending.bufferChanged && surface.pending.buffer.resource != nil) {
            throw Self.error(
                ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED,
                "the wl_surface already has a buffer attached or committed")
        }
        // A null output, or one whose screen is gone, means the main screen.
        let screen =
            ResourceObject.from(output, as: OutputBinding.self)?.output?.screen ?? shell.compositor.windows.mainScreen
        guard
            let layerSurface = LayerSurface(
                shell: shell, surface: surface, screen: screen, layer: layer, namespace: namespace,
                client: client, version: version, id: id)
        else { return }
        shell.surfaces.append(layerSurface)
        if screen == nil { layerSurface.screenDidDisconnect() }
    }

    static let implementation = makeImplementation(
        zwlr_layer_shell_v1_interface(
            get_layer_surface: { client, resource, id, surface, output, layer, namespace in
                handle(resource, as: LayerShellBinding.self) { binding throws(ProtocolError) in
                    guard let client, let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try binding.handleGetLayerSurfaceRequest(
                        client: client, id: id, surface: surface, output: output, layer: layer,
                        namespace: namespace.map { String(cString: $0) } ?? "")
                }
            },
            destroy: destroyRequest))
}
