import CStrataServerGlue
import CWaylandServer
import StrataModel

/// Strata's window extension (`protocols/strata-window-v1.xml`): the `strata_window_manager_v1`
/// global, its bindings, and the `strata_window_v1` objects by window.
///
/// It is one observer of the window model's notifications, and the only path by which the
/// model's changes reach these objects: screen connections go to every binding, a window's
/// changes to that window's object (so a client hears about its own windows only).
public final class StrataWindowExtension {
    static let version: UInt32 = 2

    unowned let compositor: Compositor
    private(set) var global: Global?
    var bindings: [StrataWindowManager] = []
    /// The live strata_window_v1 of each window (at most one per xdg_toplevel).
    private var objects: [WindowID: StrataWindow] = [:]
    private var observer: ObserverToken?

    init?(compositor: Compositor) {
        self.compositor = compositor
        global = Global(
            display: compositor.display, interface: strata_strata_window_manager_v1_interface(),
            version: Self.version
        ) { [weak self] client, version, id in
            guard let self, let binding = StrataWindowManager(extension: self, client: client, version: version, id: id)
            else { return }
            self.bindings.append(binding)
            for screen in self.compositor.windows.screens { binding.sendScreenConnected(screen) }
        }
        guard let global else { return nil }
        _ = global
        observer = compositor.windows.notifications.addObserver(phase: .tools) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
    }

    func stop() {
        if let observer { compositor.windows.notifications.removeObserver(observer) }
        observer = nil
    }

    // MARK: Registry

    /// The live strata_window_v1 of `window`, if any.
    func object(for window: Window) -> StrataWindow? {
        guard let object = objects[window.id], !object.isDestroyed else { return nil }
        return object
    }

    func register(_ object: StrataWindow, for window: Window) {
        objects[window.id] = object
    }

    func unregister(_ object: StrataWindow, for id: WindowID) {
        if objects[id] === object { objects[id] = nil }
    }

    // MARK: Told by the model

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .screenDidConnect(let id):
            guard let screen = compositor.windows.screen(withID: id) else { return }
            for binding in bindings { binding.sendScreenConnected(screen) }
        case .screenDidDisconnect(let id):
            for binding in bindings { binding.sendScreenDisconnected(id) }
        case .windowDidBecomeKey(let id):
            objects[id]?.send { strata_window_v1_send_did_become_key($0) }
        case .windowDidResignKey(let id):
            objects[id]?.send { strata_window_v1_send_did_resign_key($0) }
        case .windowDidBecomeVisible(let id):
            objects[id]?.send { strata_window_v1_send_did_become_visible($0) }
        case .windowDidBecomeHidden(let id):
            objects[id]?.send { strata_window_v1_send_did_become_hidden($0) }
        case .windowDidChangeLevel(let id, _, let to):
            objects[id]?.levelDidChange(to)
        case .windowDidMoveToScreen(let id, _, let to):
            objects[id]?.send { strata_window_v1_send_screen_changed($0, UInt32(truncatingIfNeeded: to.rawValue)) }
        case .windowDidClose(let id):
            objects[id]?.windowDidClose()
            objects[id] = nil
        default:
            break
        }
    }
}

extension WindowLevel {
    /// The level as the wire's int: rounded, clamped to the 32-bit range.
    var wireValue: Int32 {
        let value = rawValue.rounded()
        if value >= Double(Int32.max) { return .max }
        if value <= Double(Int32.min) { return .min }
        return Int32(value)
    }
}
