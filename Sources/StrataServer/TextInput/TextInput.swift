import CStrataServerGlue
import CWaylandServer
import StrataModel

/// zwp_text_input_v3: a client's text field, as the seat's input method sees it.
///
/// It is entered on the keyboard focus surface when that belongs to its client (and left when
/// the focus moves on); requests fill the pending `TextInputState`, `commit` applies it, counts
/// the commit (the serial of `done`) and tells the relay, which activates, updates or
/// deactivates the input method. Text from the input method arrives through `deliver`.
final class TextInput: ResourceObject {
    unowned let relay: TextInputRelay
    private(set) var pending = TextInputState()
    private(set) var current = TextInputState()
    /// Whether the pending state holds an `enable` not yet committed (a new activation).
    private(set) var pendingEnable = false
    /// Commits received: the serial of `done`.
    private(set) var commitCount: UInt32 = 0
    /// The surface this text input was entered on (the keyboard focus, of its client).
    private(set) weak var focusedSurface: Surface?

    init?(relay: TextInputRelay, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.relay = relay
        super.init(
            client: client, interface: strata_zwp_text_input_v3_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        relay.textInputDidDestroy(self)
    }

    /// Whether the text input is entered on a live surface.
    var isFocused: Bool { focusedSurface.map { !$0.isDestroyed } ?? false }

    // MARK: Told by the relay

    /// The keyboard focus moved to `surface` (nil: nowhere): leave the old surface (unless it
    /// died: the client knows), enter the new one when it is this client's.
    func keyboardFocusDidChange(to surface: Surface?) {
        guard !isDestroyed else { return }
        let target = surface.flatMap { $0.client == client && !$0.isDestroyed ? $0 : nil }
        guard target !== focusedSurface else { return }
        if let old = focusedSurface, !old.isDestroyed {
            zwp_text_input_v3_send_leave(resource, old.resource)
        }
        focusedSurface = target
        if let target { zwp_text_input_v3_send_enter(resource, target.resource) }
    }

    /// The input method committed text for this text input: its events, then done(serial).
    func deliver(_ text: InputMethodState) {
        guard !isDestroyed else { return }
        if let preedit = text.preedit {
            zwp_text_input_v3_send_preedit_string(resource, preedit.text, preedit.cursorBegin, preedit.cursorEnd)
        }
        if let commit = text.commitString {
            zwp_text_input_v3_send_commit_string(resource, commit)
        }
        if text.deleteBefore != 0 || text.deleteAfter != 0 {
            zwp_text_input_v3_send_delete_surrounding_text(resource, text.deleteBefore, text.deleteAfter)
        }
        zwp_text_input_v3_send_done(resource, commitCount)
    }

    // MARK: Requests

    static let implementation = makeImplementation(
        zwp_text_input_v3_interface(
            destroy: destroyRequest,
            enable: { _, resource in
                handle(resource, as: TextInput.self) { textInput in
                    textInput.pending = .enabled
                    textInput.pendingEnable = true
                }
            },
            disable: { _, resource in
                handle(resource, as: TextInput.self) { textInput in
                    textInput.pending.isEnabled = false
                    textInput.pendingEnable = false
                }
            },
            set_surrounding_text: { _, resource, text, cursor, anchor in
                handle(resource, as: TextInput.self) { textInput in
                    // Offsets are bytes into the text; a negative one (or one past the end) describes
                    // nothing, and is dropped rather than passed on.
                    guard let text else { return }
                    let value = String(cString: text)
                    let length = value.utf8.count
                    guard cursor >= 0, anchor >= 0, Int(cursor) <= length, Int(anchor) <= length else { return }
                    textInput.pending.surroundingText = .init(
                        text: value, cursor: UInt32(cursor), anchor: UInt32(anchor))
                }
            },
            set_text_change_cause: { _, resource, cause in
                handle(resource, as: TextInput.self) { $0.pending.changeCause = cause }
            },
            set_content_type: { _, resource, hint, purpose in
                handle(resource, as: TextInput.self) { textInput in
                    textInput.pending.contentHint = hint
                    textInput.pending.contentPurpose = purpose
                }
            },
            set_cursor_rectangle: { _, resource, x, y, width, height in
                handle(resource, as: TextInput.self) { textInput in
                    guard width >= 0, height >= 0 else { return }
                    textInput.pending.cursorRectangle = Rect(
                        x: Int(x), y: Int(y), width: Int(width), height: Int(height))
                }
            },
            commit: { _, resource in
                handle(resource, as: TextInput.self) { $0.handleCommitRequest() }
            }))

    private func handleCommitRequest() {
        commitCount &+= 1
        let wasEnabled = current.isEnabled
        let reactivated = pendingEnable
        current = pending
        pending = pending.afterCommit()
        pendingEnable = false
        relay.textInputDidCommit(self, wasEnabled: wasEnabled, enableRequested: reactivated)
    }
}
