import CStrataServerGlue
import CWaylandServer
import Glibc

/// zwp_primary_selection_offer_v1 or gtk_primary_selection_offer (the device's flavor): the primary
/// selection as another client sees it, whichever flavor its source speaks. receive forwards the
/// fd to the source's client and closes the compositor's copy; an offer whose source died, was
/// cancelled or replaced is inert (the fd is closed, nothing is sent).
final class PrimarySelectionOffer: ResourceObject {
    private weak var source: (any SelectionSource)?
    unowned let selection: Selection

    /// Makes an offer for `source` on `device`'s client and announces it and its mime types.
    static func announce(_ source: SelectionSource, on device: PrimarySelectionDevice) -> PrimarySelectionOffer? {
        guard
            let offer = PrimarySelectionOffer(
                source: source, selection: device.selection, flavor: device.flavor, client: device.client)
        else { return nil }
        device.flavor.sendDataOffer(device: device.resource, offer: offer.resource)
        for type in source.mimeTypes {
            device.flavor.sendOffer(offer: offer.resource, mimeType: type)
        }
        return offer
    }

    private init?(source: SelectionSource, selection: Selection, flavor: PrimarySelectionFlavor, client: OpaquePointer)
    {
        self.source = source
        self.selection = selection
        // id 0: a server-created object.
        super.init(
            client: client, interface: flavor.offerInterface, version: 1, id: 0,
            implementation: flavor == .zwp ? Self.zwpImplementation : Self.gtkImplementation)
    }

    private static let receive: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Void =
        { _, resource, mimeType, fd in
            defer { Descriptors.close(fd) }
            handle(resource, as: PrimarySelectionOffer.self) { offer in
                guard let mimeType, let source = offer.source, offer.selection.isCurrent(source) else { return }
                source.send(mimeType: String(cString: mimeType), fd: fd)
            }
        }

    static let zwpImplementation = makeImplementation(
        zwp_primary_selection_offer_v1_interface(
            receive: receive, destroy: destroyRequest))
    static let gtkImplementation = makeImplementation(
        gtk_primary_selection_offer_interface(
            receive: receive, destroy: destroyRequest))
}
