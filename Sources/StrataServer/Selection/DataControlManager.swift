import CStrataServerGlue
import CWaylandServer

/// zwlr_data_control_manager_v1 v2 and ext_data_control_manager_v1 v1 (privileged: a client
/// that may read and set the clipboard without the keyboard focus sees every copy): make data
/// control sources and devices of the manager's flavor.
final class DataControlManager: ResourceObject {
    unowned let seat: Seat
    let flavor: DataControlFlavor

    static func install(on compositor: Compositor, flavor: DataControlFlavor) -> Global? {
        Global(display: compositor.display, interface: flavor.managerInterface, version: flavor.managerVersion) {
            [unowned compositor] client, version, id in
            _ = DataControlManager(seat: compositor.seat, flavor: flavor, client: client, version: version, id: id)
        }
    }

    init?(seat: Seat, flavor: DataControlFlavor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.managerInterface, version: version, id: id,
            implementation: flavor == .wlr ? Self.wlrImplementation : Self.extImplementation)
    }

    private static let createSource: @convention(c) (OpaquePointer?, OpaquePointer?, UInt32) -> Void = {
        _, resource, id in
        handle(resource, as: DataControlManager.self) { manager in
            _ = DataControlSource(flavor: manager.flavor, client: manager.client, version: manager.version, id: id)
        }
    }

    private static let getDevice: @convention(c) (OpaquePointer?, OpaquePointer?, UInt32, OpaquePointer?) -> Void = {
        _, resource, id, _ in
        // One seat: the seat argument can only name it.
        handle(resource, as: DataControlManager.self) { manager throws(ProtocolError) in
            try DataControlDevice.make(
                seat: manager.seat, flavor: manager.flavor, client: manager.client, version: manager.version, id: id)
        }
    }

    static let wlrImplementation = makeImplementation(
        zwlr_data_control_manager_v1_interface(
            create_data_source: createSource, get_data_device: getDevice, destroy: destroyRequest))
    static let extImplementation = makeImplementation(
        ext_data_control_manager_v1_interface(
            create_data_source: createSource, get_data_device: getDevice, destroy: destroyRequest))
}
