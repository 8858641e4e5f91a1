import CWaylandServer
import CXCB

/// An X client's drag as a Wayland destination's offer sees it (`XDrag`, X → Wayland): the
/// types of its XdndEnter named as MIME types (`XSelection.offerDragTypes`), the action its
/// XdndPosition asks for, and its data: a receive is a conversion of XdndSelection
/// (`XSelectionSource`, one at a time, as the clipboard's). What the destination accepts and the
/// action chosen go back to the X client as XdndStatus; its finish (or giving up) as
/// XdndFinished (`XDrag`).
final class XDragSource: DragSource {
    /// The conversions of XdndSelection.
    let data: XSelectionSource
    private weak var drag: XDrag?
    var mimeTypes: [String] { data.mimeTypes }
    private(set) var offeredActions: UInt32
    weak var dragOffer: DataOffer?
    private(set) var acceptedMimeType: String?
    private(set) var currentAction: UInt32 = 0
    private var isCancelled = false

    init(data: XSelectionSource, drag: XDrag, actions: UInt32) {
        self.data = data
        self.drag = drag
        offeredActions = actions
    }

    var isLive: Bool { !isCancelled && data.isLive && drag != nil }

    func cancel() { isCancelled = true }

    func send(mimeType: String, fd: Int32) {
        guard isLive else { return }
        data.send(mimeType: mimeType, fd: fd)
    }

    /// The X client asked for another action (XdndPosition): the offer chooses again.
    func offeredActionsDidChange(to actions: UInt32) {
        guard actions != offeredActions else { return }
        offeredActions = actions
        dragOffer?.chooseAction()
    }

    func destinationDidAccept(_ mimeType: String?) {
        guard isLive, mimeType != acceptedMimeType else { return }
        acceptedMimeType = mimeType
        drag?.negotiationDidChange()
    }

    func actionDidChange(to action: UInt32) {
        guard isLive, action != currentAction else { return }
        currentAction = action
        drag?.negotiationDidChange()
    }

    func destinationDidLeave() {
        dragOffer = nil
        destinationDidAccept(nil)
        actionDidChange(to: 0)
    }

    func dragDidFinish() {
        dragOffer = nil
        drag?.destinationDidFinish(accepted: true)
    }

    func dragDidFail() {
        dragOffer = nil
        drag?.destinationDidFinish(accepted: false)
    }
}
