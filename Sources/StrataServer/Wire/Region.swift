import CStrataServerGlue
import CWaylandServer
import StrataRender

/// wl_region: a client-built set of rectangles, copied into surfaces when used.
final class Region: ResourceObject {
    let region = PixmanRegion()

    static let implementation = makeImplementation(wl_region_interface(
        destroy: destroyRequest,
        add: { _, resource, x, y, width, height in
            handle(resource, as: Region.self) { $0.region.addRect(x: x, y: y, width: width, height: height) }
        },
        subtract: { _, resource, x, y, width, height in
            handle(resource, as: Region.self) { $0.region.subtractRect(x: x, y: y, width: width, height: height) }
        }))

    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(client: client, interface: strata_wl_region_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }
}
