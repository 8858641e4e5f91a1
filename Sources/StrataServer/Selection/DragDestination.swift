/// A drag's destination that is not a Wayland client's data device: an X window under the drag,
/// spoken to through XDND (`XDropTarget`). The drag tells it where the point is, that it left,
/// and the release; the destination tells the source what it accepts
/// (`DataSource.destinationDidAccept`, `actionDidChange`) and, after a drop, that it is done
/// (`dragDidFinish`) or failed (`dragDidFail`).
protocol DragDestination: AnyObject {
    /// The point moved over the destination (global layout coordinates).
    func dragDidMove(x: Double, y: Double)
    /// The drag left the destination, or ended without dropping on it. After a drop: nothing.
    func dragDidLeave()
    /// The release over the destination: whether it accepted a type and an action (then the
    /// drop happens and the destination finishes it later).
    func dragWillDrop() -> Bool
}
