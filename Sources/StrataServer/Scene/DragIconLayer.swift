import StrataModel
import StrataRender

/// A drag's icon (wl_data_device.start_drag): a layer above every window and below the cursor,
/// drawn on the screen the drag's point is on, its top-left corner at the point moved by the
/// icon's offset (`Drag.iconOffset`). Only the icon surface is drawn, not its subsurfaces. Its
/// rectangle is logical, drawn through the screen's device edges as every surface is
/// (`ScreenOutput.deviceRect`), so it is in place on scaled screens.
///
/// Damage is exact, as the cursor's: a change damages the rectangle the icon covered and the one
/// it covers now; an unchanged icon damages nothing. Its frame callbacks are answered by frames
/// that show it.
final class DragIconLayer {
    unowned let compositor: Compositor

    /// Where the icon was last drawn: its screen and rectangle (screen coordinates).
    private struct Placement: Equatable {
        var screen: ScreenID
        var x: Int32, y: Int32, width: Int32, height: Int32
    }
    private var drawn: Placement?
    private weak var surface: Surface?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    /// The rectangle the icon covers now on its screen (tests).
    var rect: (screen: ScreenID, rect: Rect)? {
        drawn.map { ($0.screen, Rect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height))) }
    }

    /// Re-evaluates what the icon shows and where; damages the old and new rectangles when either
    /// changed. `contentChanged`: the icon committed new pixels.
    func update(contentChanged: Bool = false) {
        var next: Placement?
        let drag = compositor.seat.drag
        if let drag, let icon = drag.icon, !icon.isDestroyed, icon.hasContent, let output = drag.output {
            next = Placement(
                screen: output.screen.id,
                x: Coordinate.sum(CursorLayer.pixel(drag.x), drag.iconOffset.x),
                y: Coordinate.sum(CursorLayer.pixel(drag.y), drag.iconOffset.y),
                width: icon.width, height: icon.height)
        }
        surface = next == nil ? nil : drag?.icon
        if next != drawn || (contentChanged && next != nil) {
            if let drawn { damage(drawn) }
            if let next { damage(next) }
            drawn = next
        }
        if let drawn, let surface, !surface.frameCallbacks.isEmpty,
            let output = compositor.scene.output(for: drawn.screen)
        {
            compositor.scene.scheduleFrame(output)
        }
    }

    private func damage(_ placement: Placement) {
        guard let output = compositor.scene.output(for: placement.screen) else { return }
        output.damage.addRect(x: placement.x, y: placement.y, width: placement.width, height: placement.height)
        compositor.scene.scheduleFrame(output)
    }

    /// Draws the icon on `output`'s canvas inside `clip` (the frame's damage, canvas pixels),
    /// after the windows.
    func draw(on output: ScreenOutput, clip: PixmanRegion) {
        guard let drawn, drawn.screen == output.screen.id, let surface, !surface.isDestroyed else { return }
        let r = output.deviceRect(x: drawn.x, y: drawn.y, width: drawn.width, height: drawn.height)
        guard r.width > 0, r.height > 0, clip.extentsIntersect(x: r.x, y: r.y, width: r.width, height: r.height) else {
            return
        }
        output.canvas.draw(
            surface.texture, x: r.x, y: r.y, surfaceWidth: surface.width, surfaceHeight: surface.height,
            transform: surface.bufferTransform, viewport: surface.viewport, width: r.width, height: r.height, in: clip)
    }

    /// A frame of `output` completed at `time`: the icon shown there gets its frame callbacks done.
    func frameDidComplete(on output: ScreenOutput, timeMilliseconds time: UInt32) {
        guard let drawn, drawn.screen == output.screen.id, let surface, !surface.frameCallbacks.isEmpty else { return }
        for callback in surface.frameCallbacks { callback.done(timeMilliseconds: time) }
        surface.frameCallbacks.removeAll(keepingCapacity: true)
    }
}
