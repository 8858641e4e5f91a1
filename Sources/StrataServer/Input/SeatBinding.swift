import CStrataServerGlue
import CWaylandServer

/// One client's wl_seat resource: makes its wl_pointer, wl_keyboard and wl_touch objects. A
/// client may bind the seat several times; every binding's devices get the events.
final class SeatBinding: ResourceObject {
    unowned let seat: Seat

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: strata_wl_seat_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let capabilities =
        WL_SEAT_CAPABILITY_POINTER.rawValue | WL_SEAT_CAPABILITY_KEYBOARD.rawValue
        | WL_SEAT_CAPABILITY_TOUCH.rawValue

    func sendState() {
        wl_seat_send_capabilities(resource, Self.capabilities)
        if version >= 2 { wl_seat_send_name(resource, seat.name) }
    }

    override func resourceDidDestroy() {
        seat.bindings.removeAll { $0 === self }
        seat.forgetClientIfUnused(client)
    }

    static let implementation = makeImplementation(
        wl_seat_interface(
            get_pointer: { _, resource, id in
                handle(resource, as: SeatBinding.self) {
                    $0.seat.pointer.createBinding(client: $0.client, version: $0.version, id: id)
                }
            },
            get_keyboard: { _, resource, id in
                handle(resource, as: SeatBinding.self) {
                    $0.seat.keyboard.createBinding(client: $0.client, version: $0.version, id: id)
                }
            },
            get_touch: { _, resource, id in
                handle(resource, as: SeatBinding.self) {
                    $0.seat.touch.createBinding(client: $0.client, version: $0.version, id: id)
                }
            },
            release: destroyRequest))
}
