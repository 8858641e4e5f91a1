import CStrataServerGlue
import CWaylandServer

/// wl_data_source: what a client offers to copy (the selection) or drag. Used at most once;
/// cancelled when replaced or refused. When it dies, the selection it holds is cleared and the
/// offers made from it turn inert.
final class DataSource: ResourceObject, SelectionSource {
    unowned let seat: Seat
    private let offered: MimeTypeList
    var mimeTypes: [String] { offered.types }
    /// The drag-and-drop actions, once set_actions was called.
    private(set) var dndActions: UInt32?
    /// Set by set_selection or start_drag; a second use is an invalid_source error.
    var isUsed = false
    private(set) var isCancelled = false

    static let allActions = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
        | WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        offered = MimeTypeList(client: client)
        super.init(client: client, interface: strata_wl_data_source_interface(), version: version, id: id,
                   implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        seat.clipboard.sourceDidDestroy(self)
    }

    /// Tells the client the source is no longer used (replaced, refused); once.
    func cancel() {
        guard !isCancelled, !isDestroyed else { return }
        isCancelled = true
        wl_data_source_send_cancelled(resource)
    }

    /// Whether offers made from this source still transfer data.
    var isLive: Bool { !isDestroyed && !isCancelled }

    /// Asks the client to write `mimeType` data into `fd` (libwayland sends a duplicate).
    func send(mimeType: String, fd: Int32) {
        guard isLive else { return }
        wl_data_source_send_send(resource, mimeType, fd)
    }

    static let implementation = makeImplementation(wl_data_source_interface(
        offer: { _, resource, mimeType in
            handle(resource, as: DataSource.self) { source throws(ProtocolError) in
                guard let mimeType else { return }
                try source.offered.add(mimeType, client: source.client)
            }
        },
        destroy: destroyRequest,
        set_actions: { _, resource, actions in
            handle(resource, as: DataSource.self) { try $0.handleSetActionsRequest(actions) }
        }))

    func handleSetActionsRequest(_ actions: UInt32) throws(ProtocolError) {
        guard actions & ~Self.allActions == 0 else {
            throw ProtocolError(code: WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue, "set_actions: \(actions) is not a mask of dnd_action values")
        }
        guard dndActions == nil, !isUsed else {
            throw ProtocolError(code: WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                                "set_actions must be sent once, before the source is used for drag-and-drop")
        }
        dndActions = actions
    }
}
