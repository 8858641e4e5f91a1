import CStrataServerGlue
import CWaylandServer

/// wp_single_pixel_buffer_manager_v1 v1: 1×1 wl_buffers of one colour. With wp_viewport's
/// destination they fill a surface of any size without a shm pool (GTK4's backgrounds).
enum SinglePixelBufferManager {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_wp_single_pixel_buffer_manager_v1_interface(),
            version: version
        ) { client, version, id in
            _ = SinglePixelBufferManagerBinding(client: client, version: version, id: id)
        }
    }
}

final class SinglePixelBufferManagerBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_single_pixel_buffer_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_single_pixel_buffer_manager_v1_interface(
            destroy: destroyRequest,
            create_u32_rgba_buffer: { client, resource, id, r, g, b, a in
                handle(resource, as: SinglePixelBufferManagerBinding.self) { _ in
                    guard let client else { return }
                    _ = SinglePixelBuffer(client: client, id: id, red: r, green: g, blue: b, alpha: a)
                }
            }))
}

/// A wl_buffer of one pixel: premultiplied 32-bit channels, kept as 8-bit premultiplied ARGB
/// (what pixman draws). A surface given one fills its texture with the colour.
final class SinglePixelBuffer: ResourceObject {
    let argb: UInt32

    init?(client: OpaquePointer, id: UInt32, red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) {
        argb = (alpha >> 24) << 24 | (red >> 24) << 16 | (green >> 24) << 8 | blue >> 24
        super.init(
            client: client, interface: strata_wl_buffer_interface(), version: 1, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(wl_buffer_interface(destroy: destroyRequest))
}
