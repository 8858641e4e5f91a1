import CStrataServerGlue
import CWaylandServer

/// wl_compositor v5: makes surfaces and regions.
enum CompositorGlobal {
    static let version: UInt32 = 5

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wl_compositor_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = CompositorBinding(compositor: compositor, client: client, version: version, id: id)
        }
    }
}

final class CompositorBinding: ResourceObject {
    unowned let compositor: Compositor

    init?(compositor: Compositor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.compositor = compositor
        super.init(
            client: client, interface: strata_wl_compositor_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wl_compositor_interface(
            create_surface: { client, resource, id in
                handle(resource, as: CompositorBinding.self) { binding in
                    guard let client else { return }
                    _ = Surface(compositor: binding.compositor, client: client, version: binding.version, id: id)
                }
            },
            create_region: { client, resource, id in
                handle(resource, as: CompositorBinding.self) { binding in
                    guard let client else { return }
                    _ = Region(client: client, version: 1, id: id)
                }
            }))
}
