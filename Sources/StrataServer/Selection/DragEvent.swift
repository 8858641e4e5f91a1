import StrataModel

/// A step of a drag-and-drop session, for a trace recorder (`Seat.dragChanged`).
public enum DragEvent: Sendable, Equatable {
    /// Why a drag ended.
    public enum End: String, Sendable {
        /// Released over a destination that accepted a type and an action: the data moves.
        case dropped
        /// Released over nothing, or over a destination that accepted nothing.
        case notAccepted = "not_accepted"
        /// The source died during the drag.
        case sourceDestroyed = "source_destroyed"
        /// The origin surface died during the drag.
        case originDestroyed = "origin_destroyed"
        /// The compositor took the input away (session lock, touch cancel).
        case cancelled
    }

    /// A drag began, by the pointer or by the touch point `touch`, with a source (data for other
    /// clients) or without one (the client's own), with an icon or without.
    case started(touch: Int32?, hasSource: Bool, hasIcon: Bool)
    /// The drag entered a surface of `window` (nil: a surface not shown in a window).
    case entered(window: WindowID?)
    /// The drag left the surface it was over.
    case left
    /// The drag ended.
    case ended(End, action: UInt32)
}
