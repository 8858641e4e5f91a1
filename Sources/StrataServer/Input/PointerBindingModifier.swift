/// The key that turns a pointer drag into a window move or resize (`Seat.pointerBindingModifier`,
/// `strata --pointer-binding-modifier`): held, a left drag moves the window under the pointer and
/// a right drag resizes it from the corner or edge nearest the pointer (sway's floating_modifier).
public enum PointerBindingModifier: String, CaseIterable, Sendable {
    /// The logo key (Super, Windows): xkb's Mod4.
    case `super`
    /// Alt: xkb's Mod1.
    case alt
    /// Control.
    case ctrl

    /// The xkb modifier the key sets.
    var xkbName: String {
        switch self {
        case .super: return "Mod4"
        case .alt: return "Mod1"
        case .ctrl: return "Control"
        }
    }
}
