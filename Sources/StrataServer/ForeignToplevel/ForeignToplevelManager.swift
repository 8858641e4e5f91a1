import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwlr_foreign_toplevel_manager_v1 v3 (privileged): a taskbar's list of windows. A window is
/// listed from the first time it is shown until it closes; hidden afterwards it is `minimized`,
/// key it is `activated`, and `maximized` / `fullscreen` as the model window's state says
/// (`windowDidChangeMaximized`, `windowDidChangeFullscreen`).
/// `activate` is an explicit request: it shows the window if hidden, orders it front and makes it
/// key (`makeKey`, honoured under every policy); `unset_minimized` is `makeKeyAndVisible` (the
/// policy decides); `set_minimized` hides. `set_maximized`, `set_fullscreen` and their unsets go
/// to the window's content (xdg_toplevel configures), showing a minimized window first;
/// `close` asks the window's client (xdg_toplevel.close). The rectangle hint is ignored.
public final class ForeignToplevelManager {
    static let version: UInt32 = 3
    unowned let compositor: Compositor
    var bindings: [ForeignToplevelManagerBinding] = []
    /// Windows listed, in the order they were first shown.
    private(set) var listed: [WindowID] = []
    private var observerToken: ObserverToken?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        observerToken = compositor.windows.notifications.addObserver(phase: .tools) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        return Global(
            display: compositor.display, interface: strata_zwlr_foreign_toplevel_manager_v1_interface(),
            version: Self.version
        ) { [unowned self] client, version, id in
            guard let binding = ForeignToplevelManagerBinding(manager: self, client: client, version: version, id: id)
            else { return }
            self.bindings.append(binding)
            for windowID in self.listed {
                if let window = self.compositor.windows.window(withID: windowID) { binding.announce(window) }
            }
        }
    }

    func stop() {
        if let observerToken { compositor.windows.notifications.removeObserver(observerToken) }
        observerToken = nil
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidBecomeVisible(let id):
            guard let window = compositor.windows.window(withID: id), window.content != nil else { return }
            if !listed.contains(id) {
                listed.append(id)
                for binding in bindings { binding.announce(window) }
            } else {
                windowDidChange(window)
            }
        case .windowDidBecomeHidden(let id), .windowDidBecomeKey(let id), .windowDidResignKey(let id),
            .windowDidChangeMaximized(let id, _), .windowDidChangeFullscreen(let id, _), .windowDidChangeTitle(let id),
            .windowDidChangeAppID(let id):
            if listed.contains(id), let window = compositor.windows.window(withID: id) { windowDidChange(window) }
        case .windowDidMoveToScreen(let id, let from, _):
            guard listed.contains(id), let window = compositor.windows.window(withID: id) else { return }
            for binding in bindings { binding.handleObject(for: id)?.sendState(window, leaving: from) }
        case .windowDidClose(let id):
            guard let index = listed.firstIndex(of: id) else { return }
            listed.remove(at: index)
            for binding in bindings { binding.windowDidClose(id) }
        default:
            break
        }
    }

    /// Title, app id, or state changed: every handle of the window re-sends and ends with done.
    private func windowDidChange(_ window: Window) {
        guard listed.contains(window.id) else { return }
        for binding in bindings { binding.handleObject(for: window.id)?.sendState(window) }
    }
}

final class ForeignToplevelManagerBinding: ResourceObject {
    unowned let manager: ForeignToplevelManager
    private var handles: [WindowID: ForeignToplevelHandle] = [:]
    private var stopped = false

    init?(manager: ForeignToplevelManager, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.manager = manager
        super.init(
            client: client, interface: strata_zwlr_foreign_toplevel_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwlr_foreign_toplevel_manager_v1_interface(
            stop: { _, resource in
                handle(resource, as: ForeignToplevelManagerBinding.self) { binding in
                    guard !binding.stopped else { return }
                    binding.stopped = true
                    zwlr_foreign_toplevel_manager_v1_send_finished(binding.resource)
                    binding.destroyResource()
                }
            }))

    func handleObject(for id: WindowID) -> ForeignToplevelHandle? {
        handles[id].flatMap { $0.isDestroyed ? nil : $0 }
    }

    func announce(_ window: Window) {
        guard !stopped, !isDestroyed,
            let handle = ForeignToplevelHandle(manager: manager, client: client, version: version, windowID: window.id)
        else { return }
        handles[window.id] = handle
        zwlr_foreign_toplevel_manager_v1_send_toplevel(resource, handle.resource)
        handle.sendState(window)
    }

    func windowDidClose(_ id: WindowID) {
        guard let handle = handles.removeValue(forKey: id) else { return }
        handle.close()
    }

    override func resourceDidDestroy() {
        manager.bindings.removeAll { $0 === self }
    }
}

/// zwlr_foreign_toplevel_handle_v1: one listed window for one client; inert once `closed`.
final class ForeignToplevelHandle: ResourceObject {
    unowned let manager: ForeignToplevelManager
    let windowID: WindowID
    private(set) var isClosed = false
    private var enteredScreen: ScreenID?

    init?(manager: ForeignToplevelManager, client: OpaquePointer, version: UInt32, windowID: WindowID) {
        self.manager = manager
        self.windowID = windowID
        super.init(
            client: client, interface: strata_zwlr_foreign_toplevel_handle_v1_interface(), version: version, id: 0,
            implementation: Self.implementation)
    }

    private var window: Window? { isClosed ? nil : manager.compositor.windows.window(withID: windowID) }

    /// The window's content, when it can be shown (an unmapped toplevel stays hidden).
    private var content: (any WindowContentHandle)? {
        guard let content = window?.content, content.hasContentToShow else { return nil }
        return content
    }

    /// Shows a minimized window as `makeKeyAndVisible` (the key-window policy decides).
    private func unminimize() {
        guard let window, window.isHidden, content != nil else { return }
        manager.compositor.windows.show(window, makeKey: true)
    }

    /// Runs `body` under the cause of this taskbar's request `name`: a command of its client.
    private func withCommandCause(_ name: String, _ body: () -> Void) {
        manager.compositor.withCause(
            .command, request: "zwlr_foreign_toplevel_handle_v1.\(name)", requester: Compositor.requester(of: client),
            body)
    }

    static let implementation = makeImplementation(
        zwlr_foreign_toplevel_handle_v1_interface(
            set_maximized: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    handle.unminimize()
                    handle.content?.handleMaximizeRequest(true)
                }
            },
            unset_maximized: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { $0.content?.handleMaximizeRequest(false) }
            },
            set_minimized: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    guard let window = handle.window else { return }
                    handle.withCommandCause("set_minimized") { handle.manager.compositor.windows.hide(window) }
                }
            },
            unset_minimized: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    handle.withCommandCause("unset_minimized") { handle.unminimize() }
                }
            },
            activate: { _, resource, _ in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    guard let window = handle.window, handle.content != nil else { return }
                    handle.withCommandCause("activate") {
                        let windows = handle.manager.compositor.windows
                        if window.isHidden { windows.show(window, makeKey: true) } else { windows.orderFront(window) }
                        if !window.isKeyWindow { windows.makeKeyOrRefuse(window) }
                    }
                }
            },
            close: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    handle.window?.content?.closeRequest()
                }
            },
            set_rectangle: { _, resource, _, _, _, width, height in
                handle(resource, as: ForeignToplevelHandle.self) { _ in
                    guard width >= 0, height >= 0 else {
                        throw ProtocolError(
                            code: ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_ERROR_INVALID_RECTANGLE.rawValue,
                            "the rectangle has a negative size")
                    }
                }
            },
            destroy: destroyRequest,
            set_fullscreen: { _, resource, output in
                handle(resource, as: ForeignToplevelHandle.self) { handle in
                    let screen = output.flatMap { ResourceObject.from($0, as: OutputBinding.self) }?.output?.screen
                    handle.unminimize()
                    handle.content?.handleFullscreenRequest(true, on: screen)
                }
            },
            unset_fullscreen: { _, resource in
                handle(resource, as: ForeignToplevelHandle.self) { $0.content?.handleFullscreenRequest(false, on: nil) }
            }))

    /// Title, app id, the screen entered (after leaving `leaving`), the states, then done.
    func sendState(_ window: Window, leaving: ScreenID? = nil) {
        guard !isClosed, !isDestroyed else { return }
        zwlr_foreign_toplevel_handle_v1_send_title(resource, window.title)
        zwlr_foreign_toplevel_handle_v1_send_app_id(resource, window.appID)
        let screen = window.screen?.id
        if enteredScreen != screen {
            if let old = enteredScreen { sendOutput(old, enter: false) }
            if let screen { sendOutput(screen, enter: true) }
            enteredScreen = screen
        }
        var states = wl_array()
        wl_array_init(&states)
        func add(_ state: zwlr_foreign_toplevel_handle_v1_state) {
            if let slot = wl_array_add(&states, 4) { slot.storeBytes(of: state.rawValue, as: UInt32.self) }
        }
        if window.isMaximized { add(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED) }
        if window.isHidden { add(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED) }
        if window.isKeyWindow { add(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED) }
        if version >= 2, window.isFullscreen { add(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN) }
        zwlr_foreign_toplevel_handle_v1_send_state(resource, &states)
        wl_array_release(&states)
        zwlr_foreign_toplevel_handle_v1_send_done(resource)
    }

    /// output_enter / output_leave for each of this client's wl_outputs of the screen.
    private func sendOutput(_ screen: ScreenID, enter: Bool) {
        guard let output = manager.compositor.scene.output(for: screen) else { return }
        for binding in output.bindings where binding.client == client && !binding.isDestroyed {
            if enter {
                zwlr_foreign_toplevel_handle_v1_send_output_enter(resource, binding.resource)
            } else {
                zwlr_foreign_toplevel_handle_v1_send_output_leave(resource, binding.resource)
            }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !isDestroyed { zwlr_foreign_toplevel_handle_v1_send_closed(resource) }
    }
}
