/// One frame's scrolling for the seat's pointer (`Seat.pointerScroll`): what wl_pointer's axis
/// events of one frame carry. Values are in surface-local units (positive: down / right).
public struct PointerScroll: Equatable {
    public var vertical = 0.0
    public var horizontal = 0.0
    /// Wheel steps (wl_pointer.axis_discrete before v8, axis_value120 × 120 from v8); 0: none.
    public var verticalSteps: Int32 = 0
    public var horizontalSteps: Int32 = 0
    /// wl_pointer.axis_source (wheel 0, finger 1, continuous 2, wheel_tilt 3), if known.
    public var source: UInt32?
    /// The scroll sequence on the axis ended (wl_pointer.axis_stop).
    public var verticalStop = false
    public var horizontalStop = false

    public init(vertical: Double = 0, horizontal: Double = 0) {
        self.vertical = vertical
        self.horizontal = horizontal
    }

    /// Whether the frame carries anything to send.
    public var isEmpty: Bool {
        vertical == 0 && horizontal == 0 && verticalSteps == 0 && horizontalSteps == 0 && !verticalStop
            && !horizontalStop
    }
}
