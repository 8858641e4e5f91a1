import CWaylandServer
import CXCB
import Glibc
import StrataModel

/// Strata's X window manager, an X client of Xwayland over the `-wm` socket (xcb). It redirects
/// the root's substructure (so every toplevel's map and configure comes here first), advertises
/// itself (`_NET_SUPPORTING_WM_CHECK`), and turns each mapped toplevel into an `X11Window`, a
/// model window. Events and replies are read on the event loop (the connection's fd); property
/// reads never wait (the replies are applied as they come; each property at most
/// `maxPropertyWords` 32-bit words). At most `maxWindowsPerClient` X windows of one X client
/// are managed (more are left unmapped, logged once per client), at most `maxWindows` of all;
/// what the X clients make Xwayland's connection hold is bounded per X client
/// (`xwaylandBudgetPassedHighWater`, XWM+Budget.swift).
public final class XWM: X11WindowHost {
    unowned let xwayland: Xwayland
    var compositor: Compositor { xwayland.compositor }
    let connection: OpaquePointer
    let atoms: XAtoms
    let root: xcb_window_t
    private let checkWindow: xcb_window_t
    /// The hidden window that owns CLIPBOARD and PRIMARY for Wayland sources and receives the
    /// conversions of X owners' data (`XSelection`).
    let selectionWindow: xcb_window_t
    /// XFixes' first event code (its SelectionNotify).
    private let xfixesEvent: UInt8
    /// Replies asked for and not waited for (the selections').
    let replies = XReplyQueue()
    /// CLIPBOARD and PRIMARY, bridged to the seat's clipboard and primary selection.
    private(set) var selections: [XSelection] = []
    /// The X clipboard manager (`CLIPBOARD_MANAGER`): keeps what an X application copied when it
    /// quits.
    private(set) var clipboardManager: XClipboardManager?
    /// The MIME types the XWM made X atoms of (X never frees an atom): at most
    /// `maxCreatedAtoms`; after that only atoms that exist already are looked up.
    var createdAtomNames: Set<String> = []
    static let maxCreatedAtoms = 4096
    private var watcher: EventSource?
    private var windows: [UInt32: X11Window] = [:]
    /// Which of Xwayland's wl_surfaces shows which window.
    private(set) lazy var surfaceAssociation = XwaylandSurfaceAssociation(wm: self)
    /// Decides what X events about managed windows do in the model (`XWMHandler`).
    private(set) lazy var controller = X11WindowController(wm: self)
    private var handler: XWMHandler { controller }
    /// The EWMH desktop, work area, stacking list and per-window desktop properties.
    private(set) lazy var desktop = XWMDesktop(wm: self)
    /// `_NET_WM_PING` of windows asked to close.
    private(set) lazy var ping = XWMPing(wm: self)
    /// Drag and drop between X and Wayland clients.
    private(set) lazy var dnd = XDND(wm: self)
    private var focused: UInt32 = 0
    private var observer: ObserverToken?
    private(set) var isShutDown = false

    /// What `_NET_SUPPORTED` lists: the EWMH hints the XWM reads or answers.
    public static let supported = coreSupported + XWMDesktop.supported
    private static let coreSupported = [
        "_NET_SUPPORTING_WM_CHECK", "_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "_NET_WM_PID", "_NET_CLIENT_LIST",
        "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NORMAL", "_NET_WM_WINDOW_TYPE_DIALOG",
        "_NET_WM_WINDOW_TYPE_UTILITY",
        "_NET_WM_WINDOW_TYPE_TOOLBAR", "_NET_WM_WINDOW_TYPE_SPLASH", "_NET_WM_WINDOW_TYPE_DOCK",
        "_NET_WM_WINDOW_TYPE_DESKTOP", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_WINDOW_TYPE_MENU",
        "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", "_NET_WM_WINDOW_TYPE_POPUP_MENU", "_NET_WM_WINDOW_TYPE_TOOLTIP",
        "_NET_WM_STATE", "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ",
        "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_HIDDEN", "_NET_WM_STATE_DEMANDS_ATTENTION", "_NET_WM_MOVERESIZE",
        "_NET_WM_STATE_MODAL",
    ]

    static let maxPropertyWords: UInt32 = 1024
    /// Toplevel X windows of one X client (an X client is its resource id base): a program has
    /// tens, a browser or an IDE hundreds. Past it the client's new windows are ignored (never
    /// mapped) and a line is logged once for the client; other clients are not affected.
    static let maxWindowsPerClient = 4096
    /// Toplevel X windows of all X clients together: sixteen clients at their cap (each window
    /// costs the XWM about a kilobyte); Xwayland takes at most 256 X clients.
    static let maxWindows = 16 * maxWindowsPerClient
    /// Managed windows by X client (resource id base).
    private var windowsByClient: [UInt32: Int] = [:]
    /// X clients whose window cap was logged.
    private var loggedAtWindowCap: Set<UInt32> = []
    /// Set while X-Resource is asked what each X client holds (`XWM+Budget.swift`).
    var isCheckingBudget = false
    var loggedNoXResource = false

    /// The X windows managed now (tests).
    var windowCount: Int { windows.count }

    private init(
        xwayland: Xwayland, connection: OpaquePointer, atoms: XAtoms, root: xcb_window_t, checkWindow: xcb_window_t,
        selectionWindow: xcb_window_t, xfixesEvent: UInt8
    ) {
        self.xwayland = xwayland
        self.connection = connection
        self.atoms = atoms
        self.root = root
        self.checkWindow = checkWindow
        self.selectionWindow = selectionWindow
        self.xfixesEvent = xfixesEvent
    }

    /// Connects over `fd` (taken) to a ready Xwayland and becomes its window manager.
    static func connect(fd: Int32, xwayland: Xwayland) -> Result<XWM, XwaylandError> {
        // libxcb and libxcb-xfixes are opened at their first use (CDeferredLibraries): missing,
        // either is this error.
        for (library, function) in [("libxcb", "xcb_connect_to_fd"), ("libxcb-xfixes", "xcb_xfixes_query_version")] {
            var loadError: UnsafePointer<CChar>?
            guard strata_deferred_open(function, &loadError) == 0 else { continue }
            Glibc.close(fd)
            return .failure(.setup("cannot load \(library): \(loadError.map { String(cString: $0) } ?? "not found")"))
        }
        guard let connection = xcb_connect_to_fd(fd, nil) else { return .failure(.setup("xcb_connect_to_fd failed")) }
        guard xcb_connection_has_error(connection) == 0, let setup = xcb_get_setup(connection),
            let screen = xcb_setup_roots_iterator(setup).data, let atoms = XAtoms(connection: connection)
        else {
            xcb_disconnect(connection)
            return .failure(.setup("the X connection failed"))
        }
        let root = screen.pointee.root
        // SubstructureRedirect on the root: only one client may hold it (the window manager).
        var mask: UInt32 =
            XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
            | XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        let cookie = xcb_change_window_attributes_checked(connection, root, XCB_CW_EVENT_MASK.rawValue, &mask)
        if let error = xcb_request_check(connection, cookie) {
            free(error)
            xcb_disconnect(connection)
            return .failure(.setup("another window manager holds the X display"))
        }
        _ = strata_xcb_composite_redirect_subwindows(connection, root)
        let check = xcb_generate_id(connection)
        xcb_create_window(
            connection, 0, check, root, -1, -1, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue),
            0, 0, nil)
        // XFixes (selection owner notifications): its version is sent before use, as the
        // extension asks; the reply is not needed.
        guard let xfixes = xcb_get_extension_data(connection, strata_xcb_xfixes_id()), xfixes.pointee.present != 0
        else {
            xcb_disconnect(connection)
            return .failure(.setup("the X server has no XFixes"))
        }
        xcb_discard_reply(connection, xcb_xfixes_query_version(connection, 5, 0).sequence)
        let selectionWindow = xcb_generate_id(connection)
        var selectionMask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_create_window(
            connection, 0, selectionWindow, root, -1, -1, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue),
            0, XCB_CW_EVENT_MASK.rawValue, &selectionMask)
        let wm = XWM(
            xwayland: xwayland, connection: connection, atoms: atoms, root: root, checkWindow: check,
            selectionWindow: selectionWindow, xfixesEvent: xfixes.pointee.first_event)
        strata_xcb_res_prefetch(connection)
        wm.setRootCursor()
        // Selections first: X clients are let in once WM_S0 is owned (advertise), and an owner
        // change after the XFixes selection is reported.
        wm.startSelections()
        wm.startClipboardManager()
        wm.dnd.startXDrags()
        wm.advertise()
        wm.watcher = EventSource(display: xwayland.compositor.display, fd: xcb_get_file_descriptor(connection)) {
            [weak wm] _ in
            wm?.pump()
        }
        wm.observer = xwayland.compositor.windows.notifications.addObserver(phase: .wire) { [weak wm] posted in
            wm?.modelDidPost(posted.notification)
        }
        _ = wm.surfaceAssociation
        wm.flushAndReadSoon()
        return .success(wm)
    }

    private func advertise() {
        var check = checkWindow
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atoms["_NET_SUPPORTING_WM_CHECK"],
            XCB_ATOM_WINDOW.rawValue, 32, 1, &check)
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), checkWindow, atoms["_NET_SUPPORTING_WM_CHECK"],
            XCB_ATOM_WINDOW.rawValue, 32, 1, &check)
        let name = Array("Strata".utf8)
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), checkWindow, atoms["_NET_WM_NAME"],
            atoms["UTF8_STRING"], 8, UInt32(name.count), name)
        var supported = Self.supported.map { atoms[$0] }
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atoms["_NET_SUPPORTED"],
            XCB_ATOM_ATOM.rawValue, 32, UInt32(supported.count), &supported)
        if let bus = xwayland.accessibilityBusAddress {
            let value = Array(bus.utf8)
            xcb_change_property(
                connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atoms["AT_SPI_BUS"],
                XCB_ATOM_STRING.rawValue, 8, UInt32(value.count), value)
        }
        setActiveWindow(0)
        desktop.advertise()
        // The ICCCM manager selection of screen 0: Xwayland accepts X clients on the listening
        // sockets only once the window manager owns it.
        xcb_set_selection_owner(connection, checkWindow, atoms["WM_S0"], UInt32(XCB_CURRENT_TIME))
    }

    /// Bridges CLIPBOARD and PRIMARY (`XSelection`): XFixes reports their owners, the seat's
    /// selections report theirs. A reader that closed its pipe is an error result, not SIGPIPE.
    private func startSelections() {
        signal(SIGPIPE, SIG_IGN)
        guard let seat = compositor.seat else { return }
        let mask =
            XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        // In 4-byte units (BIG-REQUESTS asked once here, at the setup).
        let maxRequestBytes = Int(xcb_get_maximum_request_length(connection)) * 4
        let bridged: [(String, String, Selection?)] = [
            ("CLIPBOARD", "_STRATA_CLIPBOARD", seat.clipboard),
            ("PRIMARY", "_STRATA_PRIMARY", seat.primarySelection),
            // Drag and drop (`XDND`): a drag's source, not a seat selection.
            ("XdndSelection", "_STRATA_XDND", nil),
        ]
        for (name, property, selection) in bridged {
            let atom = name == "PRIMARY" ? XCB_ATOM_PRIMARY.rawValue : atoms[name]
            xcb_xfixes_select_selection_input(connection, selectionWindow, atom, mask)
            let bridge = XSelection(
                wm: self, atom: atom, property: atoms[property], selection: selection,
                maxRequestBytes: maxRequestBytes)
            selections.append(bridge)
            selection?.watcherDidAppear(bridge)
            // An owner from before (an X client let in by an earlier XWM of this Xwayland).
            let cookie = xcb_get_selection_owner(connection, atom)
            replies.expect(cookie.sequence) { [weak bridge] reply in
                guard let reply, let bridge else { return }
                let owner = reply.assumingMemoryBound(to: xcb_get_selection_owner_reply_t.self).pointee.owner
                if owner != 0, bridge.ownerChanges == 0 {
                    bridge.ownerDidChange(to: owner, timestamp: UInt32(XCB_CURRENT_TIME))
                }
            }
        }
    }

    /// Takes `CLIPBOARD_MANAGER` for the clipboard bridge (`XClipboardManager`).
    private func startClipboardManager() {
        guard let clipboard = selection(atoms["CLIPBOARD"]) else { return }
        let manager = XClipboardManager(wm: self, clipboard: clipboard)
        clipboardManager = manager
        clipboard.ownerWillChange = { [weak manager] previous, owner in
            manager?.ownerDidChange(from: previous, to: owner)
        }
        xcb_set_selection_owner(connection, selectionWindow, atoms["CLIPBOARD_MANAGER"], UInt32(XCB_CURRENT_TIME))
    }

    private func selection(_ atom: xcb_atom_t) -> XSelection? {
        selections.first { $0.atom == atom }
    }

    // MARK: Events and output (never blocking the loop)
    //
    // libxcb has no non-blocking write: a request that fills its output buffer, and
    // `xcb_flush`, wait until the socket takes the bytes. So the XWM only produces output while
    // the socket has room: each turn (`pump`) first checks that the socket is writable
    // (`poll`, no wait); when it is not, the XWM stops reading X (the watcher waits for
    // writable only) until it is. A turn handles at most `maxEventsPerTurn` events, so its
    // output (a few requests an event, one selection chunk) stays far below the free room a
    // writable socket has (three quarters of its buffer). What the model asks of X (a window's
    // `_NET_WM_STATE`, configure and iconic state, closes, the focus) is coalesced (latest
    // wins) and written once a turn (`writePending`), never while the socket is full. What
    // comes outside a turn (a Wayland client's selection, a Wayland reader's conversion, a
    // Wayland source's data for X) waits for one (`writeWhenWritable`).

    static let maxEventsPerTurn = 64

    /// Windows whose `_NET_WM_STATE` is to be written, and the frames windows are to be
    /// configured to, at the end of the turn (X's ConfigureNotify of an earlier configure may
    /// change the window's own geometry meanwhile).
    private var pendingStates: Set<UInt32> = []
    private var pendingConfigures: [UInt32: (x: Int32, y: Int32, width: Int32, height: Int32)] = [:]
    /// Whether the XWM waits for the X socket to become writable (reading X paused).
    private(set) var isWaitingForWritable = false
    /// How often the socket was found full (tests, logs).
    private(set) var timesOutputWasFull = 0
    /// X events handled so far (tests: at most `maxEventsPerTurn` in one dispatch of the loop).
    private(set) var eventsHandled = 0
    /// The event taken past a turn's bound (handled first in the next turn).
    private var heldEvent: UnsafeMutablePointer<xcb_generic_event_t>?
    /// Brings the next turn when events are left in xcb's buffer (the fd is not readable then).
    private lazy var continuation = LoopTimer(eventLoop: compositor.display.eventLoop) { [unowned self] in pump() }

    /// Whether the X socket takes bytes now without waiting (or has failed: the write then
    /// fails at once, and the connection's error ends the XWM).
    private func socketIsWritable() -> Bool {
        var entry = pollfd(fd: xcb_get_file_descriptor(connection), events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLOUT | POLLERR | POLLHUP | POLLNVAL) != 0
    }

    /// Sends what xcb holds when the socket has room; else waits for writable with reading
    /// paused. Whether the output went.
    @discardableResult
    private func flushIfWritable() -> Bool {
        guard !isShutDown else { return false }
        guard socketIsWritable() else {
            if !isWaitingForWritable {
                isWaitingForWritable = true
                timesOutputWasFull += 1
                watcher?.update(.writable)
            }
            return false
        }
        xcb_flush(connection)
        if isWaitingForWritable {
            isWaitingForWritable = false
            watcher?.update(.readable)
        }
        return true
    }

    /// Writes asked for outside a turn (a Wayland client's selection, a Wayland reader's
    /// conversion, a Wayland source's data for an X requestor, a budget query), in the order
    /// asked; written at the next turn, one at a time while the socket has room.
    private var deferredWrites: [() -> Void] = []
    /// Set during a turn, once the socket was found writable: writes go at once then.
    private var isInTurn = false
    /// Writes waiting for a turn (tests).
    var deferredWriteCount: Int { deferredWrites.count }

    /// Runs `write` (requests to X) now when in a turn with nothing deferred before it; else at
    /// the next turn while the socket has room. Out of a turn, a request could fill xcb's
    /// buffer while the socket is full, and xcb would wait for Xwayland. Callers keep what they
    /// defer bounded (one pending selection change per selection, at most one conversion or
    /// read per transfer, transfers capped).
    func writeWhenWritable(_ write: @escaping () -> Void) {
        if isInTurn, deferredWrites.isEmpty, !isShutDown { return write() }
        deferredWrites.append(write)
        scheduleRead()
    }

    /// The deferred writes, oldest first, each while the socket has room. Whether all went.
    private func writeDeferred() -> Bool {
        while !isShutDown, !deferredWrites.isEmpty {
            guard flushIfWritable() else { return false }
            deferredWrites.removeFirst()()
        }
        return true
    }

    /// The coalesced writes: each pending window's state and geometry, once.
    private func writePending() {
        guard !isShutDown, writeDeferred() else { return }
        let states = pendingStates, configures = pendingConfigures
        pendingStates.removeAll()
        pendingConfigures.removeAll()
        for (id, frame) in configures where windows[id] != nil {
            sendConfigure(id, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        let iconic = pendingIconic
        pendingIconic.removeAll()
        for id in iconic { if let window = windows[id] { sendIconic(window) } }
        for id in states { if let window = windows[id] { sendState(window) } }
        if let id = pendingFocus {
            pendingFocus = nil
            sendFocus(id)
        }
        desktop.writePending()
        let closes = pendingCloses
        pendingCloses.removeAll()
        for id in closes { if let window = windows[id] { sendClose(window) } }
    }

    /// One turn: the pending writes go when the socket has room; then, unless the XWM waits for
    /// writable, the events and replies xcb has are handled (at most `maxEventsPerTurn`; what is
    /// left comes at the next turn, after the other clients), and their output is sent.
    private func pump() {
        guard !isShutDown else { return }
        guard socketIsWritable() else {
            flushIfWritable()
            return
        }
        isInTurn = true
        defer { isInTurn = false }
        writePending()
        guard flushIfWritable() else { return }
        var handled = 0
        while !isShutDown {
            while !isShutDown, handled < Self.maxEventsPerTurn, let event = heldEvent ?? xcb_poll_for_event(connection)
            {
                heldEvent = nil
                handleInOrder(event)
                free(event)
                handled += 1
                eventsHandled += 1
            }
            guard !isShutDown else { return }
            replies.collect(connection)
            guard !isShutDown else { return }
            writePending()
            guard flushIfWritable() else { return }
            if handled >= Self.maxEventsPerTurn {
                // The rest at the next turn: what xcb holds already (an event, or replies the
                // flush read) makes the fd no readier, so the turn is brought by the timer.
                heldEvent = xcb_poll_for_queued_event(connection)
                continueSoon()
                break
            }
            // What the flush read: another round.
            if let event = xcb_poll_for_queued_event(connection) {
                heldEvent = event
                continue
            }
            if replies.collect(connection) > 0 {
                handled += 1
                continue
            }
            break
        }
        if !isShutDown, xcb_connection_has_error(connection) != 0 { shutdown() }
    }

    /// A turn on the loop's next dispatch (a 1 ms timer: an idle added from an idle runs in the
    /// same dispatch, before the other clients).
    private func continueSoon() {
        guard !isShutDown else { return }
        continuation?.schedule(milliseconds: 1)
    }

    /// Handles `event` after the replies X sent before it (xcb has read them: they came first
    /// on the connection), so that the XWM sees replies and events in X's order: an owner's end
    /// after the answer to a read sent before it, a window's destruction after its properties.
    private func handleInOrder(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        replies.collect(connection, before: event.pointee.full_sequence)
        guard !isShutDown else { return }
        handle(event)
    }

    private lazy var readSoon = LoopIdle(eventLoop: compositor.display.eventLoop) { [unowned self] in pump() }

    /// Sends what is buffered and reads what that brought in, on the next idle turn of the
    /// loop (not from inside the model notification or request that wrote; never waiting).
    func flushAndReadSoon() {
        scheduleRead()
    }

    /// A turn on the next idle of the loop. Not from inside a turn: the turn writes what it
    /// made pending before it ends, and an idle added then would run in the same dispatch
    /// (libwayland runs idles until none is left), turn after turn past `maxEventsPerTurn`,
    /// before any other client is served.
    func scheduleRead() {
        guard !isShutDown, !isInTurn else { return }
        readSoon.schedule()
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let raw = UnsafeMutableRawPointer(event)
        let type = event.pointee.response_type & 0x7f
        // Sent by a client (SendEvent), not by the X server: owners' SelectionNotify events are
        // such, but an owner change, a SelectionRequest or a PropertyNotify never is (a forged
        // one is ignored).
        let isSynthetic = event.pointee.response_type & 0x80 != 0
        if type == xfixesEvent &+ UInt8(XCB_XFIXES_SELECTION_NOTIFY) {
            guard !isSynthetic else { return }
            let e = raw.assumingMemoryBound(to: xcb_xfixes_selection_notify_event_t.self).pointee
            selection(e.selection)?.ownerDidChange(to: e.owner, timestamp: e.selection_timestamp)
            if e.selection == atoms["XdndSelection"] { dnd.xDrag?.ownerDidChange(to: e.owner) }
            return
        }
        switch Int32(type) {
        case XCB_SELECTION_REQUEST:
            guard !isSynthetic else { return }
            let e = raw.assumingMemoryBound(to: xcb_selection_request_event_t.self).pointee
            if let bridge = selection(e.selection) {
                bridge.selectionRequest(e)
            } else if e.selection == atoms["CLIPBOARD_MANAGER"], let clipboardManager {
                clipboardManager.selectionRequest(e)
            } else {
                // WM_S0 or another selection the XWM holds without data: refused.
                selections.first?.refuse(e)
            }
            return
        case XCB_SELECTION_NOTIFY:
            let e = raw.assumingMemoryBound(to: xcb_selection_notify_event_t.self).pointee
            guard e.requestor == selectionWindow else { return }
            selection(e.selection)?.selectionNotify(e)
            return
        case XCB_PROPERTY_NOTIFY where !isSynthetic:
            let e = raw.assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
            if e.window == selectionWindow {
                for bridge in selections { bridge.selectionWindowPropertyDidChange(e) }
                return
            }
            for bridge in selections { bridge.requestorPropertyDidChange(e) }
        case XCB_DESTROY_NOTIFY where !isSynthetic:
            let e = raw.assumingMemoryBound(to: xcb_destroy_notify_event_t.self).pointee
            for bridge in selections { bridge.windowDidDestroy(e.window) }
            dnd.windowDidDestroy(e.window)
        case XCB_CLIENT_MESSAGE:
            let e = raw.assumingMemoryBound(to: xcb_client_message_event_t.self).pointee
            if dnd.clientMessage(e) { return }
        default:
            break
        }
        // The window events, decoded (what the X server reports is taken from it only).
        if let decoded = XWMEvent(UnsafeRawBufferPointer(start: raw, count: 32), atoms: atoms) { handle(decoded) }
    }

    /// A window event: the X side (the windows managed, their properties read, ICCCM's map)
    /// here, the decisions through `handler`.
    private func handle(_ event: XWMEvent) {
        switch event {
        case .create(let id, let parent, let overrideRedirect, let geometry):
            guard parent == root, id != checkWindow, id != selectionWindow, id != dnd.xDrag?.window, windows[id] == nil,
                admitsWindow(of: xClient(of: id), window: id)
            else { return }
            windowsByClient[xClient(of: id), default: 0] += 1
            windows[id] = X11Window(
                id: id, wm: self, overrideRedirect: overrideRedirect, x: geometry.x, y: geometry.y,
                width: geometry.width, height: geometry.height)
            var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_FOCUS_CHANGE.rawValue
            xcb_change_window_attributes(connection, id, XCB_CW_EVENT_MASK.rawValue, &mask)
        case .destroy(let id):
            guard let window = windows.removeValue(forKey: id) else { return }
            let owner = xClient(of: id)
            if let count = windowsByClient[owner], count > 1 {
                windowsByClient[owner] = count - 1
            } else {
                windowsByClient[owner] = nil
                loggedAtWindowCap.remove(owner)
            }
            surfaceAssociation.windowDidDestroy(id)
            desktop.windowDidDestroy(id)
            ping.windowDidDestroy(id)
            if focused == id { focused = 0 }
            handler.windowDidDestroy(window)
            updateClientList()
        case .mapRequest(let id):
            guard let window = windows[id] else { return }
            // The client maps its iconic window: Normal again (shown when it maps).
            if window.isIconic {
                window.isIconic = false
                writeState(of: window)
            }
            // An iconify not written yet is moot (the map below follows the properties).
            pendingIconic.remove(window.id)
            // Mapped once its properties are in (its level and class decide how it shows).
            window.mapsWhenPropertiesArrive = true
            if readsInFlight[window.id] != nil { readsPredatingMap.insert(window.id) }
            requestProperties(of: window)
        case .mapNotify(let id):
            guard let window = windows[id] else { return }
            if window.isOverrideRedirect { requestProperties(of: window) }
            handler.windowDidMap(window)
            updateClientList()
        case .unmapNotify(let id):
            guard let window = windows[id] else { return }
            handler.windowDidUnmap(window)
            updateClientList()
        case .configureRequest(let request):
            guard let window = windows[request.window] else { return }
            configure(window, to: handler.configureRequest(window, asks: request.geometry(over: window.geometry)))
        case .configureNotify(let id, let geometry):
            guard let window = windows[id] else { return }
            handler.windowDidConfigure(window, to: geometry)
        case .propertyNotify(let id, let atom):
            // The properties the XWM reads (a client may set WM_PROTOCOLS or its class after
            // mapping, as Xt applications do).
            guard let window = windows[id],
                X11WindowProperties.Name.allCases.contains(where: { $0.isWatched && $0.atom(atoms) == atom })
            else { return }
            requestProperties(of: window)
        case .clientMessage(let id, let message, let isSynthetic):
            handleClientMessage(message, window: id, isSynthetic: isSynthetic)
        }
    }

    /// Whether a new toplevel window of X client `client` is managed: within the client's cap
    /// and the cap of all. Past either, logged once for the client.
    private func admitsWindow(of client: UInt32, window: UInt32) -> Bool {
        let perClient = windowsByClient[client, default: 0] < Self.maxWindowsPerClient
        if perClient, windows.count < Self.maxWindows { return true }
        if loggedAtWindowCap.count < Self.maxWindows, loggedAtWindowCap.insert(client).inserted {
            let cap =
                perClient
                ? "the X clients have \(Self.maxWindows) windows, the cap of all X clients"
                : "it has \(Self.maxWindowsPerClient) windows, the cap of one X client"
            xwayland.log(
                "strata: Xwayland: X client 0x\(String(client, radix: 16))'s window 0x\(String(window, radix: 16)) and its later ones "
                    + "are never mapped: \(cap) (other X clients are not affected; logged once per X client)")
        }
        return false
    }

    /// The X clients (by resource id base) whose forged association messages were logged.
    private var loggedForgers: Set<UInt32> = []

    /// The X client that created `xid`: its resource id base (the bits outside the server's
    /// resource id mask, the same for every client).
    func xClient(of xid: UInt32) -> UInt32 {
        xid & ~clientResourceMask
    }
    private lazy var clientResourceMask: UInt32 = xcb_get_setup(connection)?.pointee.resource_id_mask ?? 0x1f_ffff

    /// A `WL_SURFACE_ID` or `WL_SURFACE_SERIAL` sent by an X client (SendEvent): only Xwayland
    /// may associate a window with its surface. Ignored, and logged once per X client.
    private func ignoreForgedAssociation(_ message: XClientMessage, window: UInt32) {
        let client = xClient(of: window)
        guard loggedForgers.count < Self.maxWindows, loggedForgers.insert(client).inserted else { return }
        let name = if case .surfaceID = message { "WL_SURFACE_ID" } else { "WL_SURFACE_SERIAL" }
        xwayland.log(
            "strata: Xwayland: ignored a \(name) message an X client sent (window 0x\(String(window, radix: 16))); "
                + "only the X server associates windows with surfaces (logged once per X client)")
    }

    /// The client messages: Xwayland's surface association (from the X server only), and the
    /// EWMH and ICCCM requests about a managed, non-override-redirect window (to the handler).
    private func handleClientMessage(_ message: XClientMessage, window id: UInt32, isSynthetic: Bool) {
        if message.isFromXServerOnly, isSynthetic {
            let trusted =
                if case .surfaceSerial = message { xwayland.trustsSentSurfaceSerialsForTesting } else { false }
            guard trusted else { return ignoreForgedAssociation(message, window: id) }
        }
        // About the root (or any window): one desktop to show; a ping's answer names its window.
        switch message {
        case .currentDesktop: return
        case .pong(let window): return ping.pongDidArrive(window: window)
        default: break
        }
        guard let window = windows[id] else { return }
        switch message {
        case .surfaceID(let surfaceID):
            surfaceAssociation.surfaceIDDidArrive(surfaceID, for: window)
        case .surfaceSerial(let serial):
            surfaceAssociation.surfaceSerialDidArrive(serial, for: window)
        case .activate(let timestamp):
            guard !window.isOverrideRedirect else { return }
            handler.activationRequest(window, timestamp: timestamp)
        case .state(let request):
            guard !window.isOverrideRedirect else { return }
            handler.stateRequest(window, request)
        case .moveResize(let direction):
            guard !window.isOverrideRedirect else { return }
            handler.moveResizeRequest(window, direction: direction)
        case .iconify:
            guard !window.isOverrideRedirect else { return }
            handler.iconifyRequest(window)
        case .close:
            guard !window.isOverrideRedirect else { return }
            handler.closeRequest(window)
        case .moveResizeWindow(let x, let y, let width, let height):
            guard !window.isOverrideRedirect else { return }
            let request = XConfigureRequest(window: id, x: x, y: y, width: width, height: height)
            configure(window, to: handler.configureRequest(window, asks: request.geometry(over: window.geometry)))
        case .desktop, .requestFrameExtents:
            // One desktop, no frames: the window's properties say so again (0 and zeros).
            guard !window.isOverrideRedirect else { return }
            desktop.windowNeedsProperties(id)
        case .currentDesktop, .pong:
            break
        }
    }

    /// Writes the window's `_NET_WM_STATE` (what the XWM holds of it) at the end of the turn:
    /// any number of changes in one turn is one write.
    func writeState(of window: X11Window) {
        guard !isShutDown else { return }
        pendingStates.insert(window.id)
        scheduleRead()
    }

    private func sendState(_ window: X11Window) {
        var list: [xcb_atom_t] = []
        if window.isAbove { list.append(atoms["_NET_WM_STATE_ABOVE"]) }
        if window.maximizedVertically { list.append(atoms["_NET_WM_STATE_MAXIMIZED_VERT"]) }
        if window.maximizedHorizontally { list.append(atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]) }
        if window.wantsFullscreen { list.append(atoms["_NET_WM_STATE_FULLSCREEN"]) }
        if window.isIconic { list.append(atoms["_NET_WM_STATE_HIDDEN"]) }
        if window.demandsAttention { list.append(atoms["_NET_WM_STATE_DEMANDS_ATTENTION"]) }
        if window.isModal { list.append(atoms["_NET_WM_STATE_MODAL"]) }
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window.id, atoms["_NET_WM_STATE"],
            XCB_ATOM_ATOM.rawValue, 32, UInt32(list.count), &list)
    }

    /// Writes the ICCCM `WM_STATE` (1 Normal, 3 Iconic; no icon window).
    private func writeWMState(of window: X11Window, _ state: UInt32) {
        var value: [UInt32] = [state, 0]
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window.id, atoms["WM_STATE"],
            atoms["WM_STATE"], 32, 2, &value)
    }

    /// The model hid or showed a mapped X toplevel (the client's iconify, a taskbar, `strata-ctl
    /// hide`/`show`): hidden is iconic (WM_STATE Iconic, `_NET_WM_STATE_HIDDEN`, unmapped in X so
    /// that the client's map brings it back); shown again is Normal and mapped.
    private func setIconic(_ window: X11Window, _ iconic: Bool) {
        guard !isShutDown, !window.isOverrideRedirect, window.isIconic != iconic else { return }
        if iconic, !window.isMapped { return }
        window.isIconic = iconic
        // Written at the end of the turn (`writePending`): hidden and shown again in one turn
        // is one write of the latest.
        pendingIconic.insert(window.id)
        pendingStates.insert(window.id)
        scheduleRead()
    }

    /// Windows whose iconic state (`WM_STATE`, mapped or not) is to be written at the end of the
    /// turn.
    private var pendingIconic: Set<UInt32> = []

    private func sendIconic(_ window: X11Window) {
        writeWMState(of: window, window.isIconic ? 3 : 1)
        if window.isIconic {
            xcb_unmap_window(connection, window.id)
        } else {
            xcb_map_window(connection, window.id)
        }
    }

    /// Moves and sizes the X window to `frame` (clamped to X's 16-bit coordinates) and sends the
    /// synthetic ConfigureNotify ICCCM asks for, at the end of the turn (the latest frame of the
    /// turn: a flood of configure requests is one configure a turn).
    func configure(_ window: X11Window, to frame: Rect) {
        guard !isShutDown else { return }
        window.x = Int32(clamping: min(max(frame.x, -32768), 32767))
        window.y = Int32(clamping: min(max(frame.y, -32768), 32767))
        window.width = Int32(clamping: min(max(frame.width, 1), 8192))
        window.height = Int32(clamping: min(max(frame.height, 1), 8192))
        pendingConfigures[window.id] = (window.x, window.y, window.width, window.height)
        scheduleRead()
    }

    private func sendConfigure(_ id: xcb_window_t, x: Int32, y: Int32, width: Int32, height: Int32) {
        var values: [UInt32] = [UInt32(bitPattern: x), UInt32(bitPattern: y), UInt32(width), UInt32(height), 0]
        let mask = UInt16(
            XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
                | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_BORDER_WIDTH.rawValue)
        xcb_configure_window(connection, id, mask, &values)
        var event = xcb_configure_notify_event_t()
        event.response_type = UInt8(XCB_CONFIGURE_NOTIFY)
        event.event = id
        event.window = id
        event.x = Int16(x)
        event.y = Int16(y)
        event.width = UInt16(width)
        event.height = UInt16(height)
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(connection, 0, id, XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue, chars.baseAddress)
            }
        }
    }

    /// The model moved or resized a managed window (placement, `strata-ctl move`): X is told,
    /// unless the frame is the one the X side gave it (`setModelFrame`) or X has it already.
    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidBecomeKey(let id):
            if let window = compositor.windows.window(withID: id)?.content as? X11Window, window.wm === self,
                window.demandsAttention
            {
                window.demandsAttention = false
                writeState(of: window)
            }
            return
        case .windowDidChangeStacking(let id), .windowDidChangeLevel(let id, _, _):
            desktop.stackingDidChange()
            if let model = compositor.windows.window(withID: id) { controller.reorderOverrideRedirects(above: model) }
            return
        case .windowDidBecomeHidden(let id), .windowDidBecomeVisible(let id):
            desktop.stackingDidChange()
            if case .windowDidBecomeVisible = notification, let model = compositor.windows.window(withID: id) {
                controller.reorderOverrideRedirects(above: model)
            }
            guard let window = compositor.windows.window(withID: id)?.content as? X11Window, window.wm === self,
                !window.isOverrideRedirect, !window.isHidingItself, let model = window.window
            else { return }
            setIconic(window, model.isHidden)
            return
        case .windowDidOpen, .windowDidClose:
            desktop.stackingDidChange()
            return
        case .screenDidConnect, .screenDidDisconnect, .screenModeDidChange, .screenDidChangeTransform,
            .screenDidChangeScale, .screenDidMove, .screenDidChangeUsableArea, .screenDidChangeOverscan:
            desktop.screensDidChange()
            return
        default:
            break
        }
        guard case .windowDidChangeFrame(let id, _, let to) = notification else { return }
        guard let window = compositor.windows.window(withID: id)?.content as? X11Window, window.wm === self,
            !window.isOverrideRedirect
        else { return }
        // The frame the X side gave the model comes from X: nothing to send back. Any other
        // frame is the model's, and X is configured to it when X's geometry differs.
        guard to != window.frameGivenToModel else { return }
        window.frameGivenToModel = nil
        if Int(window.x) != to.x || Int(window.y) != to.y || Int(window.width) != to.width
            || Int(window.height) != to.height
        {
            configure(window, to: to)
        }
    }

    // MARK: Properties

    /// One window's property read: the values of its replies by property, as they come.
    private final class PropertyRead {
        let window: UInt32
        var values: [X11WindowProperties.Name: XPropertyValue] = [:]
        var repliesDue = X11WindowProperties.Name.allCases.count
        init(window: UInt32) { self.window = window }
    }
    /// Windows with a read in flight: a change meanwhile asks for one more read after it, not
    /// one per change (a client changing a property in a loop costs one read in flight).
    private var readsInFlight: [UInt32: Bool] = [:]
    /// Windows whose read in flight was sent before their MapRequest: they map after the next.
    private var readsPredatingMap: Set<UInt32> = []

    /// Asks for title, class, pid, transient parent, protocols, hints and type; the replies are
    /// applied when the last arrives (`propertiesDidArrive`, on the loop: the XWM never waits
    /// for Xwayland, which may itself be waiting for Strata).
    private func requestProperties(of window: X11Window) {
        if readsInFlight[window.id] != nil {
            readsInFlight[window.id] = true
            return
        }
        readsInFlight[window.id] = false
        let read = PropertyRead(window: window.id)
        for name in X11WindowProperties.Name.allCases {
            let cookie = xcb_get_property(
                connection, 0, window.id, name.atom(atoms), XCB_ATOM_ANY.rawValue, 0,
                Self.maxPropertyWords)
            replies.expect(cookie.sequence) { [weak self] reply in
                if let value = XWM.propertyValue(of: reply) { read.values[name] = value }
                read.repliesDue -= 1
                if read.repliesDue == 0 { self?.propertiesDidArrive(read) }
            }
        }
    }

    /// A read's last reply came: its values go to the window, which maps if it was waiting.
    private func propertiesDidArrive(_ read: PropertyRead) {
        let again = readsInFlight.removeValue(forKey: read.window) ?? false
        let predatesMap = readsPredatingMap.remove(read.window) != nil
        guard let window = windows[read.window] else { return }
        apply(X11WindowProperties(read.values), to: window)
        // A read that was in flight at the MapRequest may predate properties the client set
        // just before mapping (its type, its state): the window maps after the read asked for
        // then (`again`), not on this one; one read later at most, whatever changes.
        if window.mapsWhenPropertiesArrive, !predatesMap {
            window.mapsWhenPropertiesArrive = false
            var state: [UInt32] = [1, 0]  // WM_STATE NormalState, no icon
            xcb_change_property(
                connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window.id, atoms["WM_STATE"],
                atoms["WM_STATE"], 32, 2, &state)
            desktop.windowNeedsProperties(window.id)
            xcb_map_window(connection, window.id)
        } else {
            handler.windowPropertiesDidChange(window)
        }
        if again { requestProperties(of: window) }
    }

    // MARK: Pid through X-Resource

    /// Windows with a QueryClientIds request awaiting its reply (one at most a window).
    private var pidQueriesInFlight: Set<UInt32> = []
    private var hasXRes: Bool?
    /// Whether Xwayland answers X-Resource requests (asked at the start without waiting).
    var hasXResource: Bool {
        if hasXRes == nil { hasXRes = strata_xcb_res_present(connection) != 0 }
        return hasXRes == true
    }
    /// The XWM's own X client (resource id base).
    var ownXClient: UInt32 { xClient(of: checkWindow) }

    /// A window without `_NET_WM_PID`: its client's pid from X-Resource (LocalClientPID), read
    /// when the reply comes (never waited for).
    private func queryPid(of window: X11Window) {
        if hasXRes == nil { hasXRes = strata_xcb_res_present(connection) != 0 }
        guard hasXRes == true, !pidQueriesInFlight.contains(window.id) else { return }
        let sequence = strata_xcb_res_query_pid(connection, window.id)
        guard sequence != 0 else { return }
        pidQueriesInFlight.insert(window.id)
        let id = window.id
        replies.expect(UInt32(sequence)) { [weak self] reply in
            guard let self else { return }
            pidQueriesInFlight.remove(id)
            guard let reply else { return }
            let pid = strata_xcb_res_pid(reply)
            guard pid > 0, let window = windows[id], window.pid == 0 else { return }
            window.pid = pid
            handler.windowPropertiesDidChange(window)
        }
    }

    /// A get_property reply's value (at most `maxPropertyWords` words), nil for none.
    private static func propertyValue(of reply: UnsafeMutableRawPointer?) -> XPropertyValue? {
        guard let reply else { return nil }
        // xcb allocated the reply's 32 bytes and its `length` 4-byte units after them.
        let units = Int(reply.assumingMemoryBound(to: xcb_get_property_reply_t.self).pointee.length)
        let count = XPropertyValue.headerBytes + min(units * 4, XPropertyValue.maxBytes)
        return XPropertyValue(reply: UnsafeRawBufferPointer(start: reply, count: count))
    }

    /// An X window's app id from its `WM_CLASS` (`instance\0class\0`): the class, or the
    /// instance when the class is empty or missing (docs/xwayland.md, "App ids"). Control
    /// commands compare app ids without regard to case, so `xterm` names the class `XTerm`.
    public static func appID(wmClass: [UInt8]) -> String {
        WMClass(bytes: wmClass).appID
    }

    private func apply(_ properties: X11WindowProperties, to window: X11Window) {
        window.title = properties.title
        window.appID = properties.appID
        if let netPid = properties.netWMPid {
            window.pid = netPid.pid
            window.pidFromXRes = false
        } else if window.pid == 0 || window.pidFromXRes == false {
            window.pid = 0
            window.pidFromXRes = true
            queryPid(of: window)
        }
        window.transientFor = properties.wmTransientFor?.window ?? 0
        window.supportsDelete = properties.wmProtocols?.contains(atoms["WM_DELETE_WINDOW"]) ?? false
        window.supportsTakeFocus = properties.wmProtocols?.contains(atoms["WM_TAKE_FOCUS"]) ?? false
        window.supportsPing = properties.wmProtocols?.contains(atoms["_NET_WM_PING"]) ?? false
        window.acceptsInput = properties.wmHints?.acceptsInput ?? true
        window.type = X11WindowType.from(atoms: properties.netWMWindowType?.atoms ?? []) { self.atoms[$0] }
        let state = properties.netWMState ?? XAtomList.empty
        if !window.hasShownOnce {
            window.isAbove = state.contains(atoms["_NET_WM_STATE_ABOVE"])
            window.isModal = state.contains(atoms["_NET_WM_STATE_MODAL"])
            window.takeInitialState(
                maximizedVertically: state.contains(atoms["_NET_WM_STATE_MAXIMIZED_VERT"]),
                maximizedHorizontally: state.contains(atoms["_NET_WM_STATE_MAXIMIZED_HORZ"]),
                fullscreen: state.contains(atoms["_NET_WM_STATE_FULLSCREEN"]))
        }
    }

    private func updateClientList() {
        // Iconic windows too (unmapped in X while the model hides them): EWMH lists every managed
        // window, so that tools find a minimized one (`wmctrl -a`).
        var list = windows.values.filter { ($0.isMapped || $0.isIconic) && !$0.isOverrideRedirect }.map(\.id).sorted()
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atoms["_NET_CLIENT_LIST"],
            XCB_ATOM_WINDOW.rawValue, 32, UInt32(list.count), &list)
        desktop.stackingDidChange()
    }

    func window(_ id: UInt32) -> X11Window? { windows[id] }
    func log(_ message: String) { xwayland.log(message) }
    /// Every managed X window.
    var managedWindows: [X11Window] { Array(windows.values) }
    var xwaylandClient: OpaquePointer? { xwayland.client }

    // MARK: Focus and close

    /// The X focus follows the key window at the end of the turn (`pendingFocus`: any number of
    /// key changes in one turn is one focus change in X).
    func windowDidChangeKeyState(_ window: X11Window, isKey: Bool) {
        guard !isShutDown else { return }
        if isKey {
            focused = window.id
            pendingFocus = window.id
        } else if focused == window.id {
            focused = 0
            pendingFocus = 0
        }
        scheduleRead()
    }

    /// The window X's focus is to go to at the end of the turn (0: none).
    private var pendingFocus: UInt32?

    /// `SetInputFocus` to the window (when its input hint allows), `WM_TAKE_FOCUS` when it lists
    /// it, `_NET_ACTIVE_WINDOW`; or no focus.
    private func sendFocus(_ id: UInt32) {
        guard id != 0, let window = windows[id] else {
            xcb_set_input_focus(
                connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), UInt32(XCB_NONE), UInt32(XCB_CURRENT_TIME))
            setActiveWindow(0)
            return
        }
        if window.acceptsInput {
            xcb_set_input_focus(
                connection, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window.id, UInt32(XCB_CURRENT_TIME))
        }
        if window.supportsTakeFocus { sendProtocolMessage(atoms["WM_TAKE_FOCUS"], to: window.id) }
        setActiveWindow(window.id)
    }

    private func setActiveWindow(_ id: UInt32) {
        var value = id
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), root, atoms["_NET_ACTIVE_WINDOW"],
            XCB_ATOM_WINDOW.rawValue, 32, 1, &value)
    }

    /// Close: WM_DELETE_WINDOW when the client takes it, else the client is killed; written at
    /// the end of the turn (closed again meanwhile: once).
    func close(_ window: X11Window) {
        guard !isShutDown else { return }
        pendingCloses.insert(window.id)
        scheduleRead()
    }

    /// Windows to close at the end of the turn.
    private var pendingCloses: Set<UInt32> = []

    private func sendClose(_ window: X11Window) {
        // A client that did not answer a ping since the last close is killed.
        if !ping.closeWillBeSent(window), window.supportsDelete {
            sendProtocolMessage(atoms["WM_DELETE_WINDOW"], to: window.id)
        } else {
            xcb_kill_client(connection, window.id)
        }
    }

    private func sendProtocolMessage(_ message: xcb_atom_t, to id: UInt32) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = id
        event.type = atoms["WM_PROTOCOLS"]
        event.data.data32.0 = message
        event.data.data32.1 = UInt32(XCB_CURRENT_TIME)
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(connection, 0, id, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
            }
        }
    }

    /// Closes every managed window and the connection. Idempotent.
    func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        dnd.shutdown()
        clipboardManager?.shutdown()
        clipboardManager = nil
        for bridge in selections { bridge.shutdown() }
        selections.removeAll()
        deferredWrites.removeAll()
        replies.removeAll()
        watcher?.remove()
        watcher = nil
        readSoon.cancel()
        continuation?.cancel()
        if let heldEvent { free(heldEvent) }
        heldEvent = nil
        pendingStates.removeAll()
        pendingConfigures.removeAll()
        pendingFocus = nil
        pendingIconic.removeAll()
        pendingCloses.removeAll()
        desktop.shutdown()
        ping.shutdown()
        surfaceAssociation.shutdown()
        if let observer { compositor.windows.notifications.removeObserver(observer) }
        observer = nil
        let all = Array(windows.values)
        windows.removeAll()
        for window in all { handler.windowDidDestroy(window) }
        xcb_disconnect(connection)
    }
}
