import CPixman
import StrataModel

/// One screen's image and the operations the compositor draws with. Its format is x8r8g8b8, as a
/// display's scanout is: copying an opaque (XRGB) client buffer is then a plain blit, not a
/// per-pixel alpha fill. The top byte of a pixel is undefined (what the client's X byte was);
/// everything that hands pixels on as ARGB (`pixel`, `PNGFile.write(canvas:)`, screencopy into
/// an ARGB buffer) makes it 0xff.
/// Every draw is clipped to the region set by `setClip`, so a frame touches only damaged pixels.
public final class Canvas {
    public private(set) var image: OpaquePointer
    public private(set) var width: Int32
    public private(set) var height: Int32
    /// The pixels `image` wraps (nil: pixman allocated them). Released after the image.
    private var memory: PixelMemory?

    public init?(width: Int32, height: Int32) {
        guard width > 0, height > 0, let (image, memory) = Self.makeImage(width: width, height: height) else {
            return nil
        }
        self.image = image
        self.memory = memory
        self.width = width
        self.height = height
    }

    /// A canvas over memory someone else owns (a client's buffer a capture composes into),
    /// a8r8g8b8 when `hasAlpha`, else x8r8g8b8; valid while that memory is. Nil for a size or
    /// stride pixman refuses.
    public init?(wrapping data: UnsafeMutableRawPointer, width: Int32, height: Int32, stride: Int32, hasAlpha: Bool) {
        guard width > 0, height > 0, stride >= 4, stride % 4 == 0, Int64(stride) >= Int64(width) * 4,
            let image = pixman_image_create_bits(
                hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8, width, height,
                data.assumingMemoryBound(to: UInt32.self), stride)
        else { return nil }
        self.image = image
        self.memory = nil
        self.width = width
        self.height = height
    }

    deinit { pixman_image_unref(image) }

    /// A cleared x8r8g8b8 image, on huge pages when the kernel gives them (`PixelMemory`), else
    /// on pixman's own allocation.
    private static func makeImage(width: Int32, height: Int32) -> (OpaquePointer, PixelMemory?)? {
        let (stride, overflow) = width.multipliedReportingOverflow(by: 4)
        if !overflow, let memory = PixelMemory(bytes: Int(stride) * Int(height)),
            let image = pixman_image_create_bits(
                PIXMAN_x8r8g8b8, width, height,
                memory.base.assumingMemoryBound(to: UInt32.self), stride)
        {
            return (image, memory)
        }
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, nil, 0) else { return nil }
        return (image, nil)
    }

    /// Changes the size (a mode change); the content is cleared.
    @discardableResult
    public func resize(width: Int32, height: Int32) -> Bool {
        guard width > 0, height > 0 else { return false }
        guard width != self.width || height != self.height else { return true }
        guard let (image, memory) = Self.makeImage(width: width, height: height) else { return false }
        pixman_image_unref(self.image)
        self.image = image
        self.memory = memory
        self.width = width
        self.height = height
        return true
    }

    public var stride: Int32 { pixman_image_get_stride(image) }
    public var data: UnsafeMutablePointer<UInt32> { pixman_image_get_data(image) }

    public func setClip(_ region: PixmanRegion?) {
        pixman_image_set_clip_region32(image, region?.raw)
    }

    static func pixmanColor(argb: UInt32) -> pixman_color_t {
        func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xff) * 0x101 }
        return pixman_color_t(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
    }

    /// Makes every pixel transparent black (0), clip or not.
    public func clear() {
        pixman_fill(data, stride / 4, 32, 0, 0, width, height, 0)
    }

    /// Fills the clipped area with an opaque colour.
    public func fill(argb: UInt32) {
        var color = Self.pixmanColor(argb: argb | 0xff00_0000)
        var rect = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(clamping: width), height: UInt16(clamping: height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &color, 1, &rect)
    }

    /// Draws a texture whose surface-local origin is at (x, y) on this canvas and whose surface
    /// size is surfaceWidth×surfaceHeight, sampling through `transform` and, when given, the
    /// viewport's crop and scale. `width`×`height` is the size the surface takes on this canvas
    /// (a scaled screen: its logical size times the screen's scale, rounded; nil: the surface
    /// size). Filtering is nearest when every canvas pixel is a whole buffer pixel (1:1, or an
    /// integer enlargement such as a scale-1 buffer on a scale-2 screen), bilinear otherwise.
    /// With `region`, only its boxes are drawn, one composite per box (copying a region of several
    /// boxes into the image's clip allocates; a composite per box does not).
    public func draw(
        _ texture: SurfaceTexture, x: Int32, y: Int32, surfaceWidth: Int32, surfaceHeight: Int32,
        transform: BufferTransform, viewport: Viewport? = nil, width: Int32? = nil, height: Int32? = nil,
        in region: PixmanRegion? = nil, mask: SolidMask? = nil
    ) {
        guard surfaceWidth > 0, surfaceHeight > 0 else { return }
        guard let region else {
            draw(
                texture, x: x, y: y, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight, transform: transform,
                viewport: viewport, width: width, height: height, boxes: nil, mask: mask)
            return
        }
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(region.raw, &count), count > 0 else { return }
        draw(
            texture, x: x, y: y, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight, transform: transform,
            viewport: viewport, width: width, height: height,
            boxes: UnsafeBufferPointer(start: rects, count: Int(count)), mask: mask)
    }

    /// `draw(_:x:y:surfaceWidth:surfaceHeight:transform:viewport:width:height:in:)` inside the
    /// boxes of a `BoxList` (the frame's occlusion pass), one composite per box.
    public func draw(
        _ texture: SurfaceTexture, x: Int32, y: Int32, surfaceWidth: Int32, surfaceHeight: Int32,
        transform: BufferTransform, viewport: Viewport? = nil, width: Int32? = nil, height: Int32? = nil,
        in boxes: BoxList, mask: SolidMask? = nil
    ) {
        guard surfaceWidth > 0, surfaceHeight > 0, !boxes.isEmpty else { return }
        boxes.withBoxes { buffer in
            draw(
                texture, x: x, y: y, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight, transform: transform,
                viewport: viewport, width: width, height: height, boxes: buffer, mask: mask)
        }
    }

    /// Draws inside `boxes` (disjoint; nil: everywhere), the alpha multiplied by `mask`'s.
    private func draw(
        _ texture: SurfaceTexture, x: Int32, y: Int32, surfaceWidth: Int32, surfaceHeight: Int32,
        transform: BufferTransform, viewport: Viewport?, width: Int32?, height: Int32?,
        boxes: UnsafeBufferPointer<pixman_box32_t>?, mask: SolidMask?
    ) {
        // A borrowed texture (a client's shm buffer) is read inside its access bracket.
        texture.withImage { source in
            compose(
                source, texture: texture, x: x, y: y, surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight,
                transform: transform, viewport: viewport, width: width, height: height, in: boxes, mask: mask)
        }
    }

    private func compose(
        _ source: OpaquePointer, texture: SurfaceTexture, x: Int32, y: Int32,
        surfaceWidth: Int32, surfaceHeight: Int32, transform: BufferTransform, viewport: Viewport?,
        width: Int32?, height: Int32?, in boxes: UnsafeBufferPointer<pixman_box32_t>?, mask: SolidMask?
    ) {
        let drawWidth = width ?? surfaceWidth, drawHeight = height ?? surfaceHeight
        guard drawWidth > 0, drawHeight > 0 else { return }
        let viewport = viewport.flatMap { $0.isEmpty ? nil : $0 }
        let resized = drawWidth != surfaceWidth || drawHeight != surfaceHeight
        var filter = PIXMAN_FILTER_NEAREST
        if viewport != nil || resized {
            let content = transform.surfaceSize(bufferWidth: texture.width, bufferHeight: texture.height)
            // canvas pixel → surface → content (before the viewport) → buffer pixel, composed in
            // floating point and rounded to pixman's fixed point once.
            var toBuffer = pixman_f_transform()
            var fixedBuffer = transform.pixmanTransform(surfaceWidth: content.width, surfaceHeight: content.height)
            pixman_f_transform_from_pixman_transform(&toBuffer, &fixedBuffer)
            var toContent = pixman_f_transform()
            pixman_f_transform_init_identity(&toContent)
            if let viewport {
                var fixedContent = viewport.pixmanTransform(
                    surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight,
                    contentWidth: content.width, contentHeight: content.height)
                pixman_f_transform_from_pixman_transform(&toContent, &fixedContent)
            }
            var toSurface = pixman_f_transform()
            pixman_f_transform_init_scale(
                &toSurface, Double(surfaceWidth) / Double(drawWidth),
                Double(surfaceHeight) / Double(drawHeight))
            var surfaceToBuffer = pixman_f_transform(), combined = pixman_f_transform()
            pixman_f_transform_multiply(&surfaceToBuffer, &toBuffer, &toContent)
            pixman_f_transform_multiply(&combined, &surfaceToBuffer, &toSurface)
            var t = pixman_transform_t()
            pixman_transform_from_pixman_f_transform(&t, &combined)
            pixman_image_set_transform(source, &t)
            let crop = viewport?.source
            if !Self.isWholePixelEnlargement(
                drawWidth: drawWidth, drawHeight: drawHeight, bufferScale: transform.scale,
                sourceX: crop?.x ?? 0, sourceY: crop?.y ?? 0,
                sourceWidth: crop?.width ?? Double(content.width), sourceHeight: crop?.height ?? Double(content.height))
            {
                filter = PIXMAN_FILTER_BILINEAR
            }
            // Samples just outside the buffer (bilinear reach, rounding) repeat its edge.
            pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
        } else if transform.isIdentity {
            pixman_image_set_transform(source, nil)
            pixman_image_set_repeat(source, PIXMAN_REPEAT_NONE)
        } else {
            var t = transform.pixmanTransform(surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight)
            pixman_image_set_transform(source, &t)
            pixman_image_set_repeat(source, PIXMAN_REPEAT_NONE)
        }
        pixman_image_set_filter(source, filter, nil, 0)
        let op = texture.hasAlpha || mask != nil ? PIXMAN_OP_OVER : PIXMAN_OP_SRC
        let maskImage = mask?.image
        guard let boxes else {
            pixman_image_composite32(op, source, maskImage, image, 0, 0, 0, 0, x, y, drawWidth, drawHeight)
            return
        }
        for b in boxes {
            let x1 = max(b.x1, x), y1 = max(b.y1, y)
            // Wide: the caller's x and size are clamped (`Coordinate`), but this is pixman's edge.
            let x2 = min(b.x2, Coordinate.sum(x, drawWidth)), y2 = min(b.y2, Coordinate.sum(y, drawHeight))
            guard x2 > x1, y2 > y1 else { continue }
            pixman_image_composite32(
                op, source, maskImage, image, Coordinate.difference(x1, x), Coordinate.difference(y1, y),
                0, 0, x1, y1, x2 - x1, y2 - y1)
        }
    }

    /// Whether drawing a buffer's source rectangle (surface units, `bufferScale` buffer pixels
    /// each) at drawWidth×drawHeight canvas pixels shows every buffer pixel as a whole block of
    /// canvas pixels (1:1 or an integer enlargement): then nearest sampling is exact.
    public static func isWholePixelEnlargement(
        drawWidth: Int32, drawHeight: Int32, bufferScale: Int32,
        sourceX: Double, sourceY: Double,
        sourceWidth: Double, sourceHeight: Double
    ) -> Bool {
        let b = Double(bufferScale)
        let spanX = sourceWidth * b, spanY = sourceHeight * b
        func whole(_ v: Double) -> Bool { v.isFinite && v == v.rounded() }
        guard whole(spanX), whole(spanY), whole(sourceX * b), whole(sourceY * b), spanX >= 1, spanY >= 1,
            spanX <= Double(Int32.max), spanY <= Double(Int32.max)
        else { return false }
        return Int64(drawWidth) % Int64(spanX) == 0 && Int64(drawHeight) % Int64(spanY) == 0
    }

    /// Fills the boxes of `region` (clipped to the canvas) with an opaque colour: `pixman_fill`
    /// per box, straight into the pixels. Nothing is allocated (a clipped fill copies the clip,
    /// and `pixman_image_fill_boxes` builds a region of its boxes: a `malloc` per frame).
    public func fill(argb: UInt32, in region: PixmanRegion) {
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(region.raw, &count), count > 0 else { return }
        fill(argb: argb, boxes: UnsafeBufferPointer(start: rects, count: Int(count)))
    }

    /// Fills the boxes of a `BoxList` (clipped to the canvas), as `fill(argb:in:)` does a region's.
    public func fill(argb: UInt32, in boxes: BoxList) {
        boxes.withBoxes { fill(argb: argb, boxes: $0) }
    }

    private func fill(argb: UInt32, boxes: UnsafeBufferPointer<pixman_box32_t>) {
        let bits = data, rowWords = stride / 4, filler = argb | 0xff00_0000
        for b in boxes {
            let x1 = max(b.x1, 0), y1 = max(b.y1, 0), x2 = min(b.x2, width), y2 = min(b.y2, height)
            guard x2 > x1, y2 > y1 else { continue }
            pixman_fill(bits, rowWords, 32, x1, y1, x2 - x1, y2 - y1, filler)
        }
    }

    /// Draws another canvas into this one through `transform`, which maps this canvas's pixel
    /// coordinates to the source's (nil: identity). Bilinear filtering when scaling; pixels the
    /// source does not cover are transparent, so fill first and blend (OVER) for letterboxing.
    public func draw(_ source: Canvas, transform: pixman_transform_t?, smooth: Bool, blend: Bool) {
        if var t = transform {
            pixman_image_set_transform(source.image, &t)
        } else {
            pixman_image_set_transform(source.image, nil)
        }
        pixman_image_set_filter(source.image, smooth ? PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(
            blend ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, source.image, nil, image, 0, 0, 0, 0, 0, 0, width, height)
        pixman_image_set_transform(source.image, nil)
    }

    /// Scales the clipped area's colours by `brightness` (0…1): black blended over it.
    public func dim(brightness: Double) {
        let b = max(0, min(1, brightness))
        guard b < 1 else { return }
        let alpha = UInt16(((1 - b) * 65535).rounded())
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: alpha)
        var rect = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(clamping: width), height: UInt16(clamping: height))
        pixman_image_fill_rectangles(PIXMAN_OP_OVER, image, &color, 1, &rect)
    }

    /// A transform that maps this canvas's coordinates to a source `scale` times smaller (or
    /// larger), shown at (offsetX, offsetY): source = (destination − offset) / scale.
    public static func scaling(_ scale: Double, offsetX: Double, offsetY: Double) -> pixman_transform_t {
        let inverse = 1 / scale
        var t = pixman_transform_t()
        t.matrix.0 = (Coordinate.fixed(inverse), 0, Coordinate.fixed(-offsetX * inverse))
        t.matrix.1 = (0, Coordinate.fixed(inverse), Coordinate.fixed(-offsetY * inverse))
        t.matrix.2 = (0, 0, 1 << 16)
        return t
    }

    /// The pixel at (x, y) as 0xffRRGGBB (tests, screenshots).
    public func pixel(x: Int32, y: Int32) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let row = data.advanced(by: Int(y) * Int(stride) / 4)
        return row[Int(x)] | 0xff00_0000
    }
}
