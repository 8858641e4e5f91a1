import CStrataServerGlue
import CWaylandServer
import Glibc

/// zwp_primary_selection_offer_v1: the primary selection as another client sees it. receive
/// forwards the fd to the source's client and closes the compositor's copy; an offer whose
/// source died, was cancelled or replaced is inert (the fd is closed, nothing is sent).
final class PrimarySelectionOffer: ResourceObject {
    private(set) weak var source: PrimarySelectionSource?

    /// Makes an offer for `source` on `device`'s client and announces it and its mime types.
    static func announce(_ source: PrimarySelectionSource, on device: PrimarySelectionDevice) -> PrimarySelectionOffer? {
        guard let offer = PrimarySelectionOffer(source: source, client: device.client) else { return nil }
        zwp_primary_selection_device_v1_send_data_offer(device.resource, offer.resource)
        for type in source.mimeTypes {
            zwp_primary_selection_offer_v1_send_offer(offer.resource, type)
        }
        return offer
    }

    private init?(source: PrimarySelectionSource, client: OpaquePointer) {
        self.source = source
        // id 0: a server-created object.
        super.init(client: client, interface: strata_zwp_primary_selection_offer_v1_interface(), version: 1, id: 0,
                   implementation: Self.implementation)
    }

    static let implementation = makeImplementation(zwp_primary_selection_offer_v1_interface(
        receive: { _, resource, mimeType, fd in
            defer { close(fd) }
            handle(resource, as: PrimarySelectionOffer.self) { offer in
                guard let mimeType, let source = offer.source, source.isLive,
                      source.selection.source === source else { return }
                source.send(mimeType: String(cString: mimeType), fd: fd)
            }
        },
        destroy: destroyRequest))
}
