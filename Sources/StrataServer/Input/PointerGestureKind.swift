/// The three touchpad gestures of zwp_pointer_gestures_v1: a swipe (several fingers moving
/// together), a pinch (fingers moving apart or together, or turning) and a hold (fingers resting).
public enum PointerGestureKind: String, Sendable, CaseIterable {
    case swipe, pinch, hold
}
