import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_device_v1: a client's access to the seat's primary selection.
final class PrimarySelectionDevice: ResourceObject {
    unowned let selection: PrimarySelection

    init?(selection: PrimarySelection, client: OpaquePointer, id: UInt32) {
        self.selection = selection
        super.init(client: client, interface: strata_zwp_primary_selection_device_v1_interface(), version: 1, id: id,
                   implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        selection.devices.removeAll { $0 === self }
    }

    /// data_offer + offer(mime)… + selection(offer), or selection(null).
    func sendSelection(_ source: PrimarySelectionSource?) {
        guard !isDestroyed else { return }
        if let source, source.isLive, let offer = PrimarySelectionOffer.announce(source, on: self) {
            zwp_primary_selection_device_v1_send_selection(resource, offer.resource)
        } else {
            zwp_primary_selection_device_v1_send_selection(resource, nil)
        }
    }

    static let implementation = makeImplementation(zwp_primary_selection_device_v1_interface(
        set_selection: { _, resource, source, serial in
            handle(resource, as: PrimarySelectionDevice.self) { device in
                let source = ResourceObject.from(source, as: PrimarySelectionSource.self)
                device.selection.set(source, client: device.client, serial: serial)
            }
        },
        destroy: destroyRequest))
}
