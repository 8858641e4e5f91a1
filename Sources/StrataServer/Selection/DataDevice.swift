import CStrataServerGlue
import CWaylandServer

/// wl_data_device: a client's access to the seat's selection (copy and paste). The seat sends the
/// selection to the keyboard focus client's devices when the focus or the selection changes.
///
/// Drag-and-drop is not implemented: start_drag is checked (icon role, source reuse) and then
/// refused by cancelling the source, which clients treat as a drag that ended without a drop.
final class DataDevice: ResourceObject, SelectionDevice {
    unowned let seat: Seat
    static let iconRoleName = "wl_data_device-icon"

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(client: client, interface: strata_wl_data_device_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        seat.clipboard.deviceDidDisappear(self)
    }

    /// data_offer + offer(mime)… + selection(offer), or selection(null).
    func sendSelection(_ source: SelectionSource?) {
        guard !isDestroyed else { return }
        if let source, source.isLive, let offer = DataOffer.announce(source, on: self) {
            wl_data_device_send_selection(resource, offer.resource)
        } else {
            wl_data_device_send_selection(resource, nil)
        }
    }

    static let implementation = makeImplementation(wl_data_device_interface(
        start_drag: { _, resource, source, origin, icon, serial in
            handle(resource, as: DataDevice.self) { try $0.handleStartDragRequest(source: source, origin: origin, icon: icon, serial: serial) }
        },
        set_selection: { _, resource, source, serial in
            handle(resource, as: DataDevice.self) { try $0.handleSetSelectionRequest(source: source, serial: serial) }
        },
        release: destroyRequest))

    func handleSetSelectionRequest(source sourceResource: OpaquePointer?, serial: UInt32) throws(ProtocolError) {
        let source = ResourceObject.from(sourceResource, as: DataSource.self)
        if let source {
            try Self.use(source)
            guard source.dndActions == nil else {
                throw ProtocolError(on: source.resource, code: WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                                    "a drag-and-drop source (set_actions) cannot be the selection")
            }
        }
        seat.clipboard.set(source, client: client, serial: serial)
    }

    func handleStartDragRequest(source sourceResource: OpaquePointer?, origin: OpaquePointer?, icon: OpaquePointer?, serial: UInt32) throws(ProtocolError) {
        if let icon = ResourceObject.from(icon, as: Surface.self), let role = icon.roleName, role != Self.iconRoleName {
            throw ProtocolError(code: WL_DATA_DEVICE_ERROR_ROLE.rawValue,
                                "start_drag: the icon wl_surface@\(wl_resource_get_id(icon.resource)) already has the role \(role)")
        }
        guard let source = ResourceObject.from(sourceResource, as: DataSource.self) else { return }
        try Self.use(source)
        source.cancel()
    }

    /// Marks a source used; a second use is an invalid_source error on the source.
    private static func use(_ source: DataSource) throws(ProtocolError) {
        guard !source.isUsed else {
            throw ProtocolError(on: source.resource, code: WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                                "wl_data_source@\(wl_resource_get_id(source.resource)) was already used")
        }
        source.isUsed = true
    }
}
