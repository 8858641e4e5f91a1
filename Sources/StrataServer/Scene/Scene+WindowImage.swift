import StrataModel
import StrataRender

/// A window's own image, drawn alone (no screen, no other window, no cursor): what a toplevel
/// capture gives (`ext_foreign_toplevel_image_capture_source_manager_v1`).
extension Scene {
    /// The scale a window's image is drawn at: its screen's (1 without a screen).
    public func imageScale(of window: Window) -> Double {
        window.screen.flatMap { output(for: $0.id) }?.scale ?? 1
    }

    /// The pixel size of a window's image: its frame (the window geometry) at `imageScale`,
    /// at least 1×1.
    public func imageSize(of window: Window) -> (width: Int32, height: Int32) {
        let scale = imageScale(of: window)
        let w = Coordinate.scaled(Coordinate.clamped(window.frame.width), by: scale)
        let h = Coordinate.scaled(Coordinate.clamped(window.frame.height), by: scale)
        return (max(1, w), max(1, h))
    }

    /// Draws the window's surface trees (its surface and subsurfaces, then its popups) into
    /// `canvas`, the frame's origin at the canvas's, at `scale`: what sticks out of the frame (a
    /// client-side shadow, a popup past the edge) is cut off. Drawn whether the window is shown
    /// or not (a minimized window's last pixels). The canvas is cleared first (transparent where
    /// the window draws nothing).
    public func drawImage(of window: Window, into canvas: Canvas, scale: Double) {
        canvas.setClip(nil)
        canvas.clear()
        func device(_ v: Int32) -> Int32 { scale == 1 ? v : Coordinate.scaled(v, by: scale) }
        window.forEachRootSurface { root in
            guard let origin = offset(of: root, in: window, depth: 0) else { return }
            root.forEachSurface(x: origin.x, y: origin.y) { surface, x, y in
                let x1 = device(x), y1 = device(y)
                let x2 = device(Coordinate.sum(x, surface.width)), y2 = device(Coordinate.sum(y, surface.height))
                guard x2 > x1, y2 > y1, x2 > 0, y2 > 0, x1 < canvas.width, y1 < canvas.height else { return }
                canvas.draw(
                    surface.texture, x: x1, y: y1, surfaceWidth: surface.width, surfaceHeight: surface.height,
                    transform: surface.bufferTransform, viewport: surface.viewport, width: x2 - x1, height: y2 - y1,
                    mask: surface.render.alphaMask)
            }
        }
    }

    /// Where a root surface of `window` hangs from the window's frame origin, through its anchor
    /// chain (a popup hangs from its parent); nil when it does not hang from this window.
    private func offset(of surface: Surface, in window: Window, depth: Int) -> (x: Int32, y: Int32)? {
        let render = surface.render
        switch render.anchorKind {
        case .window:
            guard render.anchorWindow === window else { return nil }
            return (Coordinate.clamped(render.anchorX), Coordinate.clamped(render.anchorY))
        case .surface:
            // Recursion as deep as the chain: bounded like `placement(of:)`'s.
            guard depth < 4 * (TreeLimits.maxSubsurfaceDepth + TreeLimits.maxPopupDepth),
                let parent = render.anchorSurface,
                parent.hasContent, let p = offset(of: parent, in: window, depth: depth + 1)
            else { return nil }
            return (Coordinate.clamped(Int(p.x) + render.anchorX), Coordinate.clamped(Int(p.y) + render.anchorY))
        case .none, .screen:
            return nil
        }
    }

    /// The window a surface is drawn for: up its subsurface parents to the root, then up the
    /// anchor chain (a popup's parent) to the window it hangs from. Bounded walks.
    func anchoredWindow(of surface: Surface) -> Window? {
        var current = surface
        var depth = 0
        while depth < 4 * (TreeLimits.maxSubsurfaceDepth + TreeLimits.maxPopupDepth) {
            depth += 1
            if let parent = current.subsurface?.parent {
                current = parent
                continue
            }
            let render = current.render
            switch render.anchorKind {
            case .window:
                return render.anchorWindow
            case .surface:
                guard let parent = render.anchorSurface else { return nil }
                current = parent
            case .none, .screen:
                return nil
            }
        }
        return nil
    }
}
