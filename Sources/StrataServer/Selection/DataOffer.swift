import CStrataServerGlue
import CWaylandServer
import Glibc

/// wl_data_offer: the selection as another client sees it, whatever protocol its source speaks
/// (wl_data_source, or a data control source). receive(mime, fd) forwards the fd to
/// the source's client (wl_data_source.send) and closes the compositor's copy; an offer whose
/// source died, was cancelled or replaced is inert (the fd is closed, nothing is sent).
final class DataOffer: ResourceObject {
    private(set) weak var source: (any SelectionSource)?
    unowned let seat: Seat

    /// Makes an offer for `source` on `device`'s client, announces it (data_offer) and its mime
    /// types (offer). The caller then sends selection.
    static func announce(_ source: SelectionSource, on device: DataDevice) -> DataOffer? {
        guard let offer = DataOffer(source: source, seat: device.seat, client: device.client, version: device.version) else { return nil }
        wl_data_device_send_data_offer(device.resource, offer.resource)
        for type in source.mimeTypes {
            wl_data_offer_send_offer(offer.resource, type)
        }
        return offer
    }

    private init?(source: SelectionSource, seat: Seat, client: OpaquePointer, version: UInt32) {
        self.source = source
        self.seat = seat
        // id 0: a server-created object.
        super.init(client: client, interface: strata_wl_data_offer_interface(), version: version, id: 0,
                   implementation: Self.implementation)
    }

    static let implementation = makeImplementation(wl_data_offer_interface(
        accept: { _, _, _, _ in
            // Only meaningful for drag-and-drop, which Strata does not do yet.
        },
        receive: { _, resource, mimeType, fd in
            guard ResourceObject.from(resource, as: DataOffer.self) != nil else {
                close(fd)
                return
            }
            handle(resource, as: DataOffer.self) { offer in
                defer { close(fd) }
                guard let mimeType, let source = offer.source, offer.seat.clipboard.isCurrent(source) else { return }
                source.send(mimeType: String(cString: mimeType), fd: fd)
            }
        },
        destroy: destroyRequest,
        finish: { _, resource in
            handle(resource, as: DataOffer.self) { _ throws(ProtocolError) in
                throw ProtocolError(code: WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish on a selection offer (not drag-and-drop)")
            }
        },
        set_actions: { _, resource, _, _ in
            handle(resource, as: DataOffer.self) { _ throws(ProtocolError) in
                throw ProtocolError(code: WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions on a selection offer (not drag-and-drop)")
            }
        }))
}
