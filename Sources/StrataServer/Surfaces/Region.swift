import CStrataServerGlue
import CWaylandServer
import StrataRender

/// wl_region: a client-built set of rectangles, copied into surfaces when used. Added
/// rectangles are collected and merged into the region a batch at a time (pixman sorts a batch
/// once), not one union of the whole region per request; the region holds at most
/// `TreeLimits.maxRegionBoxes` boxes, so no request costs more than that bound.
final class Region: ResourceObject {
    private let built = PixmanRegion()
    /// Added rectangles not yet merged into `built`.
    private var pendingBoxes: [PixmanRegion.Box] = []
    /// Rectangles merged per batch: big enough that a flood of adds costs one union per batch,
    /// small enough that the region never overshoots its box limit by much.
    static let batchSize = 64

    /// The region, with every rectangle added so far (a region past its box limit, found at
    /// this last batch, is the client's wl_display.no_memory, and empty).
    var region: PixmanRegion {
        flushAndCheck()
        return built
    }

    static let implementation = makeImplementation(
        wl_region_interface(
            destroy: destroyRequest,
            add: { _, resource, x, y, width, height in
                handle(resource, as: Region.self) { $0.handleAddRequest(x: x, y: y, width: width, height: height) }
            },
            subtract: { _, resource, x, y, width, height in
                handle(resource, as: Region.self) { $0.handleSubtractRequest(x: x, y: y, width: width, height: height) }
            }))

    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wl_region_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleAddRequest(x: Int32, y: Int32, width: Int32, height: Int32) {
        // Clamped as PixmanRegion.addRect clamps (both edges within ±Coordinate.limit).
        guard let r = PixmanRegion.clampedRect(x: x, y: y, width: width, height: height) else { return }
        pendingBoxes.append(PixmanRegion.Box(x1: r.x, y1: r.y, x2: r.x + Int32(r.width), y2: r.y + Int32(r.height)))
        if pendingBoxes.count >= Self.batchSize { flushAndCheck() }
    }

    func handleSubtractRequest(x: Int32, y: Int32, width: Int32, height: Int32) {
        flush()
        built.subtractRect(x: x, y: y, width: width, height: height)
        checkSize()
    }

    private func flush() {
        guard !pendingBoxes.isEmpty else { return }
        built.addBoxes(pendingBoxes)
        pendingBoxes.removeAll(keepingCapacity: true)
    }

    private func flushAndCheck() {
        flush()
        checkSize()
    }

    /// Past the box limit the client is out of its budget: wl_display.no_memory.
    private func checkSize() {
        guard built.boxCount > TreeLimits.maxRegionBoxes else { return }
        built.clear()
        wl_client_post_no_memory(client)
    }
}
