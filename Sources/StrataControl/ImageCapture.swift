import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// The pictures `screenshot` and `compare-screenshot` take, as opaque 0xAARRGGBB pixels: a
/// window's own image (`Scene.drawImage(of:)`: its surfaces, subsurfaces and popups alone,
/// whatever covers it and wherever it is, even partly off screen; black where it draws nothing)
/// or what a screen shows (`ScreenOutput.shownImage`, or with `raw` its composed canvas).
struct ImageCapture {
    /// What was captured, and the pixels.
    struct Picture {
        var pixels: PNGFile.Pixels
        /// The window captured (nil: a screen).
        var window: Window?
        /// The screen captured (nil: a window).
        var output: ScreenOutput?
        var raw = false
    }

    let compositor: Compositor

    /// The window's own image at its screen's scale. Errors in words: a hidden window (its
    /// image is not what anyone sees), a window that has not drawn yet, an image too large.
    func picture(of window: Window) throws(ControlError) -> Picture {
        guard !window.isHidden else {
            throw ControlError(
                .failed,
                "window \(window.id.rawValue) (\(Self.describe(window))) is hidden: `show` it before taking its image")
        }
        guard window.rootSurface?.hasContent == true else {
            throw ControlError(
                .failed,
                "window \(window.id.rawValue) (\(Self.describe(window))) has not drawn anything yet: wait for it (`settle`) first"
            )
        }
        let scene = compositor.scene
        let size = scene.imageSize(of: window)
        let width = Int(size.width), height = Int(size.height)
        guard width <= PNGFile.maximumSide, height <= PNGFile.maximumSide, width * height <= PNGFile.maximumPixels
        else {
            throw ControlError(
                .failed,
                "window \(window.id.rawValue)'s image would be \(width)x\(height), larger than the \(PNGFile.maximumSide)x\(PNGFile.maximumSide) (at most \(PNGFile.maximumPixels / 1_000_000) million pixels) written here"
            )
        }
        var argb = [UInt32](repeating: 0, count: width * height)
        let drawn = argb.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress,
                let canvas = Canvas(
                    wrapping: UnsafeMutableRawPointer(base), width: size.width, height: size.height,
                    stride: size.width * 4, hasAlpha: false)
            else { return false }
            scene.drawImage(of: window, into: canvas, scale: scene.imageScale(of: window))
            for index in 0..<buffer.count { buffer[index] |= 0xff00_0000 }
            return true
        }
        guard drawn else { throw ControlError(.failed, "cannot make window \(window.id.rawValue)'s image") }
        return Picture(pixels: PNGFile.Pixels(width: width, height: height, argb: argb), window: window)
    }

    /// What the screen shows (as `screenshot` writes it), repainted now; with `raw`, its composed
    /// canvas (upright, full brightness, no overscan border).
    func picture(of output: ScreenOutput, raw: Bool) throws(ControlError) -> Picture {
        compositor.scene.repaintDamagedScreens()
        guard let canvas = raw ? output.canvas : output.shownImage() else {
            throw ControlError(.failed, "cannot make the screen's image")
        }
        return Picture(pixels: PNGFile.Pixels(opaque: canvas), output: output, raw: raw)
    }

    /// The frames of shown windows, in `picture`'s pixels: relative to the captured window's frame
    /// (or the screen's origin) times its scale. A screen's shown image is mapped only when it is
    /// the canvas itself (no transform, no overscan): otherwise `unsupported`.
    func masks(windows: [Window], in picture: Picture) throws(ControlError) -> [Rect] {
        guard !windows.isEmpty else { return [] }
        let origin: (x: Int, y: Int), scale: Double
        if let window = picture.window {
            origin = (window.frame.x, window.frame.y)
            scale = compositor.scene.imageScale(of: window)
        } else if let output = picture.output {
            guard picture.raw || (output.screen.transform == .normal && output.screen.overscan == 0) else {
                throw ControlError(
                    .unsupported,
                    "masks by window or level on a turned or overscanned screen: use raw, or masks by rectangle")
            }
            origin = (output.screen.bounds.x, output.screen.bounds.y)
            scale = output.screen.scale
        } else {
            return []
        }
        return windows.map { other in
            let x0 = Double(other.frame.x - origin.x) * scale, y0 = Double(other.frame.y - origin.y) * scale
            let x1 = Double(other.frame.x - origin.x + other.frame.width) * scale
            let y1 = Double(other.frame.y - origin.y + other.frame.height) * scale
            let clamp = { (v: Double) in Int(max(-1e7, min(1e7, v.rounded(.down)))) }
            let left = clamp(x0), top = clamp(y0)
            return Rect(
                x: left, y: top, width: max(0, clamp(x1.rounded(.up)) - left),
                height: max(0, clamp(y1.rounded(.up)) - top))
        }
    }

    static func describe(_ window: Window) -> String {
        "app id \"\(window.appID)\", title \"\(window.title)\""
    }
}
