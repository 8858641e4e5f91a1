import CStrataServerGlue
import CWaylandServer
import StrataModel

/// ext_foreign_toplevel_list_v1 v1 (privileged): the list of mapped toplevels, each a handle
/// with a stable identifier, its title and app id. Listed are the windows whose content is a
/// toplevel (`WindowContentHandle.isToplevel`: xdg and wl_shell toplevels, managed X windows; not
/// layer surfaces, input-method popups or override-redirect X windows), from the moment they
/// are first shown until their content unmaps or the window closes. A window hidden by the model
/// (a taskbar's minimize) stays mapped and listed. Each mapping gets a new identifier, never
/// reused: `strata-` and a counter of mappings in hexadecimal.
public final class ForeignToplevelList {
    static let version: UInt32 = 1
    unowned let compositor: Compositor
    var bindings: [ForeignToplevelListBinding] = []
    /// Mapped toplevels in the order they were mapped, and their identifiers (looked up per
    /// capture and notification: a hash, not a walk of the list).
    private(set) var listed: [WindowID] = []
    private var identifiers: [WindowID: String] = [:]
    private var mappings: UInt64 = 0
    private var observerToken: ObserverToken?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        observerToken = compositor.windows.notifications.addObserver(phase: .tools) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
        return Global(
            display: compositor.display, interface: strata_ext_foreign_toplevel_list_v1_interface(),
            version: Self.version
        ) { [unowned self] client, version, id in
            guard let binding = ForeignToplevelListBinding(list: self, client: client, version: version, id: id) else {
                return
            }
            self.bindings.append(binding)
            for id in self.listed {
                if let window = self.compositor.windows.window(withID: id), let identifier = self.identifiers[id] {
                    binding.announce(window, identifier: identifier)
                }
            }
        }
    }

    func stop() {
        if let observerToken { compositor.windows.notifications.removeObserver(observerToken) }
        observerToken = nil
    }

    /// The identifier of a listed window (nil: not mapped now).
    public func identifier(of id: WindowID) -> String? {
        identifiers[id]
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidBecomeVisible(let id):
            guard identifier(of: id) == nil, let window = compositor.windows.window(withID: id),
                let content = window.content, content.isToplevel
            else { return }
            mappings &+= 1
            let identifier = "strata-" + String(mappings, radix: 16)
            listed.append(id)
            identifiers[id] = identifier
            for binding in bindings { binding.announce(window, identifier: identifier) }
        case .windowDidBecomeHidden(let id):
            // Hidden with content to show: minimized, still mapped. Without (the content
            // unmapped, or its surface lost its buffer: wl_shell's unmap): unmapped.
            guard identifier(of: id) != nil, let window = compositor.windows.window(withID: id),
                window.content?.hasContentToShow != true || window.rootSurface?.hasContent != true
            else { return }
            unlist(id)
        case .windowDidClose(let id):
            unlist(id)
        case .windowDidChangeTitle(let id), .windowDidChangeAppID(let id):
            if let window = compositor.windows.window(withID: id) { windowDidChange(window) }
        default:
            break
        }
    }

    private func unlist(_ id: WindowID) {
        guard identifiers.removeValue(forKey: id) != nil, let index = listed.firstIndex(of: id) else { return }
        listed.remove(at: index)
        for binding in bindings { binding.windowDidUnmap(id) }
        compositor.imageCopyCapture.toplevelDidUnmap(id)
    }

    /// The title or app id changed: every handle of the window sends it and `done`.
    private func windowDidChange(_ window: Window) {
        guard identifier(of: window.id) != nil else { return }
        for binding in bindings { binding.handleObject(for: window.id)?.sendState(window) }
    }
}

/// One client's ext_foreign_toplevel_list_v1: a handle per mapped toplevel.
final class ForeignToplevelListBinding: ResourceObject {
    unowned let list: ForeignToplevelList
    private var handles: [WindowID: ForeignToplevelListHandle] = [:]
    private var stopped = false

    init?(list: ForeignToplevelList, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.list = list
        super.init(
            client: client, interface: strata_ext_foreign_toplevel_list_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_foreign_toplevel_list_v1_interface(
            stop: { _, resource in
                handle(resource, as: ForeignToplevelListBinding.self) { binding in
                    guard !binding.stopped else { return }
                    binding.stopped = true
                    ext_foreign_toplevel_list_v1_send_finished(binding.resource)
                }
            },
            destroy: destroyRequest))

    func handleObject(for id: WindowID) -> ForeignToplevelListHandle? {
        handles[id].flatMap { $0.isDestroyed ? nil : $0 }
    }

    func announce(_ window: Window, identifier: String) {
        guard !stopped, !isDestroyed,
            let handle = ForeignToplevelListHandle(list: list, client: client, version: version, windowID: window.id)
        else { return }
        handles[window.id] = handle
        ext_foreign_toplevel_list_v1_send_toplevel(resource, handle.resource)
        ext_foreign_toplevel_handle_v1_send_identifier(handle.resource, identifier)
        handle.sendState(window)
    }

    /// The toplevel unmapped or closed: its handle says `closed` and turns inert.
    func windowDidUnmap(_ id: WindowID) {
        handles.removeValue(forKey: id)?.close()
    }

    override func resourceDidDestroy() {
        list.bindings.removeAll { $0 === self }
    }
}

/// ext_foreign_toplevel_handle_v1: one mapping of a toplevel for one client; inert once
/// `closed` (a remap is a new handle with a new identifier). Capture sources name it
/// (`ext_foreign_toplevel_image_capture_source_manager_v1`).
final class ForeignToplevelListHandle: ResourceObject {
    unowned let list: ForeignToplevelList
    let windowID: WindowID
    private(set) var isClosed = false

    init?(list: ForeignToplevelList, client: OpaquePointer, version: UInt32, windowID: WindowID) {
        self.list = list
        self.windowID = windowID
        super.init(
            client: client, interface: strata_ext_foreign_toplevel_handle_v1_interface(), version: version, id: 0,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(ext_foreign_toplevel_handle_v1_interface(destroy: destroyRequest))

    /// The window while this handle's mapping lasts.
    var window: Window? { isClosed ? nil : list.compositor.windows.window(withID: windowID) }

    func sendState(_ window: Window) {
        guard !isClosed, !isDestroyed else { return }
        ext_foreign_toplevel_handle_v1_send_title(resource, window.title)
        ext_foreign_toplevel_handle_v1_send_app_id(resource, window.appID)
        ext_foreign_toplevel_handle_v1_send_done(resource)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !isDestroyed { ext_foreign_toplevel_handle_v1_send_closed(resource) }
    }
}
