import CXKBCommon
import StrataTestSupport

/// What a client makes of the keyboard events it received: each keymap it was sent, the
/// modifiers it was told, and the text of each key press, as xkbcommon gives them (Return is a
/// newline, Tab a tab). nil when a keymap does not compile or a key comes before any keymap.
enum TypedTextDecoder {
    static func text(of seat: TestSeat) -> String? {
        text(of: seat.events, keymaps: seat.keymapTexts)
    }

    static func text(of events: [TestSeat.Event], keymaps: [String]) -> String? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else { return nil }
        var keymap: OpaquePointer?, state: OpaquePointer?
        defer {
            if let state { xkb_state_unref(state) }
            if let keymap { xkb_keymap_unref(keymap) }
            xkb_context_unref(context)
        }
        var texts = keymaps[...]
        var scalars = String.UnicodeScalarView()
        for event in events {
            switch event {
            case .keymap:
                guard let text = texts.popFirst() else { return nil }
                if let state { xkb_state_unref(state) }
                if let keymap { xkb_keymap_unref(keymap) }
                keymap = xkb_keymap_new_from_string(
                    context, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
                state = keymap.flatMap { xkb_state_new($0) }
                guard state != nil else { return nil }
            case .modifiers(let depressed, let latched, let locked, let group):
                guard let state else { return nil }
                _ = xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
            case .key(let key, true):
                guard let state else { return nil }
                let keysym = xkb_state_key_get_one_sym(state, key + 8)
                switch keysym {
                case 0xff0d: scalars.append("\n")
                case 0xff09: scalars.append("\t")
                default:
                    let value = xkb_keysym_to_utf32(keysym)
                    if value != 0, let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
                }
            default:
                break
            }
        }
        return String(scalars)
    }
}
