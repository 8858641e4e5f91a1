import StrataServer

/// Where a nested backend sends the parent session's input, in screen coordinates: the
/// compositor's seat (the default), or a test's recorder. The methods are the seat's injection
/// API, so `Seat` conforms as it is.
public protocol NestedInput: AnyObject {
    func pointerMotion(on output: ScreenOutput, x: Double, y: Double, time: UInt32)
    /// Relative motion (the parent's zwp_relative_pointer_v1 while Strata locks the pointer).
    func pointerMotion(dx: Double, dy: Double, time: UInt32)
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32)
    func pointerAxis(vertical: Double, horizontal: Double, time: UInt32)
    /// `keycode` is an evdev code (XKB keycode − 8).
    func key(_ keycode: UInt32, pressed: Bool, time: UInt32)
    func touchDown(id: Int32, on output: ScreenOutput, x: Double, y: Double, time: UInt32)
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32)
    func touchUp(id: Int32, time: UInt32)
    /// Uses the parent session's keymap (xkb text v1); false when it does not compile.
    @discardableResult
    func useKeymap(text: String) -> Bool
}

extension Seat: NestedInput {}

public extension NestedInput {
    func pointerMotion(dx: Double, dy: Double, time: UInt32) {}
}
