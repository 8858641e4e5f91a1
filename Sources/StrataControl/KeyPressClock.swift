import StrataServer

/// When the user last pressed a key: the compositor clock's nanoseconds (the stepped time under
/// `--clock manual`) at the seat's latest key press, from any source (a keyboard, a control
/// command, a virtual keyboard). The policy delegate's questions carry it (`state.last_key_ns`),
/// so a policy can tell whether the user is typing.
final class KeyPressClock {
    /// nil until a key is pressed (the manual clock starts at 0).
    private(set) var last: UInt64?
    private var token: Signal<(input: InjectedInput, time: UInt32)>.Token?

    init(compositor: Compositor) {
        let clock = compositor.clock
        token = compositor.seat.inputHandled.observe { [unowned self] handled in
            if case .key(_, pressed: true, _) = handled.input { last = clock.nanoseconds }
        }
    }

    func stop() {
        token?.remove()
        token = nil
    }
}
