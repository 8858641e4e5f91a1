/// The double-buffered text an input method sends to the active text input: applied by
/// zwp_input_method_v2.commit, then back to initial (nothing to insert, delete or pre-edit).
struct InputMethodState: Equatable {
    struct Preedit: Equatable {
        var text: String
        /// Byte offsets into `text`; both -1 hides the cursor.
        var cursorBegin: Int32
        var cursorEnd: Int32
    }

    var commitString: String?
    var preedit: Preedit?
    var deleteBefore: UInt32 = 0
    var deleteAfter: UInt32 = 0
}
