import CStrataClientGlue
import CWaylandClient
import FoundationEssentials
import Glibc
import StrataModel
import StrataRender
import StrataServer

/// Strata inside a Wayland session: each screen is an xdg_toplevel of the parent compositor,
/// drawn with wl_shm buffers, and the parent's seat drives Strata's seat.
///
/// The parent connection's fd is watched by Strata's own event loop (no thread): readable →
/// prepare_read / read_events / dispatch_pending; everything queued is flushed after each
/// dispatch and each frame, and when the socket is full the loop waits for it to drain.
///
/// - The parent's `xdg_toplevel.configure` size becomes the screen's (custom) mode.
/// - `xdg_toplevel.close` disconnects that screen; closing the last one calls `onLastScreenClosed`.
/// - A broken parent connection calls `onParentLost` with a message (default: print it and end
///   the display's `run()`); `failure` keeps the message.
public final class WaylandBackend: Backend {
    public let name = "wayland"
    /// The parent's display, as given (`wayland-0`, a path, or `fd N`), for messages.
    public let parentName: String
    /// Called when the parent closed the last screen's window. Default: end the display's run().
    public var onLastScreenClosed: (() -> Void)?
    /// Called once when the connection to the parent breaks, with a message for the user.
    /// Default: print the message to stderr and end the display's run().
    public var onParentLost: ((String) -> Void)?
    /// Why the backend stopped working (the connection to the parent broke), if it did.
    public private(set) var failure: String?
    /// Where the parent's input goes; nil: the compositor's seat.
    public var input: NestedInput? {
        get { inputOverride ?? compositor?.seat }
        set { inputOverride = newValue }
    }
    /// The parent keyboard's keymap (XKB text), once the parent sent it.
    public private(set) var parentKeymap: String?
    /// Told when the parent's keymap arrives or changes. (Strata's seat compiles its keymap from
    /// XKB names at start and has no API to replace it yet; see docs/nested.md.)
    public var keymapDidChange: ((String) -> Void)?
    /// Pumps something else while waiting for the parent (a test's in-process parent).
    public var whileWaiting: (() -> Void)?

    let display: OpaquePointer
    private(set) var shm: OpaquePointer?
    private var registry: OpaquePointer?
    private var wlCompositor: OpaquePointer?
    private var wmBase: OpaquePointer?
    private var decorationManager: OpaquePointer?
    private var parentConstraints: OpaquePointer?
    private var parentRelativeManager: OpaquePointer?
    /// The parent's zwp_locked_pointer_v1 or zwp_confined_pointer_v1 while a constraint of
    /// Strata's is in effect, and whether it is a lock.
    private var parentConstraint: OpaquePointer?
    private var parentConstraintIsLock = false
    /// The parent's zwp_relative_pointer_v1 (made with the first lock): a locked parent sends
    /// no motion, only these deltas.
    private var parentRelative: OpaquePointer?
    private var parentCursor: ParentCursor?
    /// What the parent was last asked to show as the cursor.
    private var cursorImage: CursorLayer.Image?
    private var cursorKey: CursorKey?
    private struct CursorKey: Equatable {
        var object: ObjectIdentifier?
        var hotspotX: Int32, hotspotY: Int32
        var generation: Int
    }
    private var parentSeat: ParentSeat?
    private var dataDeviceManager: OpaquePointer?
    private var primarySelectionManager: OpaquePointer?
    /// The clipboard and the primary selection passed to and from the parent (docs/nested.md).
    private var selections: [ParentSelection] = []
    /// The MIME type marking the parent sources this Strata made (unique per backend).
    private let selectionMarker =
        "application/x-strata-nested-selection;id=\(String(UInt64.random(in: 1...UInt64.max), radix: 16))"
    /// The parent's outputs, for their scales.
    private(set) var parentOutputs: [ParentOutput] = []
    private var source: EventSource?
    private weak var compositor: Compositor?
    private weak var inputOverride: NestedInput?
    private let screenCount: Int
    private let modes: [ScreenMode]
    private(set) var screens: [WaylandScreen] = []
    private var stopped = false
    private var lastScreenClosed = false
    private var disconnected = false

    /// Connects to the parent compositor `displayName` (a name in XDG_RUNTIME_DIR or a path) and
    /// checks it offers what Strata needs. Afterwards the process's WAYLAND_DISPLAY, if it still
    /// names the parent, is unset: Strata's children must never reach the parent by accident.
    public convenience init(
        displayName: String, screens: Int = 1, modes: [ScreenMode] = [ScreenMode(width: 1280, height: 720)],
        context: String = "--backend wayland", timeout: Double = 5
    ) throws(NestedBackendError) {
        guard let display = wl_display_connect(displayName) else {
            let why = String(cString: strerror(errno))
            throw NestedBackendError(
                context: context, reason: .cannotConnect,
                message: "cannot connect to the parent compositor at WAYLAND_DISPLAY=\(displayName): \(why)")
        }
        if let current = getenv("WAYLAND_DISPLAY"), String(cString: current) == displayName {
            unsetenv("WAYLAND_DISPLAY")
        }
        try self.init(
            connectedDisplay: display, parentName: "WAYLAND_DISPLAY=\(displayName)", screens: screens, modes: modes,
            context: context, timeout: timeout, whileWaiting: nil)
    }

    /// Uses an already connected socket to the parent (tests: one end of a socketpair whose other
    /// end is a client of an in-process parent, which `whileWaiting` steps).
    public convenience init(
        fd: Int32, screens: Int = 1, modes: [ScreenMode] = [ScreenMode(width: 1280, height: 720)],
        timeout: Double = 5, whileWaiting: (() -> Void)? = nil
    ) throws(NestedBackendError) {
        guard let display = wl_display_connect_to_fd(fd) else {
            throw NestedBackendError(
                context: "--backend wayland", reason: .cannotConnect,
                message: "cannot use fd \(fd) as a connection to the parent compositor")
        }
        try self.init(
            connectedDisplay: display, parentName: "fd \(fd)", screens: screens, modes: modes,
            context: "--backend wayland", timeout: timeout, whileWaiting: whileWaiting)
    }

    private init(
        connectedDisplay: OpaquePointer, parentName: String, screens: Int, modes: [ScreenMode], context: String,
        timeout: Double, whileWaiting: (() -> Void)?
    ) throws(NestedBackendError) {
        self.display = connectedDisplay
        self.parentName = parentName
        self.screenCount = max(1, screens)
        self.modes = modes.isEmpty ? [ScreenMode(width: 1280, height: 720)] : modes
        self.whileWaiting = whileWaiting
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &WaylandBackend.registryListener, Unmanaged.passUnretained(self).toOpaque())
        do {
            try roundtrip(timeout: timeout, context: context)
        } catch {
            teardown()
            throw error
        }
        func lacks(_ what: String) -> NestedBackendError {
            NestedBackendError(
                context: context, reason: .parentLacks,
                message: "the parent compositor at \(parentName) does not offer \(what)")
        }
        var missing: NestedBackendError?
        if wlCompositor == nil {
            missing = lacks("wl_compositor")
        } else if shm == nil {
            missing = lacks("wl_shm")
        } else if wmBase == nil {
            missing = lacks("xdg_wm_base (xdg-shell), which nested screens are windows of")
        }
        if let missing {
            teardown()
            throw missing
        }
    }

    deinit { teardown() }

    // MARK: Backend

    public func start(_ compositor: Compositor) throws(ServerError) {
        self.compositor = compositor
        guard
            let source = EventSource(
                display: compositor.display, fd: wl_display_get_fd(display), events: .readable,
                handler: { [unowned self] events in
                    self.parentEvents(events)
                })
        else { throw .setup("cannot watch the connection to the parent compositor") }
        self.source = source
        for _ in 0..<screenCount {
            addScreen()
        }
        guard !screens.isEmpty else { throw .setup("cannot create a window in the parent compositor at \(parentName)") }
        setUpSelections()
        flush()
    }

    /// The parent's wl_data_device and primary selection device, where the parent offers them.
    private func setUpSelections() {
        guard selections.isEmpty, let compositor, let seat = parentSeat?.seat else { return }
        for (kind, manager) in [(Seat.SelectionKind.clipboard, dataDeviceManager), (.primary, primarySelectionManager)]
        {
            guard let manager,
                let selection = ParentSelection(
                    backend: self, kind: kind, manager: manager, seat: seat,
                    marker: selectionMarker)
            else { continue }
            selections.append(selection)
            selection.start(seat: compositor.seat)
        }
    }

    private func tearDownSelections() {
        for selection in selections { selection.destroy() }
        selections.removeAll()
    }

    /// Strata's seat (the selections go there even when `input` is overridden).
    var seat: Seat? { compositor?.seat }

    /// The serial of the parent's latest input event to Strata (set_selection quotes it).
    var parentInputSerial: UInt32 { parentSeat?.latestSerial ?? 0 }

    /// Whether Strata's `kind` selection is on offer in the parent (tests).
    public func offersSelectionToParent(_ kind: Seat.SelectionKind) -> Bool {
        selections.first { $0.kind == kind }?.offersToParent ?? false
    }

    /// Opens one more screen: a new window in the parent session (`WL-n`).
    @discardableResult
    public func addScreen(modes: [ScreenMode]? = nil) -> ScreenOutput? {
        guard let compositor, let wlCompositor, let wmBase, isConnected else { return nil }
        let index = compositor.screensCreated + 1
        guard let output = compositor.connectScreen(name: "WL-\(index)", modes: modes ?? self.modes, backendName: name)
        else { return nil }
        guard
            let screen = WaylandScreen(
                backend: self, output: output, compositor: wlCompositor, wmBase: wmBase,
                decorationManager: decorationManager)
        else {
            compositor.disconnectScreen(output)
            return nil
        }
        screens.append(screen)
        flush()
        return output
    }

    public func present(_ output: ScreenOutput, damage: PixmanRegion) {
        guard isConnected else { return }
        screen(for: output)?.present(damage: damage)
    }

    public func stop() {
        guard !stopped else { return }
        stopped = true
        source?.remove()
        source = nil
        teardown()
    }

    // MARK: Screens

    func screen(for output: ScreenOutput) -> WaylandScreen? {
        screens.first { $0.output === output }
    }

    func screen(for surface: OpaquePointer) -> WaylandScreen? {
        screens.first { $0.surface == surface }
    }

    func screen(_ screen: WaylandScreen, wasResizedToWidth width: Int32, height: Int32) {
        compositor?.nestedScreen(screen.output, didResizeToWidth: width, height: height)
    }

    /// A parent output's scale changed or an output went: screens recompute their scale.
    func parentOutputsDidChange() {
        for screen in screens { screen.updateParentScale() }
        flush()
    }

    /// The scale of the parent's output `proxy` (1 when it is not one of ours).
    func parentScale(of proxy: OpaquePointer) -> Int32 {
        parentOutputs.first { $0.proxy == proxy }?.scale ?? 1
    }

    /// The parent's scale for a screen's window changed: the screen takes it as its own scale.
    func screen(_ screen: WaylandScreen, didChangeParentScaleTo scale: Int32) {
        compositor?.windows.setScale(Double(scale), for: screen.output.screen)
    }

    /// The parent closed a screen's window (xdg_toplevel.close): the screen disconnects.
    func parentDidClose(_ screen: WaylandScreen) {
        parentSeat?.screenWillClose(screen)
        screen.destroy()
        screens.removeAll { $0 === screen }
        compositor?.disconnectScreen(screen.output)
        flush()
        if screens.isEmpty, !lastScreenClosed {
            lastScreenClosed = true
            if let onLastScreenClosed {
                onLastScreenClosed()
            } else {
                compositor?.display.terminate()
            }
        }
    }

    /// The parent-side window of a screen (tests, and asking the parent for fullscreen).
    public func setFullscreen(_ fullscreen: Bool, for output: ScreenOutput) {
        guard isConnected, let screen = screen(for: output) else { return }
        if fullscreen {
            xdg_toplevel_set_fullscreen(screen.toplevel, nil)
        } else {
            xdg_toplevel_unset_fullscreen(screen.toplevel)
        }
        flush()
    }

    /// How many frames were committed to the parent for `output` (tests).
    public func committedFrames(for output: ScreenOutput) -> Int {
        screen(for: output)?.committedFrames ?? 0
    }

    /// Whether the parent has configured `output`'s window (frames are shown from then on).
    public func isConfigured(_ output: ScreenOutput) -> Bool {
        screen(for: output)?.isConfigured ?? false
    }

    func parentKeymapDidChange(_ text: String) {
        parentKeymap = text
        // Strata's clients get the parent's keymap, so keys mean what they mean in the session.
        input?.useKeymap(text: text)
        keymapDidChange?(text)
    }

    // MARK: The cursor and pointer constraints, handed to the parent

    /// The parent's pointer shows the cursor (Strata draws none into the screens).
    public var drawsCursor: Bool { false }

    public func cursorDidChange(_ image: CursorLayer.Image?, generation: Int) {
        var key = CursorKey(object: nil, hotspotX: 0, hotspotY: 0, generation: generation)
        switch image {
        case .image(let cursor)?: key.object = ObjectIdentifier(cursor)
        case .surface(let surface, let hx, let hy)?:
            key.object = ObjectIdentifier(surface)
            key.hotspotX = hx
            key.hotspotY = hy
        case nil: break
        }
        cursorImage = image
        guard key != cursorKey else { return }
        cursorKey = key
        applyCursor()
    }

    func parentPointerDidEnter() {
        applyCursor()
    }

    /// Sets the parent's cursor to Strata's (while the parent's pointer is over a screen).
    private func applyCursor() {
        guard isConnected, let seat = parentSeat, let pointer = seat.pointer, let serial = seat.pointerEnterSerial,
            let wlCompositor, let shm
        else { return }
        var shown: (pixels: [UInt32], width: Int32, height: Int32, hx: Int32, hy: Int32)?
        switch cursorImage {
        case .image(let cursor)?:
            shown = (cursor.pixels, cursor.width, cursor.height, cursor.hotspotX, cursor.hotspotY)
        case .surface(let surface, let hx, let hy)?:
            if ParentCursor.forwards(width: surface.texture.width, height: surface.texture.height),
                let pixels = surface.texture.copyPixels()
            {
                shown = (pixels, surface.texture.width, surface.texture.height, hx, hy)
            }
        case nil:
            break
        }
        if let shown {
            if parentCursor == nil { parentCursor = ParentCursor(compositor: wlCompositor) }
            if let parentCursor,
                parentCursor.show(pixels: shown.pixels, width: shown.width, height: shown.height, shm: shm)
            {
                wl_pointer_set_cursor(pointer, serial, parentCursor.surface, shown.hx, shown.hy)
            }
        } else {
            wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
        }
        flush()
    }

    public func pointerConstraintDidChange(locked: Bool?, on output: ScreenOutput?) {
        releaseParentConstraint()
        guard isConnected, let locked, let output, let screen = screen(for: output), let parentConstraints,
            let pointer = parentSeat?.pointer
        else { return }
        // Persistent: the parent may end it while its focus is elsewhere and bring it back.
        let lifetime = ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT.rawValue
        if locked {
            if parentRelative == nil, let parentRelativeManager,
                let relative = zwp_relative_pointer_manager_v1_get_relative_pointer(parentRelativeManager, pointer)
            {
                zwp_relative_pointer_v1_add_listener(
                    relative, &Self.relativeListener, Unmanaged.passUnretained(self).toOpaque())
                parentRelative = relative
            }
            parentConstraint = zwp_pointer_constraints_v1_lock_pointer(
                parentConstraints, screen.surface, pointer, nil, lifetime)
        } else {
            parentConstraint = zwp_pointer_constraints_v1_confine_pointer(
                parentConstraints, screen.surface, pointer, nil, lifetime)
        }
        parentConstraintIsLock = locked
        flush()
    }

    /// Whether the parent's pointer is locked (true) or confined (false) to a screen's window
    /// for Strata, or nil (tests).
    public var parentPointerConstraint: Bool? { parentConstraint == nil ? nil : parentConstraintIsLock }

    private func releaseParentConstraint() {
        guard let constraint = parentConstraint else { return }
        if parentConstraintIsLock {
            zwp_locked_pointer_v1_destroy(constraint)
        } else {
            zwp_confined_pointer_v1_destroy(constraint)
        }
        parentConstraint = nil
        flush()
    }

    /// The parent's pointer is going (capability lost, seat removed, teardown): drop what was
    /// made for it.
    func parentPointerWillGo() {
        releaseParentConstraint()
        if let parentRelative { zwp_relative_pointer_v1_destroy(parentRelative) }
        parentRelative = nil
    }

    private static var relativeListener = zwp_relative_pointer_v1_listener(
        relative_motion: { data, _, hi, lo, dx, dy, _, _ in
            guard let backend = backend(data), backend.parentConstraint != nil, backend.parentConstraintIsLock else {
                return
            }
            let milliseconds = UInt32(truncatingIfNeeded: (UInt64(hi) << 32 | UInt64(lo)) / 1000)
            backend.input?.pointerMotion(dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy), time: milliseconds)
        })

    // MARK: The connection

    var isConnected: Bool { failure == nil && !stopped }

    /// Sends what is queued; when the socket is full, waits for it to drain through the loop.
    func flush() {
        guard isConnected else { return }
        if wl_display_flush(display) < 0 {
            if errno == EAGAIN {
                source?.update([.readable, .writable])
            } else {
                connectionLost(String(cString: strerror(errno)))
            }
        } else if source?.events.contains(.writable) == true {
            source?.update(.readable)
        }
    }

    private func parentEvents(_ events: EventSource.Events) {
        guard isConnected else { return }
        if !events.intersection([.readable, .hangup, .error]).isEmpty {
            while wl_display_prepare_read(display) != 0 {
                guard wl_display_dispatch_pending(display) >= 0 else { return connectionLost(describeError()) }
            }
            guard wl_display_read_events(display) >= 0 else { return connectionLost(describeError()) }
            guard wl_display_dispatch_pending(display) >= 0 else { return connectionLost(describeError()) }
            if !events.intersection([.hangup, .error]).isEmpty {
                return connectionLost("the parent closed the connection")
            }
        }
        flush()
    }

    /// A blocking wait for the parent to answer everything sent so far, with a deadline.
    private func roundtrip(timeout: Double, context: String) throws(NestedBackendError) {
        var done = false
        guard let callback = wl_display_sync(display) else {
            throw NestedBackendError(
                context: context, reason: .cannotConnect,
                message: "cannot talk to the parent compositor at \(parentName)")
        }
        let box = DoneBox { done = true }
        wl_callback_add_listener(callback, &WaylandBackend.syncListener, Unmanaged.passUnretained(box).toOpaque())
        defer {
            wl_callback_destroy(callback)
            withExtendedLifetime(box) {}
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !done {
            guard wl_display_flush(display) >= 0 || errno == EAGAIN,
                wl_display_dispatch_pending(display) >= 0
            else {
                throw NestedBackendError(
                    context: context, reason: .cannotConnect,
                    message: "the parent compositor at \(parentName) broke the connection: \(describeError())")
            }
            if done { break }
            guard Date() < deadline else {
                throw NestedBackendError(
                    context: context, reason: .timeout,
                    message: "the parent compositor at \(parentName) did not answer within \(timeout) s")
            }
            whileWaiting?()
            while wl_display_prepare_read(display) != 0 { _ = wl_display_dispatch_pending(display) }
            var pfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, whileWaiting == nil ? 50 : 1) > 0 {
                guard wl_display_read_events(display) >= 0 else {
                    throw NestedBackendError(
                        context: context, reason: .cannotConnect,
                        message: "the parent compositor at \(parentName) broke the connection: \(describeError())")
                }
            } else {
                wl_display_cancel_read(display)
            }
        }
    }

    private func describeError() -> String {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "?"
            return "protocol error \(error) on \(name)#\(id)"
        }
        return code == 0 ? "connection closed" : String(cString: strerror(code))
    }

    private func connectionLost(_ why: String) {
        guard failure == nil, !stopped else { return }
        let message = "lost the connection to the parent compositor (\(parentName)): \(why)"
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

    /// Destroys every proxy and disconnects. Safe to call twice.
    private func teardown() {
        guard !disconnected else { return }
        disconnected = true
        for screen in screens { screen.destroy() }
        screens.removeAll()
        tearDownSelections()
        if let dataDeviceManager { wl_data_device_manager_destroy(dataDeviceManager) }
        if let primarySelectionManager { zwp_primary_selection_device_manager_v1_destroy(primarySelectionManager) }
        dataDeviceManager = nil
        primarySelectionManager = nil
        parentPointerWillGo()
        parentCursor?.destroy()
        parentCursor = nil
        parentSeat?.destroy()
        parentSeat = nil
        for output in parentOutputs { output.destroy() }
        parentOutputs.removeAll()
        if let parentConstraints { zwp_pointer_constraints_v1_destroy(parentConstraints) }
        if let parentRelativeManager { zwp_relative_pointer_manager_v1_destroy(parentRelativeManager) }
        parentConstraints = nil
        parentRelativeManager = nil
        if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let wlCompositor { wl_compositor_destroy(wlCompositor) }
        if let registry { wl_registry_destroy(registry) }
        decorationManager = nil
        wmBase = nil
        shm = nil
        wlCompositor = nil
        registry = nil
        if failure == nil { _ = wl_display_flush(display) }
        wl_display_disconnect(display)
    }

    // MARK: Registry

    private func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where wlCompositor == nil:
            wlCompositor = bind(name, wl_compositor_interface_ptr(), min(version, 4))
        case "wl_shm" where shm == nil:
            shm = bind(name, wl_shm_interface_ptr(), 1)
        case "xdg_wm_base" where wmBase == nil:
            wmBase = bind(name, xdg_wm_base_interface_ptr(), min(version, 5))
            if let wmBase { xdg_wm_base_add_listener(wmBase, &WaylandBackend.wmBaseListener, nil) }
        case "zxdg_decoration_manager_v1" where decorationManager == nil:
            decorationManager = bind(name, zxdg_decoration_manager_v1_interface_ptr(), 1)
        case "wl_output" where version >= 2:
            if let proxy = bind(name, wl_output_interface_ptr(), min(version, 3)) {
                parentOutputs.append(ParentOutput(backend: self, proxy: proxy, globalName: name))
            }
        case "zwp_pointer_constraints_v1" where parentConstraints == nil:
            parentConstraints = bind(name, zwp_pointer_constraints_v1_interface_ptr(), 1)
        case "zwp_relative_pointer_manager_v1" where parentRelativeManager == nil:
            parentRelativeManager = bind(name, zwp_relative_pointer_manager_v1_interface_ptr(), 1)
        case "wl_data_device_manager" where dataDeviceManager == nil:
            dataDeviceManager = bind(name, wl_data_device_manager_interface_ptr(), min(version, 3))
        case "zwp_primary_selection_device_manager_v1" where primarySelectionManager == nil:
            primarySelectionManager = bind(name, zwp_primary_selection_device_manager_v1_interface_ptr(), 1)
        case "wl_seat" where parentSeat == nil:
            if let seat = bind(name, wl_seat_interface_ptr(), min(version, ParentSeat.maximumVersion)) {
                parentSeat = ParentSeat(backend: self, seat: seat, globalName: name)
            }
        default:
            break
        }
    }

    private func globalRemoved(name: UInt32) {
        if let index = parentOutputs.firstIndex(where: { $0.globalName == name }) {
            let output = parentOutputs.remove(at: index)
            for screen in screens { screen.parentOutputWillGo(output.proxy) }
            output.destroy()
            parentOutputsDidChange()
        }
        if let parentSeat, parentSeat.globalName == name {
            tearDownSelections()
            parentPointerWillGo()
            parentSeat.destroy()
            self.parentSeat = nil
        }
    }

    private func bind(_ name: UInt32, _ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> OpaquePointer? {
        wl_registry_bind(registry, name, interface, version).map(OpaquePointer.init)
    }

    private static func backend(_ data: UnsafeMutableRawPointer?) -> WaylandBackend? {
        data.map { Unmanaged<WaylandBackend>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface else { return }
            backend(data)?.global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in backend(data)?.globalRemoved(name: name) })

    private static var wmBaseListener = xdg_wm_base_listener(ping: { _, wmBase, serial in
        xdg_wm_base_pong(wmBase, serial)
    })

    private final class DoneBox {
        let action: () -> Void
        init(_ action: @escaping () -> Void) { self.action = action }
    }

    private static var syncListener = wl_callback_listener(done: { data, _, _ in
        guard let data else { return }
        Unmanaged<DoneBox>.fromOpaque(data).takeUnretainedValue().action()
    })
}
