import CPNG
import Foundation

/// PNG files through libpng's simplified API (no setjmp needed).
public enum PNGFile {
    public enum Failure: Error, CustomStringConvertible {
        case write(String, String)
        case read(String, String)
        public var description: String {
            switch self {
            case .write(let path, let why): return "cannot write PNG \(path): \(why)"
            case .read(let path, let why): return "cannot read PNG \(path): \(why)"
            }
        }
    }

    /// Writes 0xAARRGGBB pixels (native-endian words: B, G, R, A bytes) as an RGB PNG.
    public static func write(path: String, pixels: UnsafePointer<UInt32>, width: Int32, height: Int32, stride: Int32) throws(Failure) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        let ok = png_image_write_to_file(&image, path, 0, UnsafeRawPointer(pixels), stride, nil)
        if ok == 0 {
            let message = withUnsafeBytes(of: image.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            png_image_free(&image)
            throw .write(path, message)
        }
    }

    /// Writes a canvas (x8r8g8b8: its top bytes are undefined) as opaque pixels.
    public static func write(path: String, canvas: Canvas) throws(Failure) {
        let width = Int(canvas.width), height = Int(canvas.height), rowPixels = Int(canvas.stride) / 4
        var opaque = [UInt32](repeating: 0, count: width * height)
        opaque.withUnsafeMutableBufferPointer { out in
            let source = canvas.data
            for y in 0..<height {
                for x in 0..<width { out[y * width + x] = source[y * rowPixels + x] | 0xff00_0000 }
            }
        }
        try opaque.withUnsafeBufferPointer { pixels throws(Failure) in
            guard let base = pixels.baseAddress else { return }
            try write(path: path, pixels: base, width: canvas.width, height: canvas.height, stride: canvas.width * 4)
        }
    }

    /// A decoded PNG as 0xAARRGGBB pixels, row-major.
    public struct Pixels: Equatable {
        public var width: Int
        public var height: Int
        public var argb: [UInt32]
        public func at(_ x: Int, _ y: Int) -> UInt32 { argb[y * width + x] }
    }

    public static func read(path: String) throws(Failure) -> Pixels {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .read(path, message(of: image))
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        let width = Int(image.width), height = Int(image.height)
        var argb = [UInt32](repeating: 0, count: width * height)
        let ok = argb.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else { throw .read(path, message(of: image)) }
        return Pixels(width: width, height: height, argb: argb)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
