/// A client's data on offer as a selection: wl_data_source (the clipboard), and the primary
/// selection sources of zwp_primary_selection and gtk_primary_selection.
protocol SelectionSource: AnyObject {
    var mimeTypes: [String] { get }
    /// False once the source died or was cancelled: its offers transfer nothing.
    var isLive: Bool { get }
    /// Tells the client the source is no longer the selection (replaced, refused); once.
    func cancel()
    /// Asks the client to write `mimeType` data into `fd` (libwayland sends a duplicate).
    func send(mimeType: String, fd: Int32)
}

/// A client's access to a selection: wl_data_device, and the primary selection devices of both
/// protocols. It announces a source as an offer of its own protocol.
protocol SelectionDevice: AnyObject {
    var client: OpaquePointer { get }
    /// data_offer + offer(mime)… + selection(offer) for a live source, selection(null) otherwise.
    func sendSelection(_ source: SelectionSource?)
}

/// One selection of the seat (the clipboard, or the primary selection), whatever protocols its
/// sources and devices speak. The rules, the same for both:
/// - `set` is honoured from the keyboard focus client or with one of the client's recent input
///   serials; otherwise the new source is cancelled (no writes from the background);
/// - the replaced source is cancelled;
/// - the keyboard focus client's devices get a new offer when the focus or the selection
///   changes, and at once when they are made; other clients get nothing;
/// - a source that dies clears the selection; offers of a dead, cancelled or replaced source are
///   inert (`isCurrent` is false for them);
/// - data control (a privileged clipboard manager, wl-copy): `setFromControl` needs no focus
///   or serial, and every `SelectionWatcher` is told of every change, each through its own
///   `BackpressureSender`;
/// - isolation: an offer (at most `ClientBudget.maxMimeBytesPerSource` of events) is sent only
///   while the focus client's socket has room (`BackpressureSender`); otherwise it waits, and the
///   selection current when the socket drained is sent, once. Another client setting the selection again
///   and again therefore cannot fill a slow reader's socket, which would make libwayland drop it.
final class Selection {
    unowned let seat: Seat
    private(set) var source: SelectionSource?
    /// Devices of every client, in creation order (each removes itself in its destroy path).
    private var devices: [SelectionDevice] = []
    /// The data control devices, told of every change (each removes itself in its destroy path).
    private var watchers: [SelectionWatcher] = []
    /// The client that last received the selection (the keyboard focus client then).
    private var sentToClient: OpaquePointer?

    /// The focus client's offer when its socket had no room (`BackpressureSender`).
    private lazy var sender = BackpressureSender(display: seat.compositor.display)

    init(seat: Seat) { self.seat = seat }

    /// Ends the retry timer (the compositor's teardown, before the loop goes).
    func stop() { sender.stop() }

    /// set_selection from `client` with `serial`.
    func set(_ newSource: SelectionSource?, client: OpaquePointer, serial: UInt32) {
        guard seat.keyboardFocus?.client == client || seat.isValidInputSerial(serial, client: client) else {
            newSource?.cancel()
            return
        }
        replace(with: newSource)
    }

    /// set_selection of a data control device: no focus or serial needed (the global is
    /// privileged).
    func setFromControl(_ newSource: SelectionSource?) {
        replace(with: newSource)
    }

    private func replace(with newSource: SelectionSource?) {
        if let old = source, old !== newSource { old.cancel() }
        source = newSource
        sendToFocus(force: true)
        tellWatchers()
    }

    /// Whether offers made from `candidate` still transfer data.
    func isCurrent(_ candidate: SelectionSource) -> Bool {
        source === candidate && candidate.isLive
    }

    /// The selection's source died: the selection is cleared.
    func sourceDidDestroy(_ dead: SelectionSource) {
        guard source === dead else { return }
        source = nil
        sendToFocus(force: true)
        tellWatchers()
    }

    /// The keyboard focus client changed (or the selection did, `force`): its devices get the
    /// selection as a new offer.
    func sendToFocus(force: Bool = false) {
        let client = seat.keyboardFocus?.client
        guard force || client != sentToClient else { return }
        sentToClient = client
        guard let client else { return sender.cancel() }
        sender.send(to: { [unowned self] in seat.keyboardFocus?.client == client ? client : nil }) {
            [unowned self] client in
            for device in devices where device.client == client {
                device.sendSelection(source)
            }
        }
    }

    /// A new device; the keyboard focus client's learns the selection at once.
    func deviceDidAppear(_ device: SelectionDevice) {
        devices.append(device)
        if seat.keyboardFocus?.client == device.client {
            device.sendSelection(source)
        }
    }

    func deviceDidDisappear(_ device: SelectionDevice) {
        devices.removeAll { $0 === device }
    }

    /// A data control device: told of the selection at once and of every change.
    func watcherDidAppear(_ watcher: SelectionWatcher) {
        watchers.append(watcher)
        watcher.selectionDidChange(self)
    }

    func watcherDidDisappear(_ watcher: SelectionWatcher) {
        watchers.removeAll { $0 === watcher }
    }

    private func tellWatchers() {
        for watcher in watchers { watcher.selectionDidChange(self) }
    }

    /// The data device of `client` a drag talks to: its first live one (a client makes one per
    /// seat; a second would get the same events twice).
    func dragDevice(of client: OpaquePointer) -> DataDevice? {
        for device in devices where device.client == client {
            if let device = device as? DataDevice, !device.isDestroyed { return device }
        }
        return nil
    }

    /// How many devices are registered (the leak tests).
    var deviceCount: Int { devices.count }
}
