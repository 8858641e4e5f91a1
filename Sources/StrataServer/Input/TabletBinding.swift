import CStrataServerGlue
import CWaylandServer

/// zwp_tablet_v2: the seat's (virtual) tablet as one client's tablet seat announced it. Made by
/// Strata (a server-side new_id); it only describes the tablet and is named by its tools'
/// proximity_in.
final class TabletBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32) {
        super.init(
            client: client, interface: strata_zwp_tablet_v2_interface(), version: version, id: 0,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(zwp_tablet_v2_interface(destroy: destroyRequest))
}
