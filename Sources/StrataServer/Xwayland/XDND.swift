import CXCB
import Glibc

/// Drag and drop between Wayland and X clients: XDND (freedesktop.org, version 5; targets of
/// versions 3 to 5 are spoken to) bridged to wl_data_device drags (`docs/xwayland.md`, "Drag
/// and drop").
///
/// Wayland → X: while a Wayland drag with a source is over an X window's surface, the XWM is
/// the XDND source (`XDropTarget`): it owns XdndSelection on its selection window for the drag's
/// source (the `XSelection` without a seat selection: the same MIME type ↔ target translation
/// and transfers as the clipboard's), and sends the window (or its XdndProxy) XdndEnter,
/// XdndPosition, XdndLeave and XdndDrop. A dropped target has `finishTimeout` milliseconds to
/// send XdndFinished; then the source is cancelled.
///
/// X → Wayland: an X client's drag over a Wayland surface is dropped on the XWM's drop window
/// (`XDrag`), and the Wayland client under it gets a wl_data_device drag whose source is the X
/// client's XdndSelection (`XDragSource`).
///
/// Client messages come with no sender: the XWM takes XdndStatus and XdndFinished only sent to
/// its own window, naming the window of the drag in progress, at the step they answer; others
/// are ignored.
final class XDND {
    /// The XDND version the XWM speaks, and the oldest it speaks to (XdndEnter's layout).
    static let version: UInt32 = 5
    static let oldestVersion: UInt32 = 3
    /// How long a target has to send XdndFinished after the drop (milliseconds).
    var finishTimeout: Int32 = 5000

    unowned let wm: XWM
    /// The X window under the Wayland drag, if any.
    private(set) var current: XDropTarget?
    /// A target dropped on, until its XdndFinished (or its timeout, or its window's end). A new
    /// drop ends an older one (cancelling its source).
    private(set) var dropped: XDropTarget?
    private var dragChanged: Signal<DragEvent>.Token?
    /// X → Wayland: an X client's drag over Wayland surfaces (made in the XWM's setup).
    private(set) var xDrag: XDrag?

    init(wm: XWM) {
        self.wm = wm
        dragChanged = wm.compositor.seat?.dragChanged.observe { [weak self] event in
            if case .ended = event { self?.releaseSelectionIfIdle() }
        }
    }

    /// Makes the drop window X sources find (`XDrag`).
    func startXDrags() {
        if xDrag == nil { xDrag = XDrag(dnd: self) }
    }

    /// XdndSelection's bridge.
    var selection: XSelection? { wm.selections.first { $0.selection == nil } }

    /// The Wayland drag of `source` entered `window` at (x, y) (global coordinates).
    func enter(_ window: X11Window, source: DataSource, x: Double, y: Double) -> XDropTarget {
        current?.dragDidLeave()
        let target = XDropTarget(dnd: self, window: window.id, source: source, x: x, y: y)
        current = target
        target.start()
        return target
    }

    /// The target ended (left, finished, failed): forgotten.
    func targetDidEnd(_ target: XDropTarget) {
        if current === target { current = nil }
        if dropped === target { dropped = nil }
        releaseSelectionIfIdle()
    }

    /// The target is dropped on: it waits for XdndFinished.
    func targetDidDrop(_ target: XDropTarget) {
        if current === target { current = nil }
        if let older = dropped, older !== target { older.fail() }
        dropped = target
    }

    /// XdndSelection is given up once no drag is in progress and no target waits to finish.
    private func releaseSelectionIfIdle() {
        guard current == nil, dropped == nil, wm.compositor.seat?.drag == nil else { return }
        selection?.offerDragSource(nil)
    }

    /// A client message: whether it is an XDND one (handled or ignored here).
    func clientMessage(_ e: xcb_client_message_event_t) -> Bool {
        let atoms = wm.atoms
        let d = e.data.data32
        switch e.type {
        case atoms["XdndStatus"]:
            guard e.format == 32, e.window == wm.selectionWindow, let target = current, target.window == d.0 else {
                return true
            }
            target.statusDidArrive(accepts: d.1 & 1 != 0, action: d.4)
        case atoms["XdndFinished"]:
            guard e.format == 32, e.window == wm.selectionWindow, let target = dropped, target.window == d.0 else {
                return true
            }
            target.finishedDidArrive(accepted: d.1 & 1 != 0)
        case atoms["XdndEnter"], atoms["XdndPosition"], atoms["XdndLeave"], atoms["XdndDrop"]:
            // An X drag over a Wayland surface (`XDrag`); to another window: ignored.
            xDrag?.clientMessage(e)
        default:
            return false
        }
        return true
    }

    /// A window was destroyed: a target of it ends (a dropped one cancels its source).
    func windowDidDestroy(_ id: xcb_window_t) {
        for target in [current, dropped].compactMap({ $0 }) where target.window == id || target.messageWindow == id {
            target.windowDidGo()
        }
        xDrag?.windowDidDestroy(id)
    }

    func shutdown() {
        dragChanged?.remove()
        dragChanged = nil
        for target in [current, dropped].compactMap({ $0 }) { target.fail() }
        xDrag?.end()
        current = nil
        dropped = nil
    }

    // MARK: Writing

    /// Sends an XDND client message about `window` to `destination` (its XdndProxy or itself),
    /// in a turn of the XWM.
    func send(_ type: String, to destination: xcb_window_t, window: xcb_window_t, _ data: [UInt32]) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = window
        event.type = wm.atoms[type]
        withUnsafeMutableBytes(of: &event.data) { raw in
            for (index, word) in data.prefix(5).enumerated() {
                raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self)
            }
        }
        let message = event
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            var event = message
            withUnsafeBytes(of: &event) { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    xcb_send_event(
                        self.wm.connection, 0, destination, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
                }
            }
        }
        wm.flushAndReadSoon()
    }
}
