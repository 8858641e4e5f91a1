import StrataModel

/// The wire's side of the model's notifications (phase `.wire`: after the scene has damaged,
/// before the tools describe windows to other clients): key changes reach the window's content (xdg `activated`) and the seat's keyboard
/// focus; window changes let the seat re-pick the pointer's surface; usable-area and geometry
/// changes reach the contents (maximized windows follow) and the layer shell; screens' changes
/// reach their wl_output bindings.
final class ModelToWireRelay {
    private unowned let compositor: Compositor
    private var token: ObserverToken?

    init(compositor: Compositor) {
        self.compositor = compositor
        token = compositor.windows.notifications.addObserver(phase: .wire) { [unowned self] posted in
            self.modelDidPost(posted.notification)
        }
    }

    func stop() {
        if let token { compositor.windows.notifications.removeObserver(token) }
        token = nil
    }

    private func modelDidPost(_ notification: WindowServerNotification) {
        switch notification {
        case .windowDidMoveToScreen(let id, _, _), .windowDidChangeFrame(let id, _, _):
            compositor.seat.windowDidChange()
            compositor.windows.window(withID: id)?.content?.windowDidChangePlacement()
        case .windowDidBecomeVisible, .windowDidBecomeHidden, .windowDidChangeLevel, .windowDidChangeStacking:
            compositor.seat.windowDidChange()
        case .windowDidBecomeKey(let id):
            if let window = compositor.windows.window(withID: id) {
                window.content?.windowDidChangeKeyState(isKey: true)
            }
            compositor.seat.keyWindowDidChange(compositor.windows.keyWindow)
        case .windowDidResignKey(let id):
            if let window = compositor.windows.window(withID: id) {
                window.content?.windowDidChangeKeyState(isKey: false)
            }
            compositor.seat.keyWindowDidChange(compositor.windows.keyWindow)
        case .screenDidChangeUsableArea(let id):
            for window in compositor.windows.windows where window.screen?.id == id {
                window.content?.screenDidChangeUsableArea()
            }
        case .screenModeDidChange(let id), .screenDidChangeTransform(let id), .screenDidChangeScale(let id),
            .screenDidChangeOverscan(let id):
            compositor.layerShell.arrange(screen: id)
            compositor.lockScreen.screenDidChangeGeometry(id)
            for window in compositor.windows.windows where window.screen?.id == id {
                window.content?.screenDidChangeGeometry()
            }
            // (The scene, in an earlier phase, resized the output's canvas.)
            if let output = compositor.scene.output(for: id) {
                for binding in output.bindings { binding.sendState() }
            }
        case .screenDidMove(let id):
            if let output = compositor.scene.output(for: id) {
                for binding in output.bindings { binding.sendState() }
            }
        case .screenDidDisconnect(let id):
            compositor.layerShell.screenDidDisconnect(id)
            // The keys may have gone to the lock surface of that screen.
            if compositor.windows.isLocked { compositor.seat.lockScreenDidChange() }
        case .sessionDidLock, .sessionDidUnlock:
            compositor.seat.sessionLockDidChange()
        default:
            break
        }
    }
}
