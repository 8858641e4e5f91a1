import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_source_v1 or gtk_primary_selection_source: what a client offers for
/// middle-click paste. Cancelled when replaced or refused; when it dies the selection it holds is
/// cleared and its offers (of both flavors) turn inert.
final class PrimarySelectionSource: ResourceObject, SelectionSource {
    unowned let selection: Selection
    let flavor: PrimarySelectionFlavor
    private let offered: MimeTypeList
    var mimeTypes: [String] { offered.types }
    private(set) var isCancelled = false

    init?(selection: Selection, flavor: PrimarySelectionFlavor, client: OpaquePointer, id: UInt32) {
        self.selection = selection
        self.flavor = flavor
        offered = MimeTypeList(client: client)
        super.init(
            client: client, interface: flavor.sourceInterface, version: 1, id: id,
            implementation: flavor == .zwp ? Self.zwpImplementation : Self.gtkImplementation)
    }

    override func resourceDidDestroy() {
        selection.sourceDidDestroy(self)
    }

    func cancel() {
        guard !isCancelled, !isDestroyed else { return }
        isCancelled = true
        flavor.sendCancelled(source: resource)
    }

    var isLive: Bool { !isDestroyed && !isCancelled }

    func send(mimeType: String, fd: Int32) {
        guard isLive else { return }
        flavor.sendSend(source: resource, mimeType: mimeType, fd: fd)
    }

    private static let offer: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?) -> Void = {
        _, resource, mimeType in
        handle(resource, as: PrimarySelectionSource.self) { source throws(ProtocolError) in
            guard let mimeType else { return }
            try source.offered.add(mimeType, client: source.client)
        }
    }

    static let zwpImplementation = makeImplementation(
        zwp_primary_selection_source_v1_interface(
            offer: offer, destroy: destroyRequest))
    static let gtkImplementation = makeImplementation(
        gtk_primary_selection_source_interface(
            offer: offer, destroy: destroyRequest))
}
