/// The XWM's part of an X client's drag over Wayland surfaces (`XDrag`).
extension XWM {
    /// The pointer moved to (x, y) (global), or its last button went up: the drop window is
    /// mapped or unmapped.
    func xDragPointerDidMove(x: Double, y: Double, buttonsHeld: Bool) {
        guard !isShutDown else { return }
        dnd.xDrag?.pointerDidMove(x: x, y: y, buttonsHeld: buttonsHeld)
    }
}
