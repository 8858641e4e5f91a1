import CStrataServerGlue
import CWaylandServer

/// zwlr_data_control_device_v1 or ext_data_control_device_v1: a privileged client's hold on the
/// seat's clipboard and primary selection without a surface or the keyboard focus (wl-copy,
/// wl-paste, clipboard managers). It is told of every change of both selections (a
/// `SelectionWatcher`) and sets them with no serial. What it is sent waits, per selection, for
/// room in its client's socket (`BackpressureSender`): only the selection current then is announced, so
/// another client's burst of copies cannot fill its socket.
final class DataControlDevice: ResourceObject, SelectionWatcher {
    unowned let seat: Seat
    let flavor: DataControlFlavor
    private let charge: BudgetCharge?
    private lazy var clipboardSender = BackpressureSender(display: seat.compositor.display)
    private lazy var primarySender = BackpressureSender(display: seat.compositor.display)
    private var speaksPrimary: Bool { flavor.hasPrimarySelection(version: version) }

    /// A new device of `client`, charged to its budget (`ClientBudget.maxSelectionWatchersPerClient`).
    static func make(seat: Seat, flavor: DataControlFlavor, client: OpaquePointer, version: UInt32, id: UInt32)
        throws(ProtocolError)
    {
        let charge = BudgetCharge(client: client, kind: STRATA_CHARGE_SELECTION_WATCHERS)
        if let charge, !charge.add(1, limit: ClientBudget.maxSelectionWatchersPerClient) {
            throw .noMemory(
                "more than \(ClientBudget.maxSelectionWatchersPerClient) data control devices", client: client)
        }
        guard
            let device = DataControlDevice(
                seat: seat, flavor: flavor, charge: charge, client: client, version: version, id: id)
        else { return }
        // The first selection (and primary selection) events go out at once.
        seat.clipboard.watcherDidAppear(device)
        if device.speaksPrimary { seat.primarySelection.watcherDidAppear(device) }
    }

    private init?(
        seat: Seat, flavor: DataControlFlavor, charge: BudgetCharge?, client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.seat = seat
        self.flavor = flavor
        self.charge = charge
        super.init(
            client: client, interface: flavor.deviceInterface, version: version, id: id,
            implementation: flavor == .wlr ? Self.wlrImplementation : Self.extImplementation)
    }

    override func resourceDidDestroy() {
        seat.clipboard.watcherDidDisappear(self)
        seat.primarySelection.watcherDidDisappear(self)
        clipboardSender.stop()
        primarySender.stop()
        charge?.refund()
    }

    // MARK: SelectionWatcher

    func selectionDidChange(_ selection: Selection) {
        guard !isDestroyed else { return }
        let primary = selection !== seat.clipboard
        guard !primary || speaksPrimary else { return }
        let sender = primary ? primarySender : clipboardSender
        sender.send(to: { [weak self] in self.flatMap { $0.isDestroyed ? nil : $0.client } }) { [weak self] _ in
            self?.announce(selection.source, of: selection, primary: primary)
        }
    }

    /// data_offer + offer(mime)… + selection(offer) or primary_selection(offer); or the event
    /// with null.
    private func announce(_ source: SelectionSource?, of selection: Selection, primary: Bool) {
        guard !isDestroyed else { return }
        var offer: DataControlOffer?
        if let source, source.isLive,
            let made = DataControlOffer(
                source: source, selection: selection, flavor: flavor, client: client, version: version)
        {
            flavor.sendDataOffer(device: resource, offer: made.resource)
            for type in source.mimeTypes { flavor.sendOffer(offer: made.resource, mimeType: type) }
            offer = made
        }
        if primary {
            flavor.sendPrimarySelection(device: resource, offer: offer?.resource)
        } else {
            flavor.sendSelection(device: resource, offer: offer?.resource)
        }
    }

    // MARK: Requests

    func handleSetSelectionRequest(_ sourceResource: OpaquePointer?, primary: Bool) throws(ProtocolError) {
        let selection = primary ? seat.primarySelection : seat.clipboard
        // The argument is typed by the device's flavor: libwayland has checked the interface.
        let source = ResourceObject.from(sourceResource, as: DataControlSource.self)
        if let source, !source.use(for: selection) {
            throw ProtocolError(code: flavor.usedSourceError, "the source was already set as a selection")
        }
        selection.setFromControl(source)
    }

    private static let setSelection: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void = {
        _, resource, source in
        handle(resource, as: DataControlDevice.self) { try $0.handleSetSelectionRequest(source, primary: false) }
    }

    private static let setPrimarySelection: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void = {
        _, resource, source in
        handle(resource, as: DataControlDevice.self) { try $0.handleSetSelectionRequest(source, primary: true) }
    }

    static let wlrImplementation = makeImplementation(
        zwlr_data_control_device_v1_interface(
            set_selection: setSelection, destroy: destroyRequest, set_primary_selection: setPrimarySelection))
    static let extImplementation = makeImplementation(
        ext_data_control_device_v1_interface(
            set_selection: setSelection, destroy: destroyRequest, set_primary_selection: setPrimarySelection))
}
