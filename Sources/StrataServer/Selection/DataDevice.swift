import CStrataServerGlue
import CWaylandServer

/// wl_data_device: a client's access to the seat's selection (copy and paste) and to drag and
/// drop. The seat sends the selection to the keyboard focus client's devices when the focus or
/// the selection changes; a drag (`Drag`) sends enter/motion/leave/drop to the device of the
/// client under it.
final class DataDevice: ResourceObject, SelectionDevice {
    unowned let seat: Seat

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: strata_wl_data_device_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        seat.drag?.deviceWillDestroy(self)
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

    static let implementation = makeImplementation(
        wl_data_device_interface(
            start_drag: { _, resource, source, origin, icon, serial in
                handle(resource, as: DataDevice.self) {
                    try $0.handleStartDragRequest(source: source, origin: origin, icon: icon, serial: serial)
                }
            },
            set_selection: { _, resource, source, serial in
                handle(resource, as: DataDevice.self) {
                    try $0.handleSetSelectionRequest(source: source, serial: serial)
                }
            },
            release: destroyRequest))

    func handleSetSelectionRequest(source sourceResource: OpaquePointer?, serial: UInt32) throws(ProtocolError) {
        let source = ResourceObject.from(sourceResource, as: DataSource.self)
        if let source {
            try Self.use(source)
            guard source.dndActions == nil else {
                throw ProtocolError(
                    on: source.resource, code: WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                    "a drag-and-drop source (set_actions) cannot be the selection")
            }
        }
        seat.clipboard.set(source, client: client, serial: serial)
    }

    /// start_drag: the icon gets its role (another role: the role error), the source is used
    /// (used before: used_source), then the seat begins the drag if the serial is the press of
    /// the implicit grab on `origin`, or refuses it by cancelling the source.
    func handleStartDragRequest(
        source sourceResource: OpaquePointer?, origin: OpaquePointer?, icon: OpaquePointer?, serial: UInt32
    ) throws(ProtocolError) {
        let iconSurface = ResourceObject.from(icon, as: Surface.self)
        if let iconSurface, let role = iconSurface.roleName, role != DragIconRole.roleName {
            throw ProtocolError(
                code: WL_DATA_DEVICE_ERROR_ROLE.rawValue,
                "start_drag: the icon wl_surface@\(wl_resource_get_id(iconSurface.resource)) already has the role \(role)"
            )
        }
        let source = ResourceObject.from(sourceResource, as: DataSource.self)
        if let source { try Self.use(source) }
        if let iconSurface, iconSurface.role == nil {
            let role = DragIconRole(seat: seat)
            if iconSurface.setRole(role) { iconRole = role }
        }
        guard let originSurface = ResourceObject.from(origin, as: Surface.self), !originSurface.isDestroyed else {
            source?.cancel()
            return
        }
        seat.startDrag(client: client, source: source, origin: originSurface, icon: iconSurface, serial: serial)
    }

    /// The role of the last icon this device gave one (a role object lives while its holder does).
    private var iconRole: DragIconRole?

    /// wl_data_device.error.used_source (wayland 1.23; the headers here are older).
    static let usedSourceError: UInt32 = 1

    /// Marks a source used; a second use is the device's used_source error.
    private static func use(_ source: DataSource) throws(ProtocolError) {
        guard !source.isUsed else {
            throw ProtocolError(
                code: usedSourceError,
                "wl_data_source@\(wl_resource_get_id(source.resource)) was already used")
        }
        source.isUsed = true
    }
}
