import Glibc
import StrataModel
import StrataServer

extension Compositor {
    /// The parent session gave a nested screen's window a new size: the screen switches to a
    /// custom mode of that size (the canvas follows through `screenModeDidChange`) and is
    /// repainted at once, so the next frame the backend shows has the new size. Sizes the model
    /// refuses (zero, negative) are ignored: the parent then keeps getting the old size; sizes
    /// beyond `maximumNestedSize` are clamped to it.
    func nestedScreen(_ output: ScreenOutput, didResizeToWidth requestedWidth: Int32, height requestedHeight: Int32) {
        let width = min(requestedWidth, Self.maximumNestedSize), height = min(requestedHeight, Self.maximumNestedSize)
        guard width > 0, height > 0, width != output.canvas.width || height != output.canvas.height else { return }
        let refresh = output.screen.currentMode?.refreshMilliHz ?? 60000
        do {
            try windows.setCustomMode(
                ScreenMode(width: Int(width), height: Int(height), refreshMilliHz: refresh),
                for: output.screen)
        } catch {
            return
        }
        scene.repaint(output)
    }

    /// The largest side a nested screen takes from its parent (a canvas of 16384² is 1 GiB).
    static let maximumNestedSize: Int32 = 16384

    /// Milliseconds on the monotonic clock (the parent's time base), for events the parent sends
    /// without a time.
    static var nestedNowMilliseconds: UInt32 {
        UInt32(truncatingIfNeeded: Clock.monotonicNanoseconds() / 1_000_000)
    }
}
