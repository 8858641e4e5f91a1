import CWaylandServer
import StrataModel
import StrataRender

/// The cursor: a layer above every window, drawn last on the screen the pointer is on, with its
/// hotspot at the pointer's position.
///
/// It is placed in the screen's canvas pixels, as weston and sway place it: the pointer's
/// position times the screen's scale, floored, is the hotspot's pixel, and the image is drawn at
/// the screen's scale (a cursor surface of w×h at scale s covers round(w·s)×round(h·s) canvas
/// pixels, its hotspot (hx, hy) at (round(hx·s), round(hy·s)) from its corner, so a buffer of
/// scale s is drawn 1:1). The theme's images come from the theme loaded at the size times the
/// scale (`scaledTheme`) and are drawn 1:1 when that gives a larger image, else the scale-1
/// image is enlarged the same way as a surface. A turned, dimmed or overscanned
/// screen turns, dims and places the canvas as a whole (`ScreenOutput.present`), the cursor
/// with it.
///
/// What it shows is the pointer's decision (`Pointer.cursorImage`): the focus client's cursor
/// surface (wl_pointer.set_cursor), a named cursor of the theme (wp_cursor_shape_v1), nothing
/// (set_cursor with a null surface), or the theme's default arrow (over the background, or over a
/// client that never set one). Nothing shows before the pointer has a position (the first motion
/// or injected event), so runs without pointer input keep their exact pixels, nor with `isHidden`
/// (`strata --hide-cursor`), nor when the backend shows the cursor itself (nested Wayland: the
/// parent's pointer shows it; `Backend.cursorDidChange`).
///
/// Damage is exact: a change damages the rectangle the cursor covered and the one it covers now,
/// and nothing else; an unchanged cursor damages nothing. A cursor surface's commit damages its
/// rectangle (animated cursors), and its frame callbacks are answered by frames that show it.
public final class CursorLayer {
    unowned let compositor: Compositor
    /// No cursor is drawn (`strata --hide-cursor`, screenshot-only runs).
    public var isHidden = false {
        didSet { if isHidden != oldValue { update() } }
    }
    /// The system's Xcursor theme (the default arrow, cursor-shape names).
    public let theme: CursorTheme

    /// What the cursor shows.
    public enum Image {
        case surface(Surface, hotspotX: Int32, hotspotY: Int32)
        case image(CursorImage)
    }

    /// Where the cursor was last drawn: its screen, its rectangle of canvas pixels, and the
    /// logical rectangle damaged for it (the canvas rectangle rounded outwards; the same at
    /// scale 1).
    private struct Placement: Equatable {
        var screen: ScreenID
        var x: Int32, y: Int32, width: Int32, height: Int32
        var damageX: Int32, damageY: Int32, damageWidth: Int32, damageHeight: Int32

        /// `inCanvasPixels`: the size and hotspot are canvas pixels already (a theme image at the
        /// screen's scale), else logical (scaled here).
        init(
            on output: ScreenOutput, pointX: Double, pointY: Double, width: Int32, height: Int32, hotspotX: Int32,
            hotspotY: Int32,
            inCanvasPixels: Bool = false
        ) {
            screen = output.screen.id
            let scale = output.scale
            func device(_ v: Int32) -> Int32 {
                output.isUnscaled || inCanvasPixels ? Coordinate.clamped(v) : Coordinate.scaled(v, by: scale)
            }
            let px = CursorLayer.pixel(output.isUnscaled ? pointX : pointX * scale)
            let py = CursorLayer.pixel(output.isUnscaled ? pointY : pointY * scale)
            x = Coordinate.difference(px, device(hotspotX))
            y = Coordinate.difference(py, device(hotspotY))
            self.width = device(width)
            self.height = device(height)
            guard !output.isUnscaled else {
                (damageX, damageY, damageWidth, damageHeight) = (x, y, self.width, self.height)
                return
            }
            let x1 = Coordinate.clamped((Double(x) / scale).rounded(.down))
            let y1 = Coordinate.clamped((Double(y) / scale).rounded(.down))
            let x2 = Coordinate.clamped((Double(Coordinate.sum(x, self.width)) / scale).rounded(.up))
            let y2 = Coordinate.clamped((Double(Coordinate.sum(y, self.height)) / scale).rounded(.up))
            (damageX, damageY, damageWidth, damageHeight) = (
                x1, y1, Coordinate.difference(x2, x1), Coordinate.difference(y2, y1)
            )
        }
    }
    private var drawn: Placement?
    /// The content last drawn (the surface or theme image object): a new one of the same
    /// rectangle is drawn too.
    private var drawnContent: ObjectIdentifier?
    private(set) var image: Image?
    /// The theme at the size times a screen's scale, for the last few scales seen (at most
    /// `maxScaledThemes`; the scale is the user's, any number of them).
    private var scaledThemes: [(size: Int32, theme: CursorTheme)] = []
    private static let maxScaledThemes = 4
    /// Grows with every new content of the cursor (the nested backend re-uploads then).
    public private(set) var generation = 0

    init(compositor: Compositor, theme: CursorTheme = CursorTheme()) {
        self.compositor = compositor
        self.theme = theme
    }

    /// The rectangle the cursor covers now on its screen, in the screen's canvas pixels (logical
    /// coordinates at scale 1; tests, captures without the cursor).
    public var rect: (screen: ScreenID, rect: Rect)? {
        drawn.map { ($0.screen, Rect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height))) }
    }

    /// The image of the cursor shown now (nil: none), for the nested backend and tests.
    public var currentImage: Image? { drawn == nil ? nil : image }

    /// Re-evaluates what the cursor shows and where; damages the old and new rectangles when
    /// either changed. `contentChanged`: the cursor surface committed new pixels.
    func update(contentChanged: Bool = false) {
        var wanted = compositor.seat.pointer.cursorImage(theme: theme)
        let backendShows = !compositor.backend.drawsCursor
        if contentChanged { generation &+= 1 }
        var next: Placement?
        var content: ObjectIdentifier?
        if !isHidden, !backendShows, let shown = wanted, let position = compositor.seat.pointerPosition {
            let output = position.output
            if case .image(let base) = shown, !output.isUnscaled, let theme = scaledTheme(for: output.scale),
                case .image(let sharp)? = compositor.seat.pointer.cursorImage(theme: theme),
                sharp.width > base.width, sharp.height > base.height
            {
                // The theme's image at the screen's scale, drawn 1:1 in canvas pixels.
                wanted = .image(sharp)
                content = ObjectIdentifier(sharp)
                next = Placement(
                    on: output, pointX: position.x, pointY: position.y, width: sharp.width, height: sharp.height,
                    hotspotX: sharp.hotspotX, hotspotY: sharp.hotspotY, inCanvasPixels: true)
            } else {
                switch shown {
                case .surface(let surface, let hx, let hy):
                    if surface.hasContent, !surface.isDestroyed {
                        content = ObjectIdentifier(surface)
                        next = Placement(
                            on: output, pointX: position.x, pointY: position.y,
                            width: surface.width, height: surface.height, hotspotX: hx, hotspotY: hy)
                    }
                case .image(let cursor):
                    content = ObjectIdentifier(cursor)
                    next = Placement(
                        on: output, pointX: position.x, pointY: position.y,
                        width: cursor.width, height: cursor.height, hotspotX: cursor.hotspotX, hotspotY: cursor.hotspotY
                    )
                }
            }
        }
        image = wanted
        if next != drawn || (next != nil && (contentChanged || content != drawnContent)) {
            if let drawn { damage(drawn) }
            if let next { damage(next) }
            drawn = next
        }
        drawnContent = next == nil ? nil : content
        if backendShows { compositor.backend.cursorDidChange(isHidden ? nil : wanted, generation: generation) }
    }

    /// The theme at its size times `scale` (nil: the same size as the scale-1 theme's).
    private func scaledTheme(for scale: Double) -> CursorTheme? {
        let size = Int32(clamping: Int64((Double(theme.size) * min(scale, 256)).rounded()))
        guard size > theme.size else { return nil }
        if let found = scaledThemes.first(where: { $0.size == size }) { return found.theme }
        if scaledThemes.count >= Self.maxScaledThemes { scaledThemes.removeFirst() }
        let scaled = CursorTheme(name: theme.themeName, size: size)
        scaledThemes.append((size, scaled))
        return scaled
    }

    /// The pixel a coordinate falls in, for any value (the seat accepts huge ones), clamped.
    static func pixel(_ value: Double) -> Int32 {
        Coordinate.floor(value)
    }

    /// A cursor surface committed: its pixels, size or hotspot changed.
    func surfaceDidCommit(_ surface: Surface) {
        guard case .surface(let current, _, _) = compositor.seat.pointer.cursorImage(theme: theme), current === surface
        else { return }
        update(contentChanged: true)
        if let drawn, !surface.frameCallbacks.isEmpty, let output = compositor.scene.output(for: drawn.screen) {
            compositor.scene.scheduleFrame(output)
        }
        if !compositor.backend.drawsCursor, !surface.frameCallbacks.isEmpty {
            // The parent shows it: the frame is the commit's.
            for callback in surface.frameCallbacks { callback.done(timeMilliseconds: compositor.clock.milliseconds) }
            surface.frameCallbacks.removeAll()
        }
    }

    private func damage(_ placement: Placement) {
        guard let output = compositor.scene.output(for: placement.screen) else { return }
        output.damage.addRect(
            x: placement.damageX, y: placement.damageY, width: placement.damageWidth, height: placement.damageHeight)
        compositor.scene.scheduleFrame(output)
    }

    /// Draws the cursor on `output`'s canvas inside `clip` (the frame's damage, canvas pixels),
    /// after the windows.
    func draw(on output: ScreenOutput, clip: PixmanRegion) {
        guard let drawn, drawn.screen == output.screen.id, let image else { return }
        guard clip.extentsIntersect(x: drawn.x, y: drawn.y, width: drawn.width, height: drawn.height) else { return }
        switch image {
        case .surface(let surface, _, _):
            output.canvas.draw(
                surface.texture, x: drawn.x, y: drawn.y, surfaceWidth: surface.width, surfaceHeight: surface.height,
                transform: surface.bufferTransform, viewport: surface.viewport,
                width: drawn.width, height: drawn.height, in: clip)
        case .image(let cursor):
            output.canvas.draw(
                cursor.texture, x: drawn.x, y: drawn.y, surfaceWidth: cursor.width, surfaceHeight: cursor.height,
                transform: .identity, width: drawn.width, height: drawn.height, in: clip)
        }
    }

    /// A frame of `output` completed at `time`: the cursor surface shown there gets its frame
    /// callbacks done.
    func frameDidComplete(on output: ScreenOutput, timeMilliseconds time: UInt32) {
        guard let drawn, drawn.screen == output.screen.id, case .surface(let surface, _, _) = image,
            !surface.frameCallbacks.isEmpty
        else { return }
        for callback in surface.frameCallbacks { callback.done(timeMilliseconds: time) }
        surface.frameCallbacks.removeAll(keepingCapacity: true)
    }
}
