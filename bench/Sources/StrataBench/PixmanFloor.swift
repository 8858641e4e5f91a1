import CPixman
import StrataRender

/// The floor: the pixman calls a frame of the scene cannot avoid, made directly, with every
/// region computed beforehand (outside the measured part). For a damage clip, that is one fill of
/// the background where no opaque window covers the damage, and one composite per window clipped
/// to the part of the damage it shows (opaque windows above removed): SRC for XRGB, OVER for ARGB.
///
/// `paintersAlgorithm` is what a compositor without occlusion culling does: the damage filled,
/// then every window drawn back to front over it.
public final class PixmanFloor {
    public let layout: SceneLayout
    private let destination: OpaquePointer
    private var sources: [OpaquePointer] = []
    private var visible: [PixmanRegion] = []
    private let background = PixmanRegion()
    private let clip = PixmanRegion()

    public init(layout: SceneLayout) {
        self.layout = layout
        destination = pixman_image_create_bits(
            PIXMAN_x8r8g8b8, SceneLayout.screenWidth, SceneLayout.screenHeight, nil, 0)!
        for spec in layout.windows {
            let image = pixman_image_create_bits(
                spec.hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8, spec.width, spec.height, nil, 0)!
            let pixels = pixman_image_get_data(image)!
            pixels.update(repeating: spec.argb, count: Int(spec.width) * Int(spec.height))
            sources.append(image)
            visible.append(PixmanRegion())
        }
        prepare(damage: (0, 0, SceneLayout.screenWidth, SceneLayout.screenHeight))
    }

    deinit {
        pixman_image_unref(destination)
        for source in sources { pixman_image_unref(source) }
    }

    /// Computes, for this damage rectangle, each window's visible part and the background's.
    public func prepare(damage rect: (x: Int32, y: Int32, width: Int32, height: Int32)) {
        clip.clear()
        clip.addRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        let opaqueAbove = PixmanRegion()
        for (index, spec) in layout.windows.enumerated().reversed() {
            let region = visible[index]
            region.set(clip)
            region.intersect(x: spec.x, y: spec.y, width: spec.width, height: spec.height)
            region.subtract(opaqueAbove)
            if !spec.hasAlpha { opaqueAbove.addRect(x: spec.x, y: spec.y, width: spec.width, height: spec.height) }
        }
        background.set(clip)
        background.subtract(opaqueAbove)
    }

    /// One frame of the floor (after `prepare`).
    public func composite() {
        var color = pixman_color_t(red: 0x2020, green: 0x2424, blue: 0x2828, alpha: 0xffff)
        var rect = pixman_rectangle16_t(
            x: 0, y: 0, width: UInt16(SceneLayout.screenWidth), height: UInt16(SceneLayout.screenHeight))
        if !background.isEmpty {
            pixman_image_set_clip_region32(destination, background.raw)
            pixman_image_fill_rectangles(PIXMAN_OP_SRC, destination, &color, 1, &rect)
        }
        for (index, spec) in layout.windows.enumerated() where !visible[index].isEmpty {
            pixman_image_set_clip_region32(destination, visible[index].raw)
            pixman_image_composite32(
                spec.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, sources[index], nil, destination,
                0, 0, 0, 0, spec.x, spec.y, spec.width, spec.height)
        }
        pixman_image_set_clip_region32(destination, nil)
    }

    /// One frame without occlusion culling: the damage cleared, every window drawn over it.
    public func paintersAlgorithm() {
        var color = pixman_color_t(red: 0x2020, green: 0x2424, blue: 0x2828, alpha: 0xffff)
        var rect = pixman_rectangle16_t(
            x: 0, y: 0, width: UInt16(SceneLayout.screenWidth), height: UInt16(SceneLayout.screenHeight))
        pixman_image_set_clip_region32(destination, clip.raw)
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, destination, &color, 1, &rect)
        for (index, spec) in layout.windows.enumerated() {
            pixman_image_composite32(
                spec.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, sources[index], nil, destination,
                0, 0, 0, 0, spec.x, spec.y, spec.width, spec.height)
        }
        pixman_image_set_clip_region32(destination, nil)
    }

    /// Pixels the floor writes per frame (background + each window's visible part).
    public var pixelsWritten: Int { background.area + visible.reduce(0) { $0 + $1.area } }

    /// The floor's image (to compare with Strata's canvas).
    public var image: OpaquePointer { destination }
}
