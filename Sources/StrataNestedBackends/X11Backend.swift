import CXCB
import CXKBCommonX11
import FoundationEssentials
import Glibc
import StrataModel
import StrataRender
import StrataServer

/// Strata inside an X11 session: an X window per screen (xcb), input from core events.
///
/// The xcb connection's fd is watched by Strata's event loop; every event xcb has read is
/// handled before the handler returns. WM_DELETE_WINDOW closes a screen like the Wayland
/// backend's xdg_toplevel.close; a ConfigureNotify with a new size changes the screen's mode.
/// Keys: evdev code = X keycode − 8. The parent's XKB rule names (`_XKB_RULES_NAMES`) become
/// `XKB_DEFAULT_*` when those are not set (the seat's keymap reads none of them); the full
/// keymap, which the seat takes, is read with xkbcommon-x11 into `parentKeymap`.
/// Autorepeat: Strata's seat repeats keys for its clients (wl_keyboard.repeat_info), so the
/// parent's repeats are dropped. With XKB's detectable autorepeat (asked for at connection, as
/// wlroots does) a held key arrives as presses and one release, and a press of a key already
/// down is dropped; without it, a repeat is a release and a press of the same key at the same
/// time, and such a pair is dropped when both have arrived together.
public final class X11Backend: Backend {
    public let name = "x11"
    /// The parent's display, e.g. `DISPLAY=:0`, for messages.
    public let parentName: String
    public var onLastScreenClosed: (() -> Void)?
    public var onParentLost: ((String) -> Void)?
    public private(set) var failure: String?
    /// Where the parent's input goes; nil: the compositor's seat.
    public var input: NestedInput? {
        get { inputOverride ?? compositor?.seat }
        set { inputOverride = newValue }
    }
    public private(set) var parentKeymap: String?
    /// Whether frames go through MIT-SHM (false: chunked xcb_put_image).
    public private(set) var hasSharedMemory: Bool

    let connection: OpaquePointer
    let root: xcb_window_t
    let visual: xcb_visualid_t
    let depth: UInt8
    let maximumRequestBytes: Int
    let atoms: Atoms
    private let shmFirstEvent: UInt8
    private var source: EventSource?
    private weak var compositor: Compositor?
    private weak var inputOverride: NestedInput?
    private let screenCount: Int
    private let modes: [ScreenMode]
    private(set) var screens: [X11Screen] = []
    private var pointerScreen: X11Screen?
    private var pressedKeys: Set<UInt32> = []
    /// The parent sends no release for an autorepeat (XKB's per-client flag was granted).
    public private(set) var detectableAutorepeat = false
    private var handlingEvents = false
    private var stopped = false
    private var disconnected = false
    private var lastScreenClosed = false
    /// CLIPBOARD and PRIMARY passed to and from Strata (XFixes needed), and the hidden window
    /// that owns them for Strata and receives conversions.
    private var selections: [X11Selection] = []
    private(set) var selectionWindow: xcb_window_t = 0
    private var xfixesFirstEvent: UInt8 = 0
    /// Replies waited for without blocking, in request order.
    private var pendingReplies: [(sequence: UInt32, handler: (UnsafeMutableRawPointer?) -> Void)] = []
    /// Whether one of Strata's windows has the X focus.
    private(set) var hasFocus = false
    /// The latest X server time seen in an event (selection ownership quotes it).
    private(set) var latestTime: xcb_timestamp_t = 0

    struct Atoms {
        var wmProtocols: xcb_atom_t = 0
        var wmDeleteWindow: xcb_atom_t = 0
        var netWMName: xcb_atom_t = 0
        var utf8String: xcb_atom_t = 0
        var xkbRulesNames: xcb_atom_t = 0
        var clipboard: xcb_atom_t = 0
        var targets: xcb_atom_t = 0
        var text: xcb_atom_t = 0
        var textPlain: xcb_atom_t = 0
        var textPlainUTF8: xcb_atom_t = 0
        var incr: xcb_atom_t = 0
        var strataClipboard: xcb_atom_t = 0
        var strataPrimary: xcb_atom_t = 0
    }

    /// Connects to the X server `displayName` (e.g. `:0`) and checks it has a visual Strata's
    /// canvas can be put into as it is (24-bit TrueColor, 32 bits per pixel, RGB masks
    /// ff0000/ff00/ff, little-endian images). `useSharedMemory: false` sends frames with plain
    /// xcb_put_image even when MIT-SHM is there (tests; STRATA_X11_NO_SHM=1 does the same).
    public init(
        displayName: String, screens: Int = 1, modes: [ScreenMode] = [ScreenMode(width: 1280, height: 720)],
        context: String = "--backend x11", useSharedMemory: Bool = true
    ) throws(NestedBackendError) {
        let parent = "DISPLAY=\(displayName)"
        parentName = parent
        screenCount = max(1, screens)
        self.modes = modes.isEmpty ? [ScreenMode(width: 1280, height: 720)] : modes
        var screenNumber: Int32 = 0
        guard let c = xcb_connect(displayName, &screenNumber) else {
            throw NestedBackendError(
                context: context, reason: .cannotConnect, message: "cannot connect to the X server at \(parent)")
        }
        let code = xcb_connection_has_error(c)
        guard code == 0 else {
            xcb_disconnect(c)
            throw NestedBackendError(
                context: context, reason: .cannotConnect,
                message: "cannot connect to the X server at \(parent): \(X11Backend.describe(connectionError: code))")
        }
        func fail(_ message: String) -> NestedBackendError {
            xcb_disconnect(c)
            return NestedBackendError(
                context: context, reason: .parentLacks, message: "the X server at \(parent) \(message)")
        }
        let setup = xcb_get_setup(c)
        var roots = xcb_setup_roots_iterator(setup)
        for _ in 0..<max(0, screenNumber) where roots.rem > 0 { xcb_screen_next(&roots) }
        guard roots.rem > 0, let screenPointer = roots.data else { throw fail("has no screen \(screenNumber)") }
        let screen = screenPointer.pointee
        guard setup?.pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_LSB_FIRST.rawValue),
            X11Backend.hasDirectVisual(setup: setup, screen: screenPointer)
        else {
            throw fail(
                "has no 24-bit TrueColor root visual with 32-bit pixels (needed to show Strata's canvas as it is)")
        }
        connection = c
        root = screen.root
        visual = screen.root_visual
        depth = screen.root_depth
        maximumRequestBytes = Int(xcb_get_maximum_request_length(c)) * 4
        atoms = X11Backend.internAtoms(c)
        var shmEvent: UInt8 = 0
        var shm = false
        if let ext = xcb_get_extension_data(c, strata_xcb_shm_id()), ext.pointee.present != 0,
            let reply = xcb_shm_query_version_reply(c, xcb_shm_query_version(c), nil)
        {
            free(reply)
            shm = true
            shmEvent = ext.pointee.first_event
        }
        hasSharedMemory = shm && useSharedMemory && ProcessInfo.processInfo.environment["STRATA_X11_NO_SHM"] == nil
        shmFirstEvent = shmEvent
        adoptParentKeyboardLayout()
    }

    deinit { disconnect() }

    // MARK: Backend

    public func start(_ compositor: Compositor) throws(ServerError) {
        self.compositor = compositor
        guard
            let source = EventSource(
                display: compositor.display, fd: xcb_get_file_descriptor(connection), events: .readable,
                handler: { [unowned self] events in self.parentEvents(events) })
        else {
            throw .setup("cannot watch the connection to the X server at \(parentName)")
        }
        self.source = source
        // Strata's clients get the X server's keymap, so keys mean what they mean in the session.
        if let parentKeymap { input?.useKeymap(text: parentKeymap) }
        for _ in 0..<screenCount { addScreen() }
        guard !screens.isEmpty else { throw .setup("cannot create a window on the X server at \(parentName)") }
        startSelections(compositor.seat)
        flush()
    }

    /// CLIPBOARD and PRIMARY (`X11Selection`), when the X server has XFixes.
    private func startSelections(_ seat: Seat) {
        guard let xfixes = xcb_get_extension_data(connection, strata_xcb_xfixes_id()), xfixes.pointee.present != 0
        else { return }
        xfixesFirstEvent = xfixes.pointee.first_event
        xcb_discard_reply(connection, xcb_xfixes_query_version(connection, 5, 0).sequence)
        selectionWindow = xcb_generate_id(connection)
        xcb_create_window(
            connection, 0, selectionWindow, root, -1, -1, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue),
            0, 0, nil)
        for (kind, atom, property) in [
            (Seat.SelectionKind.clipboard, atoms.clipboard, atoms.strataClipboard),
            (.primary, XCB_ATOM_PRIMARY.rawValue, atoms.strataPrimary),
        ] {
            let selection = X11Selection(backend: self, kind: kind, atom: atom, property: property)
            selections.append(selection)
            selection.start(seat: seat)
        }
    }

    /// Strata's seat and loop (the selections').
    var seat: Seat? { compositor?.seat }
    var display: Display? { compositor?.display }

    /// Calls `handler` with the reply of request `sequence` (nil: an error) once it arrived.
    func whenReplied(_ sequence: UInt32, _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        pendingReplies.append((sequence, handler))
    }

    private func collectReplies() {
        while isConnected, let first = pendingReplies.first {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(connection, first.sequence, &reply, &error) != 0 else { return }
            pendingReplies.removeFirst()
            first.handler(reply)
            free(reply)
            free(error)
        }
    }

    /// Whether Strata's `kind` selection is the X selection (tests).
    public func ownsXSelection(_ kind: Seat.SelectionKind) -> Bool {
        selections.first { $0.kind == kind }?.ownsXSelection ?? false
    }

    /// Opens one more screen: a new X window (`X11-n`).
    @discardableResult
    public func addScreen(modes: [ScreenMode]? = nil) -> ScreenOutput? {
        guard let compositor, isConnected else { return nil }
        let index = compositor.screensCreated + 1
        guard let output = compositor.connectScreen(name: "X11-\(index)", modes: modes ?? self.modes, backendName: name)
        else {
            return nil
        }
        screens.append(X11Screen(backend: self, output: output))
        flush()
        return output
    }

    public func present(_ output: ScreenOutput, damage: PixmanRegion) {
        guard isConnected else { return }
        screen(for: output)?.present(damage: damage)
    }

    public func stop() {
        guard !stopped else { return }
        for selection in selections { selection.stop() }
        selections.removeAll()
        stopped = true
        source?.remove()
        source = nil
        disconnect()
    }

    /// The X window showing `output` (tests, screenshots with xwd).
    public func window(for output: ScreenOutput) -> UInt32? {
        screen(for: output)?.window
    }

    /// How many frames were put into `output`'s window (tests).
    public func presentedFrames(for output: ScreenOutput) -> Int {
        screen(for: output)?.presentedFrames ?? 0
    }

    // MARK: Screens

    func screen(for output: ScreenOutput) -> X11Screen? {
        screens.first { $0.output === output }
    }

    private func screen(for window: xcb_window_t) -> X11Screen? {
        screens.first { $0.window == window && !$0.isClosed }
    }

    private func close(_ screen: X11Screen) {
        if pointerScreen === screen { pointerScreen = nil }
        screen.destroy()
        screens.removeAll { $0 === screen }
        compositor?.disconnectScreen(screen.output)
        flush()
        if screens.isEmpty, !lastScreenClosed {
            lastScreenClosed = true
            if let onLastScreenClosed { onLastScreenClosed() } else { compositor?.display.terminate() }
        }
    }

    func sharedMemoryFailed(_ why: String) {
        hasSharedMemory = false
    }

    // MARK: The connection

    var isConnected: Bool { failure == nil && !stopped && !disconnected }

    func flush() {
        guard isConnected else { return }
        xcb_flush(connection)
        if xcb_connection_has_error(connection) != 0 {
            connectionLost(X11Backend.describe(connectionError: xcb_connection_has_error(connection)))
        } else if !handlingEvents {
            handleEvents(readingSocket: false)  // replies read while waiting may have queued events
        }
    }

    private func parentEvents(_ events: EventSource.Events) {
        guard isConnected else { return }
        handleEvents(readingSocket: true)
        guard isConnected else { return }
        let code = xcb_connection_has_error(connection)
        if code != 0 {
            connectionLost(X11Backend.describe(connectionError: code))
        } else if !events.intersection([.hangup, .error]).isEmpty {
            connectionLost("the X server closed the connection")
        } else {
            xcb_flush(connection)
        }
    }

    private func nextEvent(readingSocket: Bool) -> UnsafeMutablePointer<xcb_generic_event_t>? {
        readingSocket ? xcb_poll_for_event(connection) : xcb_poll_for_queued_event(connection)
    }

    private func handleEvents(readingSocket: Bool) {
        guard !handlingEvents else { return }
        handlingEvents = true
        defer { handlingEvents = false }
        var held: UnsafeMutablePointer<xcb_generic_event_t>?
        while isConnected, let event = held ?? nextEvent(readingSocket: readingSocket) {
            held = nil
            defer { free(event) }
            let type = event.pointee.response_type & 0x7f
            if type == UInt8(XCB_KEY_RELEASE), !detectableAutorepeat {
                // Autorepeat without XKB: a release followed by a press of the same key at the
                // same time.
                let release = UnsafeRawPointer(event).load(as: xcb_key_release_event_t.self)
                // Read the socket too: the pair may not be queued yet.
                if let next = xcb_poll_for_event(connection) {
                    let press = UnsafeRawPointer(next).load(as: xcb_key_press_event_t.self)
                    if next.pointee.response_type & 0x7f == UInt8(XCB_KEY_PRESS), press.detail == release.detail,
                        press.time == release.time
                    {
                        free(next)
                        continue
                    }
                    held = next
                }
            }
            handle(event, type: type)
        }
        if let held { free(held) }
        collectReplies()
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>, type: UInt8) {
        let raw = UnsafeRawPointer(event)
        switch Int32(type) {
        case XCB_KEY_PRESS, XCB_KEY_RELEASE:
            let e = raw.load(as: xcb_key_press_event_t.self)
            guard screen(for: e.event) != nil, e.detail >= 8 else { return }
            let key = UInt32(e.detail) - 8
            let pressed = Int32(type) == XCB_KEY_PRESS
            latestTime = e.time
            if pressed {
                guard pressedKeys.insert(key).inserted else { return }  // a repeat
            } else if pressedKeys.remove(key) == nil {
                return
            }
            input?.key(key, pressed: pressed, time: e.time)
        case XCB_BUTTON_PRESS, XCB_BUTTON_RELEASE:
            let e = raw.load(as: xcb_button_press_event_t.self)
            guard let screen = screen(for: e.event) else { return }
            let pressed = Int32(type) == XCB_BUTTON_PRESS
            latestTime = e.time
            pointerScreen = screen
            input?.pointerMotion(
                on: screen.output, x: Double(e.event_x) / screen.output.scale,
                y: Double(e.event_y) / screen.output.scale, time: e.time)
            switch e.detail {
            case 4, 5, 6, 7:
                // Wheel clicks arrive as press+release; scroll once, on the press, 10 units a
                // click like other Wayland compositors.
                guard pressed else { return }
                let step = (e.detail == 4 || e.detail == 6) ? -10.0 : 10.0
                if e.detail <= 5 {
                    input?.pointerAxis(vertical: step, horizontal: 0, time: e.time)
                } else {
                    input?.pointerAxis(vertical: 0, horizontal: step, time: e.time)
                }
            default:
                guard let button = X11Backend.evdevButton(e.detail) else { return }
                input?.pointerButton(button, pressed: pressed, time: e.time)
            }
        case XCB_MOTION_NOTIFY:
            let e = raw.load(as: xcb_motion_notify_event_t.self)
            guard let screen = screen(for: e.event) else { return }
            pointerScreen = screen
            input?.pointerMotion(
                on: screen.output, x: Double(e.event_x) / screen.output.scale,
                y: Double(e.event_y) / screen.output.scale, time: e.time)
        case XCB_ENTER_NOTIFY:
            let e = raw.load(as: xcb_enter_notify_event_t.self)
            guard let screen = screen(for: e.event) else { return }
            pointerScreen = screen
            input?.pointerMotion(
                on: screen.output, x: Double(e.event_x) / screen.output.scale,
                y: Double(e.event_y) / screen.output.scale, time: e.time)
        case XCB_FOCUS_OUT:
            let e = raw.load(as: xcb_focus_out_event_t.self)
            if screen(for: e.event) != nil, e.detail != UInt8(XCB_NOTIFY_DETAIL_INFERIOR.rawValue) { hasFocus = false }
            releaseKeys()
        case XCB_FOCUS_IN:
            let e = raw.load(as: xcb_focus_in_event_t.self)
            guard screen(for: e.event) != nil, e.detail != UInt8(XCB_NOTIFY_DETAIL_POINTER.rawValue) else { return }
            hasFocus = true
            for selection in selections { selection.focusDidArrive() }
        case XCB_SELECTION_REQUEST:
            let e = raw.load(as: xcb_selection_request_event_t.self)
            latestTime = e.time == 0 ? latestTime : e.time
            if let selection = selections.first(where: { $0.atom == e.selection }) {
                selection.request(e)
            }
        case XCB_SELECTION_NOTIFY:
            let e = raw.load(as: xcb_selection_notify_event_t.self)
            guard e.requestor == selectionWindow else { return }
            selections.first { $0.atom == e.selection }?.conversionDidEnd(target: e.target, property: e.property)
        case XCB_SELECTION_CLEAR:
            let e = raw.load(as: xcb_selection_clear_event_t.self)
            selections.first { $0.atom == e.selection }?.ownershipLost()
        case XCB_EXPOSE:
            let e = raw.load(as: xcb_expose_event_t.self)
            screen(for: e.window)?.expose(x: e.x, y: e.y, width: e.width, height: e.height)
        case XCB_CONFIGURE_NOTIFY:
            let e = raw.load(as: xcb_configure_notify_event_t.self)
            guard let screen = screen(for: e.window) else { return }
            compositor?.nestedScreen(screen.output, didResizeToWidth: Int32(e.width), height: Int32(e.height))
        case XCB_CLIENT_MESSAGE:
            let e = raw.load(as: xcb_client_message_event_t.self)
            guard e.type == atoms.wmProtocols, e.format == 32, e.data.data32.0 == atoms.wmDeleteWindow,
                let screen = screen(for: e.window)
            else { return }
            close(screen)
        default:
            if xfixesFirstEvent != 0, type == xfixesFirstEvent &+ UInt8(XCB_XFIXES_SELECTION_NOTIFY) {
                let e = raw.load(as: xcb_xfixes_selection_notify_event_t.self)
                selections.first { $0.atom == e.selection }?.ownerDidChange(to: e.owner)
                return
            }
            if hasSharedMemory || shmFirstEvent != 0, type == shmFirstEvent &+ UInt8(XCB_SHM_COMPLETION) {
                let e = raw.load(as: xcb_shm_completion_event_t.self)
                screens.first { $0.window == e.drawable }?.putDidComplete()
            }
        }
    }

    private func releaseKeys() {
        let keys = pressedKeys
        pressedKeys.removeAll()
        for key in keys.sorted() { input?.key(key, pressed: false, time: Compositor.nestedNowMilliseconds) }
    }

    private func connectionLost(_ why: String) {
        guard failure == nil, !stopped else { return }
        let message = "lost the connection to the X server (\(parentName)): \(why)"
        failure = message
        source?.remove()
        source = nil
        if let onParentLost {
            onParentLost(message)
        } else {
            let bytes = Array("strata: \(message)\n".utf8)
            bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            compositor?.display.terminate()
        }
    }

    private func disconnect() {
        guard !disconnected else { return }
        for screen in screens { screen.destroy() }
        screens.removeAll()
        if xcb_connection_has_error(connection) == 0 { xcb_flush(connection) }
        disconnected = true
        xcb_disconnect(connection)
    }

    // MARK: Setup helpers

    /// X button numbers to evdev codes: 1 left, 2 middle, 3 right, 8 back (side), 9 forward (extra).
    static func evdevButton(_ detail: UInt8) -> UInt32? {
        switch detail {
        case 1: return 0x110  // BTN_LEFT
        case 2: return 0x112  // BTN_MIDDLE
        case 3: return 0x111  // BTN_RIGHT
        case 8: return 0x113  // BTN_SIDE
        case 9: return 0x114  // BTN_EXTRA
        default: return nil
        }
    }

    /// `screen` must point into the setup: its depths and visuals follow it in memory.
    private static func hasDirectVisual(
        setup: UnsafePointer<xcb_setup_t>?, screen screenPointer: UnsafeMutablePointer<xcb_screen_t>
    ) -> Bool {
        let screen = screenPointer.pointee
        var formats = xcb_setup_pixmap_formats_iterator(setup)
        var bitsPerPixel: UInt8 = 0
        while formats.rem > 0 {
            if let f = formats.data?.pointee, f.depth == screen.root_depth { bitsPerPixel = f.bits_per_pixel }
            xcb_format_next(&formats)
        }
        guard bitsPerPixel == 32, screen.root_depth == 24 || screen.root_depth == 32 else { return false }
        var depths = xcb_screen_allowed_depths_iterator(screenPointer)
        while depths.rem > 0 {
            if let depth = depths.data, depth.pointee.depth == screen.root_depth {
                var visuals = xcb_depth_visuals_iterator(depth)
                while visuals.rem > 0 {
                    if let v = visuals.data?.pointee, v.visual_id == screen.root_visual {
                        return v._class == UInt8(XCB_VISUAL_CLASS_TRUE_COLOR.rawValue) && v.red_mask == 0xff0000
                            && v.green_mask == 0xff00 && v.blue_mask == 0xff
                    }
                    xcb_visualtype_next(&visuals)
                }
            }
            xcb_depth_next(&depths)
        }
        return false
    }

    private static func internAtoms(_ c: OpaquePointer) -> Atoms {
        func intern(_ name: String) -> xcb_intern_atom_cookie_t {
            xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
        }
        func reply(_ cookie: xcb_intern_atom_cookie_t) -> xcb_atom_t {
            guard let r = xcb_intern_atom_reply(c, cookie, nil) else { return 0 }
            defer { free(r) }
            return r.pointee.atom
        }
        let cookies = [
            "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_XKB_RULES_NAMES", "CLIPBOARD",
            "TARGETS",
            "TEXT", "text/plain", "text/plain;charset=utf-8", "INCR", "_STRATA_CLIPBOARD", "_STRATA_PRIMARY",
        ].map(intern)
        var atoms = Atoms()
        atoms.wmProtocols = reply(cookies[0])
        atoms.wmDeleteWindow = reply(cookies[1])
        atoms.netWMName = reply(cookies[2])
        atoms.utf8String = reply(cookies[3])
        atoms.xkbRulesNames = reply(cookies[4])
        atoms.clipboard = reply(cookies[5])
        atoms.targets = reply(cookies[6])
        atoms.text = reply(cookies[7])
        atoms.textPlain = reply(cookies[8])
        atoms.textPlainUTF8 = reply(cookies[9])
        atoms.incr = reply(cookies[10])
        atoms.strataClipboard = reply(cookies[11])
        atoms.strataPrimary = reply(cookies[12])
        return atoms
    }

    /// Reads the parent's keymap with xkbcommon-x11 into `parentKeymap`, and its XKB rule names
    /// into XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS where those are not set (the seat
    /// takes `parentKeymap`; its own names never come from these variables).
    private func adoptParentKeyboardLayout() {
        if let reply = xcb_get_property_reply(
            connection,
            xcb_get_property(
                connection, 0, root, atoms.xkbRulesNames,
                XCB_ATOM_STRING.rawValue, 0, 1024), nil)
        {
            defer { free(reply) }
            let length = Int(xcb_get_property_value_length(reply))
            if length > 0, let value = xcb_get_property_value(reply) {
                let bytes = UnsafeRawBufferPointer(start: value, count: length)
                let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                    String(decoding: $0, as: UTF8.self)
                }
                let names = [
                    "XKB_DEFAULT_RULES", "XKB_DEFAULT_MODEL", "XKB_DEFAULT_LAYOUT", "XKB_DEFAULT_VARIANT",
                    "XKB_DEFAULT_OPTIONS",
                ]
                for (name, value) in zip(names, fields) where !value.isEmpty {
                    setenv(name, value, 0)
                }
            }
        }
        var major: UInt16 = 0, minor: UInt16 = 0, baseEvent: UInt8 = 0, baseError: UInt8 = 0
        guard
            xkb_x11_setup_xkb_extension(
                connection, UInt16(XKB_X11_MIN_MAJOR_XKB_VERSION), UInt16(XKB_X11_MIN_MINOR_XKB_VERSION),
                XKB_X11_SETUP_XKB_EXTENSION_NO_FLAGS, &major, &minor, &baseEvent, &baseError) == 1
        else { return }
        detectableAutorepeat = Self.askForDetectableAutorepeat(connection)
        let device = xkb_x11_get_core_keyboard_device_id(connection)
        guard device >= 0, let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return }
        defer { xkb_context_unref(context) }
        guard let keymap = xkb_x11_keymap_new_from_device(context, connection, device, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return }
        defer { xkb_keymap_unref(keymap) }
        if let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) {
            parentKeymap = String(cString: text)
            free(text)
        }
    }

    /// Asks the X server not to send a release for each autorepeat (XKB's per-client flag
    /// DetectableAutoRepeat); whether it granted that. XKB must be set up on the connection.
    private static func askForDetectableAutorepeat(_ connection: OpaquePointer) -> Bool {
        let flag = UInt32(XCB_XKB_PER_CLIENT_FLAG_DETECTABLE_AUTO_REPEAT.rawValue)
        let cookie = xcb_xkb_per_client_flags(connection, UInt16(XCB_XKB_ID_USE_CORE_KBD.rawValue), flag, flag, 0, 0, 0)
        guard let reply = xcb_xkb_per_client_flags_reply(connection, cookie, nil) else { return false }
        defer { free(reply) }
        return reply.pointee.supported & flag != 0 && reply.pointee.value & flag != 0
    }

    static func describe(connectionError code: Int32) -> String {
        switch code {
        case XCB_CONN_ERROR: return "the socket or pipe failed (no X server there, or it went away)"
        case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: return "an extension is not supported"
        case XCB_CONN_CLOSED_MEM_INSUFFICIENT: return "out of memory"
        case XCB_CONN_CLOSED_REQ_LEN_EXCEED: return "a request was too long"
        case XCB_CONN_CLOSED_PARSE_ERR: return "the display name cannot be parsed"
        case XCB_CONN_CLOSED_INVALID_SCREEN: return "the display has no such screen"
        default: return "xcb connection error \(code)"
        }
    }
}
