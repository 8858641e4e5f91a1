import CStrataServerGlue
import CWaylandServer
import CXCB
import Glibc

/// An X client's drag over Wayland clients' surfaces (`XDND`, X → Wayland), the XWM as the XDND
/// target.
///
/// The XWM's drop window (input only, override-redirect, `XdndAware` version 5) is mapped over
/// the whole layout, above every X window, while an X client owns XdndSelection, a pointer
/// button pressed on an X window is held (rootless Xwayland keeps the pointer through the
/// press's implicit grab) and the pointer is over a Wayland client's surface; over an X window, or with no button held,
/// it is unmapped, so X clients find their own windows there. X sources find it as the topmost
/// XdndAware window under the pointer and speak XDND to it:
/// - XdndEnter (its source window must own XdndSelection; types in the message, or its
///   `XdndTypeList` when more than three): the types are named as the clipboard's TARGETS are
///   and become an `XDragSource`, whose receives are conversions of XdndSelection;
/// - XdndPosition (root coordinates, the global layout's): the Wayland surface under the point
///   gets wl_data_device enter (with a new offer), motion (only while its socket has room) and
///   leave; every position is answered by an XdndStatus (at most one queued) carrying whether
///   the Wayland destination accepted a type and the action chosen between both sides;
/// - XdndLeave: the destination is left; XdndDrop: wl_data_device drop when the destination
///   accepted a type and an action, then XdndFinished once its offer finished (or was
///   destroyed, or `finishTimeout` milliseconds passed: refused then); otherwise XdndFinished
///   refusing at once.
/// Messages about another window than the drag's source (XdndEnter's l[0]) are ignored; the
/// source's owner change (it quit, or gave XdndSelection up) or its window's end ends the drag.
final class XDrag {
    /// How many types of an XdndTypeList are read.
    static let maxTypes: UInt32 = 64

    unowned let dnd: XDND
    /// The XWM's XdndAware window X sources drop on.
    let window: xcb_window_t
    private(set) var isMapped = false
    /// How long a dropped Wayland destination has to finish (milliseconds).
    var finishTimeout: Int32 = 5000

    enum Stage { case idle, naming, entered, dropped }
    private(set) var stage = Stage.idle
    /// The X client's window that sent XdndEnter (0: no drag).
    private(set) var sourceWindow: xcb_window_t = 0
    private(set) var source: XDragSource?
    /// The dnd_action the X source asks for (its XdndPosition's action).
    private var requestedAction = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
    /// The last XdndPosition's point (global layout coordinates).
    private var point: (x: Double, y: Double)?
    private var time: UInt32 = 0

    /// The Wayland surface under the point, its client's data device and the offer made to it.
    private(set) weak var focus: Surface?
    private weak var focusDevice: DataDevice?
    private(set) weak var focusOffer: DataOffer?
    private var dropAction: UInt32 = 0
    private var timer: LoopTimer?
    private var statusIsQueued = false
    /// Bumped at each drag: late replies of an older one are dropped.
    private var generation = 0

    private var wm: XWM { dnd.wm }
    private var seat: Seat? { wm.compositor.seat }

    /// Creates the drop window (in the XWM's setup).
    init(dnd: XDND) {
        self.dnd = dnd
        let wm = dnd.wm
        window = xcb_generate_id(wm.connection)
        var overrideRedirect: UInt32 = 1
        xcb_create_window(
            wm.connection, 0, window, wm.root, 0, 0, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0,
            XCB_CW_OVERRIDE_REDIRECT.rawValue, &overrideRedirect)
        var version = XDND.version
        xcb_change_property(
            wm.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, wm.atoms["XdndAware"],
            XCB_ATOM_ATOM.rawValue, 32, 1, &version)
    }

    // MARK: The drop window

    /// Whether an X client owns XdndSelection (an X drag may be under way).
    private var xOwner: xcb_window_t { dnd.selection?.xOwner ?? 0 }

    /// The pointer moved to (x, y) (global), `buttonsHeld` (pressed on an X window) or not: the
    /// drop window is mapped while an X client owns XdndSelection, such a button is held and the
    /// point is over a Wayland client's surface.
    func pointerDidMove(x: Double, y: Double, buttonsHeld: Bool) {
        guard buttonsHeld, xOwner != 0, let surface = surface(at: x, y)?.surface else { return setMapped(false) }
        setMapped(surface.client != wm.xwayland.client)
    }

    private func setMapped(_ mapped: Bool) {
        guard mapped != isMapped, !wm.isShutDown else { return }
        isMapped = mapped
        let bounds = layoutBounds()
        wm.writeWhenWritable { [weak self] in
            guard let self, isMapped == mapped else { return }
            let connection = wm.connection
            if mapped {
                var values: [UInt32] = [
                    UInt32(bitPattern: bounds.x), UInt32(bitPattern: bounds.y), bounds.width, bounds.height,
                    XCB_STACK_MODE_ABOVE.rawValue,
                ]
                let mask =
                    XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
                    | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_STACK_MODE.rawValue
                xcb_configure_window(connection, window, UInt16(mask), &values)
                xcb_map_window(connection, window)
            } else {
                xcb_unmap_window(connection, window)
            }
        }
        wm.flushAndReadSoon()
    }

    /// The rectangle of every screen of the layout (X's 16 bits).
    private func layoutBounds() -> (x: Int32, y: Int32, width: UInt32, height: UInt32) {
        let outputs = wm.compositor.scene.outputs
        guard !outputs.isEmpty else { return (0, 0, 1, 1) }
        let minX = outputs.map { $0.screen.origin.x }.min() ?? 0
        let minY = outputs.map { $0.screen.origin.y }.min() ?? 0
        let maxX = outputs.map { $0.screen.origin.x + Double($0.width) }.max() ?? 1
        let maxY = outputs.map { $0.screen.origin.y + Double($0.height) }.max() ?? 1
        func clamp(_ v: Double, _ low: Double, _ high: Double) -> Double { min(max(v.rounded(.down), low), high) }
        let x = clamp(minX, -32768, 32767), y = clamp(minY, -32768, 32767)
        return (
            Int32(x), Int32(y), UInt32(clamp(maxX - x, 1, 32767)), UInt32(clamp(maxY - y, 1, 32767))
        )
    }

    // MARK: XDND messages

    /// A client message sent to the drop window.
    func clientMessage(_ e: xcb_client_message_event_t) {
        let atoms = wm.atoms
        let d = e.data.data32
        guard e.format == 32, e.window == window else { return }
        switch e.type {
        case atoms["XdndEnter"]:
            enter(from: d.0, version: d.1 >> 24, hasTypeList: d.1 & 1 != 0, types: [d.2, d.3, d.4])
        case atoms["XdndPosition"]:
            guard d.0 == sourceWindow, stage == .naming || stage == .entered else { return }
            let x = Int16(truncatingIfNeeded: d.2 >> 16), y = Int16(truncatingIfNeeded: d.2 & 0xffff)
            position(x: Double(x), y: Double(y), time: d.3, action: d.4)
        case atoms["XdndLeave"]:
            guard d.0 == sourceWindow, stage == .naming || stage == .entered else { return }
            end()
        case atoms["XdndDrop"]:
            guard d.0 == sourceWindow, stage == .naming || stage == .entered else { return }
            drop()
        default:
            break
        }
    }

    private func enter(from sender: xcb_window_t, version: UInt32, hasTypeList: Bool, types: [xcb_atom_t]) {
        // Only the owner of XdndSelection drags; a second enter while its types are named waits.
        guard sender != 0, sender == xOwner, version >= XDND.oldestVersion, stage != .naming else { return }
        if stage != .idle { end() }
        generation &+= 1
        let generation = generation
        stage = .naming
        sourceWindow = sender
        guard hasTypeList else { return name(types.filter { $0 != 0 }, generation: generation) }
        let atoms = wm.atoms
        wm.writeWhenWritable { [weak self] in
            guard let self, self.generation == generation else { return }
            let cookie = xcb_get_property(
                wm.connection, 0, sender, atoms["XdndTypeList"], XCB_ATOM_ATOM.rawValue, 0, Self.maxTypes)
            wm.replies.expect(cookie.sequence) { [weak self] reply in
                guard let self, self.generation == generation else { return }
                var list: [xcb_atom_t] = []
                if let reply {
                    let typed = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
                    let count = Int(xcb_get_property_value_length(typed)) / 4
                    if typed.pointee.format == 32, count > 0, let value = xcb_get_property_value(typed) {
                        for index in 0..<count {
                            list.append(value.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                        }
                    }
                }
                name(list.isEmpty ? types.filter { $0 != 0 } : list, generation: generation)
            }
        }
        wm.flushAndReadSoon()
    }

    /// The types named as MIME types: the drag's source.
    private func name(_ types: [xcb_atom_t], generation: Int) {
        guard let selection = dnd.selection else { return end() }
        selection.offerDragTypes(types, owner: sourceWindow) { [weak self] data in
            guard let self, self.generation == generation, stage == .naming else { return }
            if let data { source = XDragSource(data: data, drag: self, actions: requestedAction) }
            stage = .entered
            updateFocus()
            queueStatus()
        }
    }

    private func position(x: Double, y: Double, time: UInt32, action: xcb_atom_t) {
        point = (x, y)
        self.time = time
        let atoms = wm.atoms
        let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
        requestedAction =
            switch action {
            case atoms["XdndActionMove"]: WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
            case atoms["XdndActionAsk"]: WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue
            default: copy
            }
        source?.offeredActionsDidChange(to: requestedAction)
        if stage == .entered { updateFocus() }
        queueStatus()
    }

    // MARK: The Wayland destination

    private func surface(at x: Double, _ y: Double) -> (surface: Surface, x: Double, y: Double)? {
        let scene = wm.compositor.scene
        guard
            let output = scene.outputs.first(where: {
                x >= $0.screen.origin.x && y >= $0.screen.origin.y && x < $0.screen.origin.x + Double($0.width)
                    && y < $0.screen.origin.y + Double($0.height)
            }),
            let hit = scene.surface(at: x - output.screen.origin.x, y - output.screen.origin.y, on: output),
            !hit.surface.isDestroyed
        else { return nil }
        return (hit.surface, hit.x, hit.y)
    }

    /// Enter, motion or leave for the Wayland surface under the point (none over an X window).
    private func updateFocus() {
        guard let seat, let point else { return }
        var hit = surface(at: point.x, point.y)
        if let found = hit,
            found.surface.client == wm.xwayland.client || !seat.acceptsPointerFocus(found.surface.client)
        {
            hit = nil
        }
        if let hit, hit.surface === focus {
            if let device = focusDevice, !device.isDestroyed, BackpressureSender.hasRoom(device.client) {
                wl_data_device_send_motion(
                    device.resource, time, wl_fixed_from_double(hit.x), wl_fixed_from_double(hit.y))
            }
            return
        }
        leaveFocus()
        guard let hit, let source, source.isLive else { return }
        focus = hit.surface
        guard let device = seat.clipboard.dragDevice(of: hit.surface.client),
            let offer = DataOffer.announceDrag(source, on: device)
        else { return }
        focusDevice = device
        focusOffer = offer
        wl_data_device_send_enter(
            device.resource, seat.nextSerial(), hit.surface.resource, wl_fixed_from_double(hit.x),
            wl_fixed_from_double(hit.y), offer.resource)
        offer.chooseAction()
    }

    private func leaveFocus() {
        focusOffer?.dragDidLeave()
        if let device = focusDevice, !device.isDestroyed { wl_data_device_send_leave(device.resource) }
        focus = nil
        focusDevice = nil
        focusOffer = nil
    }

    /// What the destination accepts or the action changed: the X source hears it.
    func negotiationDidChange() { queueStatus() }

    private var accepts: Bool {
        guard let source, source.isLive, focusOffer != nil else { return false }
        return source.acceptedMimeType != nil && source.currentAction != 0
    }

    private func xAction(_ action: UInt32) -> xcb_atom_t {
        let atoms = wm.atoms
        switch action {
        case WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue: return atoms["XdndActionCopy"]
        case WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue: return atoms["XdndActionMove"]
        case WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue: return atoms["XdndActionAsk"]
        default: return 0
        }
    }

    /// XdndStatus to the source with the state when it is written (one queued at a time: a
    /// flood of positions gets one answer per turn of the XWM).
    private func queueStatus() {
        guard !statusIsQueued, sourceWindow != 0 else { return }
        statusIsQueued = true
        let generation = generation
        wm.writeWhenWritable { [weak self] in
            guard let self else { return }
            statusIsQueued = false
            guard self.generation == generation, stage == .naming || stage == .entered else { return }
            let accepts = accepts
            let action = accepts ? xAction(source?.currentAction ?? 0) : 0
            // Bit 1: positions are wanted everywhere (the empty rectangle says so too).
            dnd.send("XdndStatus", to: sourceWindow, window: sourceWindow, [window, accepts ? 3 : 2, 0, 0, action])
        }
        wm.flushAndReadSoon()
    }

    // MARK: Drop, finish, end

    private func drop() {
        setMapped(false)
        guard stage == .entered, accepts, let source, let offer = focusOffer, !offer.isDestroyed,
            let device = focusDevice, !device.isDestroyed, offer.dropWillHappen()
        else { return finish(accepted: false) }
        stage = .dropped
        dropAction = source.currentAction
        wl_data_device_send_drop(device.resource)
        wl_data_device_send_leave(device.resource)
        focus = nil
        focusDevice = nil
        timer = LoopTimer(eventLoop: wm.compositor.display.eventLoop) { [weak self] in
            self?.finish(accepted: false)
        }
        timer?.schedule(milliseconds: finishTimeout)
    }

    /// The dropped destination finished (or gave up: its offer went, or it refused).
    func destinationDidFinish(accepted: Bool) {
        guard stage == .dropped else { return }
        finish(accepted: accepted)
    }

    /// XdndFinished to the source, then the end.
    private func finish(accepted: Bool) {
        let action = accepted ? xAction(dropAction) : 0
        dnd.send("XdndFinished", to: sourceWindow, window: sourceWindow, [window, accepted ? 1 : 0, action, 0, 0])
        end()
    }

    /// The drag is over: the destination left (before a drop), the source forgotten.
    func end() {
        if stage != .dropped { leaveFocus() }
        focus = nil
        focusDevice = nil
        focusOffer = nil
        source?.cancel()
        source = nil
        timer?.cancel()
        timer = nil
        stage = .idle
        sourceWindow = 0
        point = nil
        generation &+= 1
    }

    /// XdndSelection's X owner changed: a drag of another window ends (its data is gone).
    func ownerDidChange(to owner: xcb_window_t) {
        if owner == 0 { setMapped(false) }
        if stage != .idle, owner != sourceWindow { end() }
    }

    /// A window was destroyed: the drag of its source ends.
    func windowDidDestroy(_ id: xcb_window_t) {
        if stage != .idle, id == sourceWindow { end() }
    }
}
