/// The seat's text inputs and its one input method, and what passes between them (sway's
/// input-method relay, in Strata's terms).
///
/// - Text inputs are entered on the keyboard focus surface (the key window's, or a popup grab's)
///   when it is their client's, and left when the focus moves on.
/// - The *active* text input is the focused one whose last commit enabled it; while there is one,
///   the input method is active. A commit of the active text input sends the input method its
///   state and `done`; a commit that enables it again (a new field) re-activates; a commit that
///   disables it, the focus leaving it, or its death deactivates. Another text input's enable
///   is ignored while one is active (the spec's rule).
/// - The input method's commits go to the active text input as preedit/commit/delete + `done`
///   with the text input's commit count.
/// - One input method per seat: a second one gets `unavailable`. When the input method dies, the
///   next one is activated at once for a text input that is still enabled and focused.
/// - Keys: while the input method holds a keyboard grab and a text input is active, the
///   keyboard's keys go to the grab (`keyboardGrab`).
final class TextInputRelay {
    unowned let seat: Seat
    private var textInputs: [Weak<TextInput>] = []
    private(set) weak var inputMethod: InputMethod?
    private(set) weak var activeTextInput: TextInput?

    init(seat: Seat) { self.seat = seat }

    /// The grab keys go to now: the input method's, while a text input is active.
    var keyboardGrab: InputMethodKeyboardGrab? {
        guard activeTextInput != nil, let inputMethod, inputMethod.isActive,
            let grab = inputMethod.keyboardGrab, grab.isLive
        else { return nil }
        return grab
    }

    /// The client of the seat's input method (its virtual keyboard's keys pass the grab).
    var inputMethodClient: OpaquePointer? { inputMethod.map { $0.isDestroyed ? nil : $0.client } ?? nil }

    // MARK: Text inputs

    func textInputDidAppear(_ textInput: TextInput) {
        textInputs.removeAll { $0.value == nil }
        textInputs.append(Weak(textInput))
        textInput.keyboardFocusDidChange(to: seat.keyboardFocus)
    }

    func textInputDidDestroy(_ textInput: TextInput) {
        textInputs.removeAll { $0.value == nil || $0.value === textInput }
        if activeTextInput === textInput {
            activeTextInput = nil
            inputMethod?.deactivate()
        }
    }

    func textInputDidCommit(_ textInput: TextInput, wasEnabled: Bool, enableRequested: Bool) {
        guard textInput.isFocused else { return }
        if textInput.current.isEnabled {
            if let active = activeTextInput, active !== textInput { return }  // another field holds the input method
            let isNew = activeTextInput == nil || enableRequested || !wasEnabled
            activeTextInput = textInput
            guard let inputMethod else { return }
            if isNew || !inputMethod.isActive {
                inputMethod.activate(with: textInput.current)
            } else {
                inputMethod.update(with: textInput.current)
            }
        } else if activeTextInput === textInput {
            activeTextInput = nil
            inputMethod?.deactivate()
        }
    }

    /// The keyboard focus moved: text inputs leave and enter; an active text input that lost
    /// the focus deactivates the input method.
    func keyboardFocusDidChange(to surface: Surface?) {
        textInputs.removeAll { $0.value == nil }
        for entry in textInputs { entry.value?.keyboardFocusDidChange(to: surface) }
        if let active = activeTextInput, !active.isFocused {
            activeTextInput = nil
            inputMethod?.deactivate()
        }
    }

    // MARK: The input method

    func inputMethodDidAppear(_ new: InputMethod) {
        if let current = inputMethod, !current.isDestroyed, current.isAvailable {
            new.makeUnavailable()
            return
        }
        inputMethod = new
        // A field already waiting (enabled and focused) is served at once.
        if let textInput = activeTextInput
            ?? textInputs.lazy.compactMap(\.value).first(where: { $0.isFocused && $0.current.isEnabled })
        {
            activeTextInput = textInput
            new.activate(with: textInput.current)
        }
    }

    func inputMethodDidDestroy(_ dead: InputMethod) {
        guard inputMethod === dead || inputMethod == nil else { return }
        inputMethod = nil
        // The text input stays enabled: the next input method picks it up.
    }

    func inputMethodDidCommit(_ inputMethod: InputMethod, state: InputMethodState) {
        guard inputMethod === self.inputMethod, let textInput = activeTextInput, textInput.isFocused,
            textInput.current.isEnabled
        else { return }
        textInput.deliver(state)
    }

    /// Whether any text input or input method object is alive (the leak tests).
    var isEmpty: Bool { textInputs.allSatisfy { $0.value == nil } && inputMethod == nil }
}
