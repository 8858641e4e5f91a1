import StrataModel

/// The double-buffered state of a zwp_text_input_v3 (what a text field tells the input method).
/// `enable` resets it; `commit` applies it, after which the surrounding text and the change cause
/// go back to their initial values (they describe one change) while the rest stays.
struct TextInputState: Equatable {
    struct SurroundingText: Equatable {
        var text: String
        /// Byte offsets into `text`.
        var cursor: UInt32
        var anchor: UInt32
    }

    var isEnabled = false
    /// Set by this commit's set_surrounding_text, if any (nil: not sent).
    var surroundingText: SurroundingText?
    /// Set by this commit's set_text_change_cause, if any (nil: the initial `input_method`).
    var changeCause: UInt32?
    var contentHint: UInt32 = 0
    var contentPurpose: UInt32 = 0
    /// The text cursor, in the text input's surface coordinates (nil: never set).
    var cursorRectangle: Rect?

    /// What `enable` leaves: every field initial, enabled.
    static var enabled: TextInputState {
        var state = TextInputState()
        state.isEnabled = true
        return state
    }

    /// The pending state after a commit: the one-change fields go back to initial.
    func afterCommit() -> TextInputState {
        var next = self
        next.surroundingText = nil
        next.changeCause = nil
        return next
    }
}
