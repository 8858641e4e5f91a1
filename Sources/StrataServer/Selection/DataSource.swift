import CStrataServerGlue
import CWaylandServer

/// wl_data_source: what a client offers to copy (the selection) or drag. Used at most once;
/// cancelled when replaced or refused. When it dies, the selection it holds is cleared, a drag it
/// feeds is cancelled, and the offers made from it turn inert.
///
/// As a drag's source it follows the destination's offer (`dragOffer`, one at a time): the MIME
/// type the destination accepted (`target`), the action chosen between both sides (`action`,
/// v3), then `dnd_drop_performed` and `dnd_finished`, or `cancelled` (v3; older sources hear
/// nothing when a drag fails, as the spec says).
final class DataSource: ResourceObject, SelectionSource {
    unowned let seat: Seat
    private let offered: MimeTypeList
    var mimeTypes: [String] { offered.types }
    /// The drag-and-drop actions, once set_actions was called.
    private(set) var dndActions: UInt32?
    /// Set by set_selection or start_drag; a second use is an invalid_source error.
    var isUsed = false
    private(set) var isCancelled = false

    /// Where the source is in a drag (start_drag used it).
    enum DragState { case none, dragging, dropped, finished }
    var dragState = DragState.none
    /// The destination's offer the source negotiates with now (nil: over nothing, or it left).
    weak var dragOffer: DataOffer?
    /// The MIME type the destination last accepted (nil: none, or accept(null)).
    private(set) var acceptedMimeType: String?
    /// The action chosen last (a dnd_action value; 0: none).
    private(set) var currentAction: UInt32 = 0

    /// The actions the source offers: set_actions' mask for v3, copy for older sources (the
    /// spec's implicit action).
    var offeredActions: UInt32 {
        version >= 3 ? (dndActions ?? 0) : WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
    }

    static let allActions =
        WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
        | WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        offered = MimeTypeList(client: client)
        super.init(
            client: client, interface: strata_wl_data_source_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        seat.drag?.sourceWillDestroy(self)
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

    // MARK: Drag and drop

    /// wl_data_offer.accept from the destination: wl_data_source.target when it changed.
    func destinationDidAccept(_ mimeType: String?) {
        guard isLive, mimeType != acceptedMimeType else { return }
        acceptedMimeType = mimeType
        tellNegotiation()
    }

    /// The negotiated action: wl_data_source.action (v3) when it changed.
    func actionDidChange(to action: UInt32) {
        guard isLive, action != currentAction else { return }
        currentAction = action
        tellNegotiation()
    }

    /// What target and action the source was last told.
    private var toldMimeType: String?
    private var toldAction: UInt32 = 0

    /// Sends the source the accepted type (target) and the action when they differ from what it
    /// was last told. Another client (the destination) drives these, so they are sent only while
    /// the source's socket has room (`BackpressureSender.hasRoom`): a destination that flips its accept
    /// thousands of times cannot fill a slow source's socket (libwayland would drop it); the
    /// latest state goes out with the next change that finds room, and always before
    /// dnd_drop_performed and dnd_finished (`force`).
    private func tellNegotiation(force: Bool = false) {
        guard isLive, force || BackpressureSender.hasRoom(client) else { return }
        if toldMimeType != acceptedMimeType {
            toldMimeType = acceptedMimeType
            wl_data_source_send_target(resource, acceptedMimeType)
        }
        if toldAction != currentAction {
            toldAction = currentAction
            if version >= 3 { wl_data_source_send_action(resource, currentAction) }
        }
    }

    /// The pointer left the destination: nothing is accepted and no action is chosen any more.
    func destinationDidLeave() {
        dragOffer = nil
        destinationDidAccept(nil)
        actionDidChange(to: 0)
    }

    /// The destination got the drop: dnd_drop_performed (v3).
    func dropDidHappen() {
        guard isLive else { return }
        dragState = .dropped
        tellNegotiation(force: true)
        if version >= 3 { wl_data_source_send_dnd_drop_performed(resource) }
    }

    /// The destination is done (finish, or an old destination's offer went): dnd_finished (v3).
    func dragDidFinish() {
        guard isLive, dragState == .dropped else { return }
        dragState = .finished
        dragOffer = nil
        tellNegotiation(force: true)
        if version >= 3 { wl_data_source_send_dnd_finished(resource) }
    }

    /// The drag failed (no drop, or the destination gave up): cancelled for v3 sources; older
    /// ones are only cancelled when replaced (the spec).
    func dragDidFail() {
        dragOffer = nil
        guard version >= 3 else { return }
        cancel()
    }

    static let implementation = makeImplementation(
        wl_data_source_interface(
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
            throw ProtocolError(
                code: WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue,
                "set_actions: \(actions) is not a mask of dnd_action values")
        }
        guard dndActions == nil, !isUsed else {
            throw ProtocolError(
                code: WL_DATA_SOURCE_ERROR_INVALID_SOURCE.rawValue,
                "set_actions must be sent once, before the source is used for drag-and-drop")
        }
        dndActions = actions
    }
}
