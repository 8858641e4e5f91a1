import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_device_v1 or gtk_primary_selection_device: a client's access to the
/// seat's primary selection. It is offered whatever flavor its source was set through.
final class PrimarySelectionDevice: ResourceObject, SelectionDevice {
    unowned let selection: Selection
    let flavor: PrimarySelectionFlavor

    init?(selection: Selection, flavor: PrimarySelectionFlavor, client: OpaquePointer, id: UInt32) {
        self.selection = selection
        self.flavor = flavor
        super.init(
            client: client, interface: flavor.deviceInterface, version: 1, id: id,
            implementation: flavor == .zwp ? Self.zwpImplementation : Self.gtkImplementation)
    }

    override func resourceDidDestroy() {
        selection.deviceDidDisappear(self)
    }

    /// data_offer + offer(mime)… + selection(offer), or selection(null).
    func sendSelection(_ source: SelectionSource?) {
        guard !isDestroyed else { return }
        if let source, source.isLive, let offer = PrimarySelectionOffer.announce(source, on: self) {
            flavor.sendSelection(device: resource, offer: offer.resource)
        } else {
            flavor.sendSelection(device: resource, offer: nil)
        }
    }

    private static let setSelection: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UInt32) -> Void = {
        _, resource, source, serial in
        handle(resource, as: PrimarySelectionDevice.self) { device in
            // The argument is typed by the device's flavor: libwayland has checked the interface.
            let source = ResourceObject.from(source, as: PrimarySelectionSource.self)
            device.selection.set(source, client: device.client, serial: serial)
        }
    }

    static let zwpImplementation = makeImplementation(
        zwp_primary_selection_device_v1_interface(
            set_selection: setSelection, destroy: destroyRequest))
    static let gtkImplementation = makeImplementation(
        gtk_primary_selection_device_interface(
            set_selection: setSelection, destroy: destroyRequest))
}
