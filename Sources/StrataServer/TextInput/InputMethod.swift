import CStrataServerGlue
import CWaylandServer

/// zwp_input_method_v2: the seat's input method (an on-screen keyboard, a CJK composer).
///
/// The relay tells it about the active text input (`activate`, the text input's state, `done`,
/// counted) and `deactivate`; its requests fill the pending `InputMethodState`, and `commit`
/// hands the state to the relay, which delivers it to the active text input. A second input
/// method on the seat gets `unavailable` as its only event and is inert, as is one whose seat
/// slot ended; it may still destroy itself, its popups and its grab.
final class InputMethod: ResourceObject {
    unowned let relay: TextInputRelay
    /// False for a second input method on the seat (sent `unavailable`).
    private(set) var isAvailable = true
    private(set) var isActive = false
    private var pending = InputMethodState()
    /// done events sent: what commit's serial should quote.
    private(set) var doneCount: UInt32 = 0
    private(set) weak var keyboardGrab: InputMethodKeyboardGrab?
    /// The popup surfaces this input method made (each removes itself when it dies).
    var popups: [Weak<InputPopupSurface>] = []

    /// zwp_input_method_v2's error enum in later versions of the XML (wlroots, mutter): a popup's
    /// surface that already has a role. The vendored v1 XML names no errors; the code is the same.
    static let roleErrorCode: UInt32 = 0

    init?(relay: TextInputRelay, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.relay = relay
        super.init(
            client: client, interface: strata_zwp_input_method_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// The active text input's latest state while this client's socket has no room for it
    /// (`BackpressureSender`: a text field committing 4 KiB of surrounding text again and again must not
    /// get the input method dropped when it reads slowly).
    private var sender: BackpressureSender?

    override func resourceDidDestroy() {
        sender?.stop()
        keyboardGrab?.inputMethodDidEnd()
        for popup in popups { popup.value?.inputMethodDidEnd() }
        popups.removeAll()
        if isAvailable { relay.inputMethodDidDestroy(self) }
    }

    // MARK: Told by the relay

    /// Another input method holds the seat: `unavailable`, the only event, and inert from now.
    func makeUnavailable() {
        guard isAvailable, !isDestroyed else { return }
        isAvailable = false
        zwp_input_method_v2_send_unavailable(resource)
        keyboardGrab?.inputMethodDidEnd()
        for popup in popups { popup.value?.inputMethodDidEnd() }
    }

    /// activate (a new text input, or the same one enabled again), the text input's state, done.
    func activate(with state: TextInputState) {
        guard isAvailable, !isDestroyed else { return }
        isActive = true
        pending = InputMethodState()
        sender?.cancel()
        zwp_input_method_v2_send_activate(resource)
        sendState(state)
        popupsDidChange()
    }

    /// The active text input committed again: its state, done — when the socket has room, else
    /// the latest state once it has.
    func update(with state: TextInputState) {
        guard isAvailable, !isDestroyed, isActive else { return }
        let sender = sender ?? BackpressureSender(display: relay.seat.compositor.display)
        self.sender = sender
        sender.send(to: { [weak self] in
            guard let self, !self.isDestroyed, self.isAvailable, self.isActive else { return nil }
            return self.client
        }) { [weak self] _ in
            self?.sendState(state)
            self?.popupsDidChange()
        }
    }

    /// No focused text input needs the input method any more: deactivate, done.
    func deactivate() {
        guard isAvailable, !isDestroyed, isActive else { return }
        isActive = false
        sender?.cancel()
        zwp_input_method_v2_send_deactivate(resource)
        sendDone()
        popupsDidChange()
    }

    private func sendState(_ state: TextInputState) {
        if let surrounding = state.surroundingText {
            zwp_input_method_v2_send_surrounding_text(
                resource, surrounding.text, surrounding.cursor, surrounding.anchor)
        }
        if let cause = state.changeCause {
            zwp_input_method_v2_send_text_change_cause(resource, cause)
        }
        zwp_input_method_v2_send_content_type(resource, state.contentHint, state.contentPurpose)
        sendDone()
    }

    private func sendDone() {
        doneCount &+= 1
        zwp_input_method_v2_send_done(resource)
    }

    /// Shows or hides the popups and tells them where the text cursor is.
    func popupsDidChange() {
        popups.removeAll { $0.value == nil }
        for popup in popups { popup.value?.update() }
    }

    // MARK: Requests

    static let implementation = makeImplementation(
        zwp_input_method_v2_interface(
            commit_string: { _, resource, text in
                handle(resource, as: InputMethod.self) { inputMethod in
                    guard let text else { return }
                    inputMethod.pending.commitString = String(cString: text)
                }
            },
            set_preedit_string: { _, resource, text, begin, end in
                handle(resource, as: InputMethod.self) { inputMethod in
                    guard let text else { return }
                    inputMethod.pending.preedit = .init(text: String(cString: text), cursorBegin: begin, cursorEnd: end)
                }
            },
            delete_surrounding_text: { _, resource, before, after in
                handle(resource, as: InputMethod.self) { inputMethod in
                    inputMethod.pending.deleteBefore = before
                    inputMethod.pending.deleteAfter = after
                }
            },
            commit: { _, resource, serial in
                handle(resource, as: InputMethod.self) { $0.handleCommitRequest(serial: serial) }
            },
            get_input_popup_surface: { _, resource, id, surface in
                handle(resource, as: InputMethod.self) {
                    try $0.handleGetInputPopupSurfaceRequest(id: id, surface: surface)
                }
            },
            grab_keyboard: { _, resource, id in
                handle(resource, as: InputMethod.self) { try $0.handleGrabKeyboardRequest(id: id) }
            },
            destroy: destroyRequest))

    /// Applies the pending text: to the active text input when this input method is the seat's
    /// and active (the relay checks). The serial is not checked against `doneCount`: the spec
    /// asks to "proceed as normal" on a mismatch, and a stale commit still carries the user's
    /// text (wlroots and Mir deliver it too).
    private func handleCommitRequest(serial: UInt32) {
        let state = pending
        pending = InputMethodState()
        guard isAvailable, isActive else { return }
        relay.inputMethodDidCommit(self, state: state)
    }

    private func handleGetInputPopupSurfaceRequest(id: UInt32, surface surfaceResource: OpaquePointer?)
        throws(ProtocolError)
    {
        guard let surface = ResourceObject.from(surfaceResource, as: Surface.self) else { return }
        if let role = surface.roleName, role != InputPopupSurface.roleName || surface.role != nil {
            throw ProtocolError(
                code: Self.roleErrorCode,
                "get_input_popup_surface: wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(role)"
            )
        }
        guard
            let popup = InputPopupSurface(inputMethod: self, surface: surface, client: client, version: version, id: id)
        else { return }
        popups.append(Weak(popup))
        popup.update()
    }

    private func handleGrabKeyboardRequest(id: UInt32) throws(ProtocolError) {
        if let grab = keyboardGrab, !grab.isDestroyed {
            throw ProtocolError.invalidMethod(
                "grab_keyboard: zwp_input_method_keyboard_grab_v2@\(wl_resource_get_id(grab.resource)) already holds the keyboard"
            )
        }
        guard
            let grab = InputMethodKeyboardGrab(keyboard: relay.seat.keyboard, client: client, version: version, id: id)
        else { return }
        // An unavailable input method gets an inert grab: it never receives keys.
        guard isAvailable else {
            grab.inputMethodDidEnd()
            return
        }
        keyboardGrab = grab
        grab.start()
    }
}
