import CPNG
import CPixman

/// What a trace keeps of a picture (docs/experiments.md, "Pictures in a trace"): its hash (the
/// frame hash, `FrameHasher`), its pixels as a PNG in memory (libpng's fast setting: speed over
/// size), and a downscaled copy for screen thumbnails.
public enum PictureEncoding {
    /// The hash of the whole picture, as a screen's frame hash is computed (alpha ignored).
    public static func hash(of canvas: Canvas) -> UInt64 {
        FrameHasher().pictureHash(canvas)
    }

    /// The hash as the trace writes it: 16 lowercase hex digits.
    public static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// Whether `text` is a hash as the trace writes it.
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The canvas as PNG bytes (nil when libpng refuses). Fast compression: a window of 800×600
    /// is a few milliseconds.
    public static func png(of canvas: Canvas) -> [UInt8]? {
        png(of: PNGFile.Pixels(opaque: canvas))
    }

    public static func png(of pixels: PNGFile.Pixels) -> [UInt8]? {
        guard pixels.width > 0, pixels.height > 0, pixels.argb.count == pixels.width * pixels.height else { return nil }
        return pixels.argb.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let base = buffer.baseAddress else { return nil }
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            image.width = UInt32(pixels.width)
            image.height = UInt32(pixels.height)
            image.format = UInt32(PNG_FORMAT_BGRA)
            image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
            let stride = Int32(pixels.width * 4)
            var size: png_alloc_size_t = 0
            guard png_image_write_to_memory(&image, nil, &size, 0, base, stride, nil) != 0, size > 0 else {
                png_image_free(&image)
                return nil
            }
            var bytes = [UInt8](repeating: 0, count: Int(size))
            let ok = bytes.withUnsafeMutableBytes { raw in
                png_image_write_to_memory(&image, raw.baseAddress, &size, 0, base, stride, nil)
            }
            guard ok != 0 else {
                png_image_free(&image)
                return nil
            }
            return Array(bytes.prefix(Int(size)))
        }
    }

    /// A copy of `canvas` at most `maximumWidth` pixels wide and `maximumHeight` high (the same
    /// canvas when it is no larger), scaled with pixman's bilinear filter.
    public static func thumbnail(of canvas: Canvas, maximumWidth: Int32 = 320, maximumHeight: Int32 = 320) -> Canvas? {
        let scale = min(1, Double(maximumWidth) / Double(canvas.width), Double(maximumHeight) / Double(canvas.height))
        guard scale < 1 else { return canvas }
        let width = max(1, Int32((Double(canvas.width) * scale).rounded()))
        let height = max(1, Int32((Double(canvas.height) * scale).rounded()))
        guard let small = Canvas(width: width, height: height) else { return nil }
        small.draw(canvas, transform: Canvas.scaling(scale, offsetX: 0, offsetY: 0), smooth: true, blend: false)
        // The source (a screen's canvas) gets pixman's default filter back.
        pixman_image_set_filter(canvas.image, PIXMAN_FILTER_NEAREST, nil, 0)
        return small
    }
}
