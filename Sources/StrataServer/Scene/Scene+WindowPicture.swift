import StrataModel
import StrataRender

/// A window's own image as a canvas of its own, for traces (`TraceRecorder`'s `shown`) and the
/// `wait-image` control command: `drawImage(of:into:scale:)` into a fresh canvas.
public extension Scene {
    /// The most pixels a window picture has (64 Mpx, as the replay's screens together).
    static let maximumWindowPicturePixels = 64 * 1024 * 1024

    /// The pixel size of the window's picture.
    func windowPictureSize(of window: Window) -> (width: Int32, height: Int32) { imageSize(of: window) }

    /// The window alone, at its screen's scale (transparent parts black); nil past
    /// `maximumWindowPicturePixels` or when no canvas can be made.
    func windowPicture(of window: Window) -> Canvas? {
        let size = imageSize(of: window)
        guard Int(size.width) * Int(size.height) <= Self.maximumWindowPicturePixels,
            let canvas = Canvas(width: size.width, height: size.height)
        else { return nil }
        drawImage(of: window, into: canvas, scale: imageScale(of: window))
        return canvas
    }
}
