/// The data of a drag as the destination's offer sees it (`DataOffer`): a Wayland client's
/// `DataSource`, or an X client's drag bridged through XDND (`XDragSource`). The offer tells it
/// what the destination accepts and which action was chosen, and, after the drop, that the
/// destination finished or gave up.
protocol DragSource: SelectionSource {
    /// The dnd_action mask the source offers.
    var offeredActions: UInt32 { get }
    /// The destination's offer the source negotiates with now (one at a time).
    var dragOffer: DataOffer? { get set }
    /// The MIME type the destination last accepted (nil: none).
    var acceptedMimeType: String? { get }
    /// The action chosen last (a dnd_action value; 0: none).
    var currentAction: UInt32 { get }
    func destinationDidAccept(_ mimeType: String?)
    func actionDidChange(to action: UInt32)
    /// The pointer left the destination: nothing is accepted and no action is chosen any more.
    func destinationDidLeave()
    /// The destination finished after the drop.
    func dragDidFinish()
    /// The drag failed, or the destination gave up after the drop.
    func dragDidFail()
}

extension DataSource: DragSource {}
