import StrataModel

/// One input event as it entered the seat's injection API (`Seat.pointerMotion`, `key`, …), for
/// a trace recorder (`Seat.inputHandled`). A value without references: telling it allocates nothing.
public enum InjectedInput: Sendable, Equatable {
    case pointerMotion(screen: ScreenID, x: Double, y: Double)
    case pointerRelativeMotion(dx: Double, dy: Double)
    case pointerButton(button: UInt32, pressed: Bool)
    case pointerAxis(vertical: Double, horizontal: Double)
    /// A key of the seat's keyboard; `virtualKeyboard`: from a client's zwp_virtual_keyboard_v1
    /// (a replay gets it again from that client, not from the trace).
    case key(keycode: UInt32, pressed: Bool, virtualKeyboard: Bool)
    case touchDown(id: Int32, screen: ScreenID, x: Double, y: Double)
    case touchMotion(id: Int32, x: Double, y: Double)
    case touchUp(id: Int32)
    case touchCancel
    case gestureBegin(kind: PointerGestureKind, fingers: UInt32)
    case gestureUpdate(kind: PointerGestureKind, dx: Double, dy: Double, scale: Double, rotation: Double)
    case gestureEnd(kind: PointerGestureKind, cancelled: Bool)
    case tabletTool(tool: TabletToolDescription, event: TabletToolEvent, axes: TabletToolAxes)
}
