/// Something that reads each frame a screen presents besides the backend: a video recording
/// (`record-video`, docs/experiments.md "Video"). The scene calls its observers right after the
/// backend presented a painted frame (`Scene.frameObservers`); frames with no damage are not
/// presented and cost nothing. Observers must not block the loop.
public protocol FrameObserver: AnyObject {
    /// `output` presented a painted frame: `output.displayCanvas` holds it.
    func screenDidPresent(_ output: ScreenOutput)
}
