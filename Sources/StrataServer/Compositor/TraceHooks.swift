/// What a trace recorder (`strata --record`, docs/experiments.md) is told besides the model's
/// notifications: each frame a screen presents, and each input event the seat is given. The
/// compositor holds it weakly (`Compositor.traceHooks`); without one, each hook point costs a
/// nil check and nothing else.
public protocol TraceHooks: AnyObject {
    /// `output` presented a painted frame: `output.displayCanvas` holds it and
    /// `output.presentedDamage` is what changed (called from the repaint, after the backend).
    func screenDidPresent(_ output: ScreenOutput)
    /// The seat handled `input` (its events were sent) at `time` (the event's milliseconds).
    func seatDidHandle(_ input: InjectedInput, time: UInt32)
    /// A drag-and-drop session began, entered or left a surface, or ended (`Drag`).
    func dragDidChange(_ event: DragEvent)
}

public extension TraceHooks {
    /// A drag-and-drop session began, entered or left a surface, or ended.
    func dragDidChange(_ event: DragEvent) {}
}
