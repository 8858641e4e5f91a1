import CStrataServerGlue
import CWaylandServer
import Glibc

/// zwlr_data_control_offer_v1 or ext_data_control_offer_v1: the clipboard or the primary selection
/// as a data control client sees it, whatever protocol its source speaks. receive forwards the
/// fd to the source's client and closes the compositor's copy; an offer whose source died, was
/// cancelled or replaced is inert (the fd is closed, nothing is sent).
final class DataControlOffer: ResourceObject {
    private weak var source: (any SelectionSource)?
    unowned let selection: Selection

    init?(
        source: SelectionSource, selection: Selection, flavor: DataControlFlavor, client: OpaquePointer, version: UInt32
    ) {
        self.source = source
        self.selection = selection
        // id 0: a server-created object.
        super.init(
            client: client, interface: flavor.offerInterface, version: version, id: 0,
            implementation: flavor == .wlr ? Self.wlrImplementation : Self.extImplementation)
    }

    private static let receive: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Void =
        { _, resource, mimeType, fd in
            defer { Descriptors.close(fd) }
            handle(resource, as: DataControlOffer.self) { offer in
                guard let mimeType, let source = offer.source, offer.selection.isCurrent(source) else { return }
                source.send(mimeType: String(cString: mimeType), fd: fd)
            }
        }

    static let wlrImplementation = makeImplementation(
        zwlr_data_control_offer_v1_interface(
            receive: receive, destroy: destroyRequest))
    static let extImplementation = makeImplementation(
        ext_data_control_offer_v1_interface(
            receive: receive, destroy: destroyRequest))
}
