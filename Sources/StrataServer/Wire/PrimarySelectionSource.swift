import CStrataServerGlue
import CWaylandServer

/// zwp_primary_selection_source_v1: what a client offers for middle-click paste. Cancelled when
/// replaced or refused; when it dies the selection it holds is cleared and its offers turn inert.
final class PrimarySelectionSource: ResourceObject {
    unowned let selection: PrimarySelection
    private(set) var mimeTypes: [String] = []
    private(set) var isCancelled = false

    init?(selection: PrimarySelection, client: OpaquePointer, id: UInt32) {
        self.selection = selection
        super.init(client: client, interface: strata_zwp_primary_selection_source_v1_interface(), version: 1, id: id,
                   implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        selection.sourceDidDestroy(self)
    }

    /// Tells the client the source is no longer the selection; once.
    func cancel() {
        guard !isCancelled, !isDestroyed else { return }
        isCancelled = true
        zwp_primary_selection_source_v1_send_cancelled(resource)
    }

    var isLive: Bool { !isDestroyed && !isCancelled }

    /// Asks the client to write `mimeType` data into `fd` (libwayland sends a duplicate).
    func send(mimeType: String, fd: Int32) {
        guard isLive else { return }
        zwp_primary_selection_source_v1_send_send(resource, mimeType, fd)
    }

    static let implementation = makeImplementation(zwp_primary_selection_source_v1_interface(
        offer: { _, resource, mimeType in
            handle(resource, as: PrimarySelectionSource.self) { source in
                guard let mimeType else { return }
                let type = String(cString: mimeType)
                if !source.mimeTypes.contains(type) { source.mimeTypes.append(type) }
            }
        },
        destroy: destroyRequest))
}
