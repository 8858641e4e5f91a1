import CStrataServerGlue
import CWaylandServer

/// zwp_tablet_manager_v2 v1: graphics tablets and their tools (`Tablets`). Strata's one tablet
/// is a virtual one, made at the first tablet input of the seat's injection API (the control
/// socket, a test, a backend); it has tools but no pad.
enum TabletManager {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_tablet_manager_v2_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = TabletManagerBinding(seat: compositor.seat, client: client, version: version, id: id)
        }
    }
}

/// One client's zwp_tablet_manager_v2.
final class TabletManagerBinding: ResourceObject {
    private unowned let seat: Seat

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: strata_zwp_tablet_manager_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// get_tablet_seat: the seat's tablets and tools are announced at once on the new object.
    /// A wl_seat already released still names the one seat.
    func handleGetTabletSeatRequest(id: UInt32) throws(ProtocolError) {
        let tablets = seat.tablets
        guard tablets.hasRoom(for: client) else {
            throw .noMemory("more than \(ClientBudget.maxTabletSeatsPerClient) tablet seats", client: client)
        }
        guard let tabletSeat = TabletSeatBinding(tablets: tablets, client: client, version: version, id: id) else {
            return
        }
        tablets.add(tabletSeat)
    }

    static let implementation = makeImplementation(
        zwp_tablet_manager_v2_interface(
            get_tablet_seat: { _, resource, id, _ in
                handle(resource, as: TabletManagerBinding.self) { try $0.handleGetTabletSeatRequest(id: id) }
            },
            destroy: destroyRequest))
}
