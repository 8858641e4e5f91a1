/// The seat's primary selection (middle-click paste), kept apart from the clipboard and with the
/// same rules: set by the keyboard focus client (or with one of its recent input serials), the
/// replaced source cancelled, sent to the keyboard focus client's devices when either changes.
final class PrimarySelection {
    unowned let seat: Seat
    var devices: [PrimarySelectionDevice] = []
    private(set) var source: PrimarySelectionSource?
    /// The client that last received the selection (the keyboard focus client then).
    private var sentToClient: OpaquePointer?

    init(seat: Seat) { self.seat = seat }

    /// zwp_primary_selection_device_v1.set_selection from `client`.
    func set(_ newSource: PrimarySelectionSource?, client: OpaquePointer, serial: UInt32) {
        guard seat.keyboardFocus?.client == client || seat.isValidInputSerial(serial, client: client) else {
            newSource?.cancel()
            return
        }
        if let old = source, old !== newSource { old.cancel() }
        source = newSource
        sendToFocus(force: true)
    }

    /// The selection's source died: the selection is cleared.
    func sourceDidDestroy(_ dead: PrimarySelectionSource) {
        guard source === dead else { return }
        source = nil
        sendToFocus(force: true)
    }

    /// The keyboard focus client changed (or the selection did): its devices get a new offer.
    func sendToFocus(force: Bool = false) {
        let client = seat.keyboardFocus?.client
        guard force || client != sentToClient else { return }
        sentToClient = client
        guard let client else { return }
        for device in devices where device.client == client {
            device.sendSelection(source)
        }
    }

    /// A new device of the keyboard focus client learns the selection at once.
    func deviceDidAppear(_ device: PrimarySelectionDevice) {
        devices.append(device)
        if seat.keyboardFocus?.client == device.client {
            device.sendSelection(source)
        }
    }
}
