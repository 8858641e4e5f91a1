import CStrataServerGlue
import CWaylandServer
import StrataModel

/// ext_image_capture_source_v1: what an image copy capture session reads, a screen (from a
/// wl_output) or one mapping of a toplevel (from an ext_foreign_toplevel_handle_v1). Made for
/// a gone screen or a closed handle, it names nothing: sessions of it stop at once.
final class ImageCaptureSource: ResourceObject {
    enum Target {
        case output(ScreenID)
        /// A window while it keeps the mapping (identifier) the handle was made for.
        case toplevel(WindowID, identifier: String)
        case nothing
    }

    let target: Target

    init?(target: Target, client: OpaquePointer, id: UInt32) {
        self.target = target
        super.init(
            client: client, interface: strata_ext_image_capture_source_v1_interface(), version: 1, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(ext_image_capture_source_v1_interface(destroy: destroyRequest))
}

/// ext_output_image_capture_source_manager_v1 and ext_foreign_toplevel_image_capture_source_manager_v1
/// (both v1, privileged): make capture sources of wl_outputs and of toplevel handles.
final class ImageCaptureSourceManager: ResourceObject {
    enum Kind { case output, toplevel }

    unowned let compositor: Compositor

    static func install(on compositor: Compositor, kind: Kind) -> Global? {
        let bind: Global.Bind = { [unowned compositor] client, version, id in
            _ = ImageCaptureSourceManager(compositor: compositor, kind: kind, client: client, version: version, id: id)
        }
        if kind == .output {
            return Global(
                display: compositor.display, interface: strata_ext_output_image_capture_source_manager_v1_interface(),
                version: 1, bind: bind)
        }
        return Global(
            display: compositor.display,
            interface: strata_ext_foreign_toplevel_image_capture_source_manager_v1_interface(),
            version: 1, bind: bind)
    }

    init?(compositor: Compositor, kind: Kind, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        if kind == .output {
            super.init(
                client: client, interface: strata_ext_output_image_capture_source_manager_v1_interface(),
                version: version,
                id: id, implementation: Self.outputImplementation)
        } else {
            super.init(
                client: client, interface: strata_ext_foreign_toplevel_image_capture_source_manager_v1_interface(),
                version: version, id: id, implementation: Self.toplevelImplementation)
        }
    }

    static let outputImplementation = makeImplementation(
        ext_output_image_capture_source_manager_v1_interface(
            create_source: { _, resource, id, output in
                handle(resource, as: ImageCaptureSourceManager.self) { manager in
                    let screen = ResourceObject.from(output, as: OutputBinding.self)?.output?.screen.id
                    _ = ImageCaptureSource(
                        target: screen.map { .output($0) } ?? .nothing, client: manager.client, id: id)
                }
            },
            destroy: destroyRequest))

    static let toplevelImplementation = makeImplementation(
        ext_foreign_toplevel_image_capture_source_manager_v1_interface(
            create_source: { _, resource, id, toplevelHandle in
                handle(resource, as: ImageCaptureSourceManager.self) { manager in
                    var target = ImageCaptureSource.Target.nothing
                    if let handle = ResourceObject.from(toplevelHandle, as: ForeignToplevelListHandle.self),
                        handle.window != nil,
                        let identifier = manager.compositor.toplevelList.identifier(of: handle.windowID)
                    {
                        target = .toplevel(handle.windowID, identifier: identifier)
                    }
                    _ = ImageCaptureSource(target: target, client: manager.client, id: id)
                }
            },
            destroy: destroyRequest))
}
