/// A capture waiting for a screen's next painted frame (screencopy's `copy_with_damage`, an
/// ext_image_copy_capture frame of an output source): it hears the scene's `framePresented` for
/// that screen (`painted`, with `presentedDamage` set) until `cancel()`, and `outputWillGo`
/// (`going`) if the screen goes first. A frame whose damage missed the capture's region just
/// keeps waiting.
final class ScreenFrameWait {
    private var presented: Signal<ScreenOutput>.Token?
    private var going: Signal<ScreenOutput>.Token?

    init(scene: Scene, output: ScreenOutput, painted: @escaping (ScreenOutput) -> Void, going: @escaping () -> Void) {
        presented = scene.framePresented.observe { [weak output] presented in
            if presented === output { painted(presented) }
        }
        self.going = scene.outputWillGo.observe { [weak output] gone in
            if gone === output { going() }
        }
    }

    /// Stops hearing both (the capture happened, failed or died); cancelling twice is harmless.
    func cancel() {
        presented?.remove()
        going?.remove()
    }

    deinit { cancel() }
}
