import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_device_manager_v1 v1: makes primary selection sources and the seat's
/// primary selection device.
final class PrimarySelectionDeviceManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let seat: Seat

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_primary_selection_device_manager_v1_interface(), version: version) { [unowned compositor] client, version, id in
            _ = PrimarySelectionDeviceManager(seat: compositor.seat, client: client, version: version, id: id)
        }
    }

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, interface: strata_zwp_primary_selection_device_manager_v1_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    static let implementation = makeImplementation(zwp_primary_selection_device_manager_v1_interface(
        create_source: { _, resource, id in
            handle(resource, as: PrimarySelectionDeviceManager.self) { manager in
                _ = PrimarySelectionSource(selection: manager.seat.primarySelection, client: manager.client, id: id)
            }
        },
        get_device: { _, resource, id, _ in
            // One seat: the seat argument can only name it.
            handle(resource, as: PrimarySelectionDeviceManager.self) { manager in
                let selection = manager.seat.primarySelection
                guard let device = PrimarySelectionDevice(selection: selection, client: manager.client, id: id) else { return }
                selection.deviceDidAppear(device)
            }
        },
        destroy: destroyRequest))
}
