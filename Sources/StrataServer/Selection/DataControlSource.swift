import CStrataServerGlue
import CWaylandServer

/// zwlr_data_control_source_v1 or ext_data_control_source_v1: what a data control client (wl-copy,
/// a clipboard manager) offers as the clipboard or the primary selection. Used once; offers
/// after that use are its invalid_offer error. Cancelled when replaced; when it dies the
/// selection it holds is cleared and its offers turn inert.
final class DataControlSource: ResourceObject, SelectionSource {
    let flavor: DataControlFlavor
    private let offered: MimeTypeList
    var mimeTypes: [String] { offered.types }
    /// The selection it was set as (set_selection or set_primary_selection), once used.
    private(set) weak var selection: Selection?
    private(set) var isUsed = false
    private(set) var isCancelled = false

    init?(flavor: DataControlFlavor, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.flavor = flavor
        offered = MimeTypeList(client: client)
        super.init(
            client: client, interface: flavor.sourceInterface, version: version, id: id,
            implementation: flavor == .wlr ? Self.wlrImplementation : Self.extImplementation)
    }

    override func resourceDidDestroy() {
        selection?.sourceDidDestroy(self)
    }

    /// Marks the source used for `selection`; false if it was used before.
    func use(for selection: Selection) -> Bool {
        guard !isUsed else { return false }
        isUsed = true
        self.selection = selection
        return true
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
        handle(resource, as: DataControlSource.self) { source throws(ProtocolError) in
            guard !source.isUsed else {
                throw ProtocolError(
                    code: source.flavor.invalidOfferError, "offer after the source was set as a selection")
            }
            guard let mimeType else { return }
            try source.offered.add(mimeType, client: source.client)
        }
    }

    static let wlrImplementation = makeImplementation(
        zwlr_data_control_source_v1_interface(
            offer: offer, destroy: destroyRequest))
    static let extImplementation = makeImplementation(
        ext_data_control_source_v1_interface(
            offer: offer, destroy: destroyRequest))
}
