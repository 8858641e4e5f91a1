import CStrataServerGlue
import CWaylandServer
import CXCB
import Glibc

/// An X window under a Wayland drag, spoken to through XDND with the XWM as the source
/// (`XDND`, Wayland → X).
///
/// At the enter the window's `XdndAware` (the version) and `XdndProxy` (where messages go: a
/// proxy that names itself) are read, and the drag's source is offered on XdndSelection; once
/// both are in, XdndEnter (the targets; `XdndTypeList` on the XWM's window when more than three)
/// and XdndPosition go. One XdndPosition at a time: motion while one waits for its XdndStatus
/// is sent, the latest point only, when the status comes. The status's accept and action are
/// the source's target and action, as a Wayland destination's accept and set_actions would be.
/// The release drops when the window accepted with an action (XdndDrop), else leaves
/// (XdndLeave); after the drop XdndFinished finishes the source, a refusal, the window's end or
/// `XDND.finishTimeout` cancel it. A window without XdndAware (or of an older version) hears
/// nothing and accepts nothing.
final class XDropTarget: DragDestination {
    unowned let dnd: XDND
    /// The X top-level window under the drag.
    let window: xcb_window_t
    private(set) weak var source: DataSource?

    enum Stage { case looking, entered, dropped, ended }
    private(set) var stage = Stage.looking
    /// The version spoken (the window's, at most ours; 0 until read or when not aware).
    private(set) var version: UInt32 = 0
    /// Where messages go: the window's XdndProxy, or the window itself.
    private(set) var messageWindow: xcb_window_t = 0
    /// The X targets offered, once XdndSelection is owned for the source.
    private var targets: [xcb_atom_t]?
    private var propertiesRead = false
    /// The point in root coordinates (X's 16 bits).
    private var point: (x: Int16, y: Int16)
    private var positionIsWaiting = false
    private var positionIsPending = false
    /// The window's last XdndStatus.
    private(set) var accepts = false
    private var timer: LoopTimer?

    init(dnd: XDND, window: xcb_window_t, source: DataSource, x: Double, y: Double) {
        self.dnd = dnd
        self.window = window
        self.source = source
        point = Self.rootPoint(x, y)
    }

    private var wm: XWM { dnd.wm }

    private static func rootPoint(_ x: Double, _ y: Double) -> (x: Int16, y: Int16) {
        (
            Int16(clamping: Int(min(max(x.rounded(.down), -32768), 32767))),
            Int16(clamping: Int(min(max(y.rounded(.down), -32768), 32767)))
        )
    }

    // MARK: Enter

    func start() {
        guard let source, let selection = dnd.selection else { return end() }
        selection.offerDragSource(source) { [weak self] targets in
            guard let self, stage == .looking else { return }
            self.targets = targets
            enterWhenReady()
        }
        readProperties()
    }

    /// XdndAware and XdndProxy of the window, then the proxy's own XdndProxy (it must name itself).
    private func readProperties() {
        let atoms = wm.atoms
        wm.writeWhenWritable { [weak self] in
            guard let self, stage == .looking else { return }
            let connection = wm.connection
            let aware = xcb_get_property(connection, 0, window, atoms["XdndAware"], XCB_ATOM_ATOM.rawValue, 0, 1)
            let proxy = xcb_get_property(connection, 0, window, atoms["XdndProxy"], XCB_ATOM_WINDOW.rawValue, 0, 1)
            var awareVersion: UInt32?
            wm.replies.expect(aware.sequence) { reply in awareVersion = Self.firstWord(reply) }
            wm.replies.expect(proxy.sequence) { [weak self] reply in
                guard let self, stage == .looking else { return }
                guard let version = awareVersion, version >= XDND.oldestVersion else { return end() }
                self.version = min(version, XDND.version)
                guard let proxyWindow = Self.firstWord(reply), proxyWindow != 0 else {
                    messageWindow = window
                    propertiesRead = true
                    return enterWhenReady()
                }
                readProxy(proxyWindow)
            }
        }
        wm.flushAndReadSoon()
    }

    private func readProxy(_ proxy: xcb_window_t) {
        let atoms = wm.atoms
        let cookie = xcb_get_property(wm.connection, 0, proxy, atoms["XdndProxy"], XCB_ATOM_WINDOW.rawValue, 0, 1)
        wm.replies.expect(cookie.sequence) { [weak self] reply in
            guard let self, stage == .looking else { return }
            // A proxy that does not name itself is a stale one (the spec): the window itself.
            messageWindow = Self.firstWord(reply) == proxy ? proxy : window
            propertiesRead = true
            enterWhenReady()
        }
    }

    private static func firstWord(_ reply: UnsafeMutableRawPointer?) -> UInt32? {
        guard let reply else { return nil }
        let typed = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
        guard typed.pointee.format == 32, xcb_get_property_value_length(typed) >= 4,
            let value = xcb_get_property_value(typed)
        else { return nil }
        return value.loadUnaligned(as: UInt32.self)
    }

    private func enterWhenReady() {
        guard stage == .looking, propertiesRead, let targets, let source, source.isLive else { return }
        stage = .entered
        let more = targets.count > 3
        if more {
            let atoms = wm.atoms
            let list = targets
            wm.writeWhenWritable { [weak self] in
                guard let self else { return }
                var words = list
                xcb_change_property(
                    wm.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), wm.selectionWindow, atoms["XdndTypeList"],
                    XCB_ATOM_ATOM.rawValue, 32, UInt32(words.count), &words)
            }
        }
        let first = targets.prefix(3) + Array(repeating: 0, count: 3 - min(targets.count, 3))
        dnd.send(
            "XdndEnter", to: messageWindow, window: window,
            [wm.selectionWindow, version << 24 | (more ? 1 : 0)] + first)
        sendPosition()
    }

    // MARK: Motion and status

    func dragDidMove(x: Double, y: Double) {
        point = Self.rootPoint(x, y)
        guard stage == .entered else { return }
        if positionIsWaiting {
            positionIsPending = true
        } else {
            sendPosition()
        }
    }

    /// The XDND action asked for: copy when the source offers it, else move, else ask.
    private var requestedAction: xcb_atom_t {
        let offered = source?.offeredActions ?? 0
        let name =
            offered & WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue != 0
            ? "XdndActionCopy"
            : offered & WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue != 0 ? "XdndActionMove" : "XdndActionAsk"
        return wm.atoms[name]
    }

    private func sendPosition() {
        positionIsWaiting = true
        positionIsPending = false
        let xy = UInt32(UInt16(bitPattern: point.x)) << 16 | UInt32(UInt16(bitPattern: point.y))
        dnd.send(
            "XdndPosition", to: messageWindow, window: window,
            [wm.selectionWindow, 0, xy, UInt32(XCB_CURRENT_TIME), requestedAction])
    }

    /// XdndStatus: whether the window takes the data here, and with which action.
    func statusDidArrive(accepts: Bool, action: xcb_atom_t) {
        guard stage == .entered, positionIsWaiting else { return }
        positionIsWaiting = false
        self.accepts = accepts
        if let source, source.isLive {
            source.destinationDidAccept(accepts ? source.mimeTypes.first : nil)
            source.actionDidChange(to: accepts ? waylandAction(action) : 0)
        }
        if positionIsPending { sendPosition() }
    }

    /// The Wayland action of an XDND one the window answered: one the source offers (else the
    /// one asked for).
    private func waylandAction(_ action: xcb_atom_t) -> UInt32 {
        let atoms = wm.atoms
        let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
        let move = WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
        let ask = WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue
        let offered = source?.offeredActions ?? 0
        let answered: UInt32 =
            switch action {
            case atoms["XdndActionCopy"]: copy
            case atoms["XdndActionMove"]: move
            case atoms["XdndActionAsk"]: ask
            default: 0
            }
        if answered & offered != 0 { return answered }
        let asked = requestedAction
        return asked == atoms["XdndActionCopy"]
            ? copy & offered : asked == atoms["XdndActionMove"] ? move & offered : ask & offered
    }

    // MARK: Leave, drop, finish

    func dragDidLeave() {
        guard stage == .entered || stage == .looking else { return }
        if stage == .entered {
            dnd.send("XdndLeave", to: messageWindow, window: window, [wm.selectionWindow, 0, 0, 0, 0])
        }
        if let source, source.isLive, source.dragState == .dragging { source.destinationDidLeave() }
        end()
    }

    func dragWillDrop() -> Bool {
        guard stage == .entered, accepts, let source, source.isLive, source.acceptedMimeType != nil,
            source.currentAction != 0
        else {
            dragDidLeave()
            return false
        }
        stage = .dropped
        dnd.send(
            "XdndDrop", to: messageWindow, window: window, [wm.selectionWindow, 0, UInt32(XCB_CURRENT_TIME), 0, 0])
        timer = LoopTimer(eventLoop: wm.compositor.display.eventLoop) { [weak self] in self?.fail() }
        timer?.schedule(milliseconds: dnd.finishTimeout)
        dnd.targetDidDrop(self)
        return true
    }

    /// XdndFinished: the source is finished (or, refused by a version 5 window, cancelled).
    func finishedDidArrive(accepted: Bool) {
        guard stage == .dropped else { return }
        if accepted || version < 5 {
            source?.dragDidFinish()
        } else {
            source?.dragDidFail()
        }
        end()
    }

    /// The window went: a dropped source is cancelled, the drag hears nothing more from here.
    func windowDidGo() {
        if stage == .dropped { source?.dragDidFail() }
        end()
    }

    /// Ends without a finish: a dropped source is cancelled.
    func fail() {
        if stage == .dropped { source?.dragDidFail() }
        end()
    }

    private func end() {
        guard stage != .ended else { return }
        stage = .ended
        timer?.cancel()
        timer = nil
        dnd.targetDidEnd(self)
    }
}
