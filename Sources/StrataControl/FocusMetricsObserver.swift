import StrataModel
import StrataServer
import StrataTrace

/// Feeds the session's `FocusMetrics` for the `stats` command, from the control server's start:
/// every model notification (in the `recording` phase, with its window's app id and its cause),
/// every key press the seat handled (`inputHandled`, with the window the key went to) and every
/// frame a screen presented (`Scene.framePresented`), each at the compositor's clock, the time
/// base of a cause's `requestedAt`. A frame costs a ring write, no allocation.
final class FocusMetricsObserver {
    private(set) var metrics = FocusMetrics()
    private unowned let compositor: Compositor
    private var token: ObserverToken?
    private var inputToken: Signal<(input: InjectedInput, time: UInt32)>.Token?
    private var presentedToken: Signal<ScreenOutput>.Token?

    init(compositor: Compositor) {
        self.compositor = compositor
        token = compositor.windows.notifications.addObserver(phase: .recording) { [unowned self] posted in
            self.modelDidPost(posted)
        }
        inputToken = compositor.seat.inputHandled.observe { [unowned self] handled in
            guard case .key(_, let pressed, _) = handled.input, pressed else { return }
            self.keyWasPressed()
        }
        presentedToken = compositor.scene.framePresented.observe { [unowned self] output in
            self.screenDidPresent(output)
        }
    }

    /// Stops listening; safe twice.
    func stop() {
        if let token { compositor.windows.notifications.removeObserver(token) }
        token = nil
        inputToken?.remove()
        inputToken = nil
        presentedToken?.remove()
        presentedToken = nil
    }

    private func modelDidPost(_ posted: PostedNotification) {
        let window = posted.notification.windowID
        let cause = posted.cause
        // The app id only where the metrics count something (the window list is walked for it).
        let counted = cause != nil || posted.name == "windowDidBecomeKey" || posted.name == "keyRequestWasRefused"
        metrics.record(
            FocusMetrics.Event(
                name: posted.name, window: window?.rawValue,
                appID: counted ? window.flatMap { compositor.windows.window(withID: $0)?.appID } ?? "" : "",
                cause: cause?.kind.rawValue, request: cause?.request ?? "", requester: cause?.requester ?? "",
                decidedBy: cause?.decidedBy ?? "", requestedAt: cause?.requestedAt ?? 0,
                time: compositor.clock.nanoseconds))
    }

    /// A key press: to the window with the keyboard focus (none: not counted).
    private func keyWasPressed() {
        let target = compositor.seat.keyboardFocus.flatMap { compositor.scene.window(showing: $0) }
        metrics.recordKeystroke(
            window: target?.id.rawValue, appID: target?.appID ?? "", time: compositor.clock.nanoseconds)
    }

    private func screenDidPresent(_ output: ScreenOutput) {
        metrics.recordFrame(screen: Int(clamping: output.screen.id.rawValue), time: compositor.clock.nanoseconds)
    }
}
