import CStrataServerGlue
import CWaylandServer

/// wl_data_device_manager v3: makes data sources and the data device of the seat.
final class DataDeviceManager: ResourceObject {
    static let version: UInt32 = 3
    unowned let seat: Seat

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wl_data_device_manager_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = DataDeviceManager(seat: compositor.seat, client: client, version: version, id: id)
        }
    }

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: strata_wl_data_device_manager_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wl_data_device_manager_interface(
            create_data_source: { _, resource, id in
                handle(resource, as: DataDeviceManager.self) { manager in
                    _ = DataSource(seat: manager.seat, client: manager.client, version: manager.version, id: id)
                }
            },
            get_data_device: { _, resource, id, _ in
                // One seat: the seat argument can only name it.
                handle(resource, as: DataDeviceManager.self) { manager in
                    guard
                        let device = DataDevice(
                            seat: manager.seat, client: manager.client, version: manager.version, id: id)
                    else { return }
                    manager.seat.clipboard.deviceDidAppear(device)
                }
            }))
}
