import CStrataServerGlue
import CWaylandServer

/// zxdg_output_manager_v1 v3: each screen's logical position and size in the global layout,
/// its name and description. Version 3 ends each batch with wl_output.done (older: xdg_output.done).
enum XdgOutputManager {
    static let version: UInt32 = 3

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zxdg_output_manager_v1_interface(), version: version) {
            client, version, id in
            _ = XdgOutputManagerBinding(client: client, version: version, id: id)
        }
    }
}

final class XdgOutputManagerBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_zxdg_output_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zxdg_output_manager_v1_interface(
            destroy: destroyRequest,
            get_xdg_output: { client, resource, id, output in
                handle(resource, as: XdgOutputManagerBinding.self) { manager in
                    guard let client else { return }
                    // An output whose screen is gone still gets an (inert) xdg_output.
                    let binding = ResourceObject.from(output, as: OutputBinding.self)
                    guard let xdgOutput = XdgOutput(client: client, version: manager.version, id: id, output: binding)
                    else { return }
                    xdgOutput.sendState()
                }
            }))
}

/// zxdg_output_v1 for one wl_output binding; inert once its screen is gone.
final class XdgOutput: ResourceObject {
    private(set) weak var output: OutputBinding?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, output: OutputBinding?) {
        self.output = output
        super.init(
            client: client, interface: strata_zxdg_output_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
        output?.xdgOutputs.append(Weak(self))
    }

    static let implementation = makeImplementation(zxdg_output_v1_interface(destroy: destroyRequest))

    /// Sends the logical geometry (and name, description), then xdg_output.done before v3;
    /// from v3 on wl_output.done ends the batch, sent here when `endingBatch` (the caller sends
    /// it otherwise).
    func sendState(endingBatch: Bool = true) {
        guard !isDestroyed, let output, let screenOutput = output.output else { return }
        let bounds = screenOutput.screen.bounds
        zxdg_output_v1_send_logical_position(resource, Int32(clamping: bounds.x), Int32(clamping: bounds.y))
        zxdg_output_v1_send_logical_size(resource, Int32(clamping: bounds.width), Int32(clamping: bounds.height))
        if version >= 2 {
            zxdg_output_v1_send_name(resource, screenOutput.screen.name)
            zxdg_output_v1_send_description(resource, output.descriptionText)
        }
        if version < 3 {
            zxdg_output_v1_send_done(resource)
        } else if endingBatch {
            output.sendDone()
        }
    }
}
