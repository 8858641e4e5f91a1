import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_device_manager_v1 v1 and gtk_primary_selection_device_manager v1: make
/// primary selection sources and the seat's primary selection devices, of the manager's flavor.
final class PrimarySelectionDeviceManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let seat: Seat
    let flavor: PrimarySelectionFlavor

    static func install(on compositor: Compositor, flavor: PrimarySelectionFlavor = .zwp) -> Global? {
        Global(display: compositor.display, interface: flavor.managerInterface, version: version) {
            [unowned compositor] client, version, id in
            _ = PrimarySelectionDeviceManager(
                seat: compositor.seat, flavor: flavor, client: client, version: version, id: id)
        }
    }

    init?(seat: Seat, flavor: PrimarySelectionFlavor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.managerInterface, version: version, id: id,
            implementation: flavor == .zwp ? Self.zwpImplementation : Self.gtkImplementation)
    }

    private static let createSource: @convention(c) (OpaquePointer?, OpaquePointer?, UInt32) -> Void = {
        _, resource, id in
        handle(resource, as: PrimarySelectionDeviceManager.self) { manager in
            _ = PrimarySelectionSource(
                selection: manager.seat.primarySelection, flavor: manager.flavor, client: manager.client, id: id)
        }
    }

    private static let getDevice: @convention(c) (OpaquePointer?, OpaquePointer?, UInt32, OpaquePointer?) -> Void = {
        _, resource, id, _ in
        // One seat: the seat argument can only name it.
        handle(resource, as: PrimarySelectionDeviceManager.self) { manager in
            let selection = manager.seat.primarySelection
            guard
                let device = PrimarySelectionDevice(
                    selection: selection, flavor: manager.flavor, client: manager.client, id: id)
            else { return }
            selection.deviceDidAppear(device)
        }
    }

    static let zwpImplementation = makeImplementation(
        zwp_primary_selection_device_manager_v1_interface(
            create_source: createSource, get_device: getDevice, destroy: destroyRequest))
    static let gtkImplementation = makeImplementation(
        gtk_primary_selection_device_manager_interface(
            create_source: createSource, get_device: getDevice, destroy: destroyRequest))
}
