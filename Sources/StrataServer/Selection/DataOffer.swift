import CStrataServerGlue
import CWaylandServer
import Glibc

/// wl_data_offer: the selection as another client sees it, whatever protocol its source speaks
/// (wl_data_source, or a data control source), or a drag's data as the client under the drag
/// sees it (`isDragAndDrop`; its `DragSource` a Wayland client's drag or an X client's).
/// receive(mime, fd) forwards the fd to the source's client (wl_data_source.send, or a
/// conversion of XdndSelection) and closes the compositor's copy; an offer whose
/// source died, was cancelled or replaced is inert (the fd is closed, nothing is sent). A drag's
/// offer is live while it is its source's `dragOffer`: from enter until leave, or after a drop
/// until finish.
final class DataOffer: ResourceObject {
    private(set) weak var source: (any SelectionSource)?
    /// A drag-and-drop offer's source (the selection's `source` is nil then).
    private(set) weak var dragSource: (any DragSource)?
    let isDragAndDrop: Bool
    unowned let seat: Seat

    /// set_actions: the actions the destination takes and the one it prefers.
    private(set) var acceptedActions: UInt32 = 0
    private(set) var preferredAction: UInt32 = 0
    /// The action last sent to this offer (wl_data_offer.action).
    private(set) var currentAction: UInt32 = 0
    /// The drop happened on this offer; `dropAction` is the action chosen then.
    private(set) var isDropped = false
    private var dropAction: UInt32 = 0
    private(set) var isFinished = false

    /// Makes an offer for `source` on `device`'s client, announces it (data_offer) and its mime
    /// types (offer). The caller then sends selection.
    static func announce(_ source: SelectionSource, on device: DataDevice) -> DataOffer? {
        guard
            let offer = DataOffer(
                source: source, dragSource: nil, seat: device.seat, client: device.client, version: device.version)
        else { return nil }
        wl_data_device_send_data_offer(device.resource, offer.resource)
        for type in source.mimeTypes {
            wl_data_offer_send_offer(offer.resource, type)
        }
        return offer
    }

    /// Makes a drag's offer on `device`'s client: data_offer, offer(mime)…, source_actions (v3).
    /// The caller then sends enter and chooses the action.
    static func announceDrag(_ source: any DragSource, on device: DataDevice) -> DataOffer? {
        guard
            let offer = DataOffer(
                source: nil, dragSource: source, seat: device.seat, client: device.client, version: device.version)
        else { return nil }
        wl_data_device_send_data_offer(device.resource, offer.resource)
        for type in source.mimeTypes {
            wl_data_offer_send_offer(offer.resource, type)
        }
        if offer.version >= 3 { wl_data_offer_send_source_actions(offer.resource, source.offeredActions) }
        source.dragOffer = offer
        return offer
    }

    private init?(
        source: SelectionSource?, dragSource: (any DragSource)?, seat: Seat, client: OpaquePointer, version: UInt32
    ) {
        self.source = source
        self.dragSource = dragSource
        isDragAndDrop = dragSource != nil
        self.seat = seat
        // id 0: a server-created object.
        super.init(
            client: client, interface: strata_wl_data_offer_interface(), version: version, id: 0,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        // A destination that drops the offer after the drop without finishing: an old one (v1, v2)
        // cannot finish, so it is done; a v3 one gave up.
        guard let source = liveDragSource, isDropped, !isFinished else {
            if let source = liveDragSource, !isDropped { source.destinationDidLeave() }
            return
        }
        if version < 3 { source.dragDidFinish() } else { source.dragDidFail() }
    }

    /// The drag's source while this offer is the one it negotiates with.
    private var liveDragSource: (any DragSource)? {
        guard let source = dragSource, source.isLive, source.dragOffer === self else { return nil }
        return source
    }

    // MARK: Drag and drop

    /// Chooses the action from both sides' masks (the destination's preferred one when both
    /// allow it, else the lowest: copy, move, ask) and tells both sides when it changed. Old
    /// offers (v1, v2) take copy.
    func chooseAction() {
        guard let source = liveDragSource else { return }
        let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
        let offered = version >= 3 ? acceptedActions : copy
        let preferred = version >= 3 ? preferredAction : 0
        let available = offered & source.offeredActions
        let chosen = available == 0 ? 0 : (preferred & available != 0 ? preferred : available & (~available &+ 1))
        if isDropped {
            // After the drop only an "ask" is settled, on the source's side (the spec).
            guard dropAction == WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue else { return }
            currentAction = chosen
            source.actionDidChange(to: chosen)
            return
        }
        if chosen != currentAction {
            currentAction = chosen
            if version >= 3 { wl_data_offer_send_action(resource, chosen) }
        }
        source.actionDidChange(to: chosen)
    }

    /// The drop: whether the destination accepted a type and an action; if so the offer stays
    /// live for the transfer.
    func dropWillHappen() -> Bool {
        guard let source = liveDragSource, source.acceptedMimeType != nil, source.currentAction != 0 else {
            return false
        }
        isDropped = true
        dropAction = source.currentAction
        return true
    }

    /// The pointer left this offer's surface (no drop): the offer turns inert.
    func dragDidLeave() {
        guard let source = liveDragSource, !isDropped else { return }
        source.destinationDidLeave()
    }

    static let implementation = makeImplementation(
        wl_data_offer_interface(
            accept: { _, resource, _, mimeType in
                handle(resource, as: DataOffer.self) { offer in
                    guard offer.isDragAndDrop, !offer.isFinished, let source = offer.liveDragSource else { return }
                    source.destinationDidAccept(mimeType.map { String(cString: $0) })
                }
            },
            receive: { _, resource, mimeType, fd in
                guard ResourceObject.from(resource, as: DataOffer.self) != nil else {
                    Descriptors.close(fd)
                    return
                }
                handle(resource, as: DataOffer.self) { offer in
                    defer { Descriptors.close(fd) }
                    guard let mimeType else { return }
                    if offer.isDragAndDrop {
                        guard !offer.isFinished, let source = offer.liveDragSource else { return }
                        source.send(mimeType: String(cString: mimeType), fd: fd)
                    } else if let source = offer.source, offer.seat.clipboard.isCurrent(source) {
                        source.send(mimeType: String(cString: mimeType), fd: fd)
                    }
                }
            },
            destroy: destroyRequest,
            finish: { _, resource in
                handle(resource, as: DataOffer.self) { try $0.handleFinishRequest() }
            },
            set_actions: { _, resource, actions, preferred in
                handle(resource, as: DataOffer.self) { try $0.handleSetActionsRequest(actions, preferred: preferred) }
            }))

    func handleFinishRequest() throws(ProtocolError) {
        guard isDragAndDrop else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish on a selection offer (not drag-and-drop)")
        }
        guard isDropped, !isFinished else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue,
                isFinished ? "finish sent twice" : "finish before the drop")
        }
        guard let source = liveDragSource else {
            // The source went away: nothing left to tell.
            isFinished = true
            return
        }
        guard source.acceptedMimeType != nil else {
            throw ProtocolError(code: WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish after accept(null)")
        }
        let none = UInt32(0), ask = WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue
        guard source.currentAction != none, source.currentAction != ask else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue,
                "finish with the action \(source.currentAction == none ? "none" : "ask") (an ask must be settled with set_actions first)"
            )
        }
        isFinished = true
        source.dragDidFinish()
    }

    func handleSetActionsRequest(_ actions: UInt32, preferred: UInt32) throws(ProtocolError) {
        guard isDragAndDrop else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions on a selection offer (not drag-and-drop)"
            )
        }
        guard actions & ~DataSource.allActions == 0 else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK.rawValue,
                "set_actions: \(actions) is not a mask of dnd_action values")
        }
        guard preferred & ~DataSource.allActions == 0, preferred.nonzeroBitCount <= 1,
            preferred == 0 || preferred & actions != 0
        else {
            throw ProtocolError(
                code: WL_DATA_OFFER_ERROR_INVALID_ACTION.rawValue,
                "set_actions: the preferred action \(preferred) is not one action of the mask \(actions)")
        }
        guard !isFinished else {
            throw ProtocolError(code: WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions after finish")
        }
        acceptedActions = actions
        preferredAction = preferred
        chooseAction()
    }
}
