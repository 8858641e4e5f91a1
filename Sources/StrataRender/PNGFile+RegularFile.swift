import CPNG
import Glibc

extension PNGFile {
    /// `read`, for a process that must not block (the compositor): `path` is opened non-blocking
    /// and read only if it is a regular file (a FIFO would wait for a writer; a device is no
    /// picture), then decoded with the same size limits as `read`.
    public static func readRegularFile(path: String) throws(Failure) -> Pixels {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .read(path, String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .read(path, "not a regular file")
        }
        guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0, let file = fdopen(fd, "rb") else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .read(path, why)
        }
        defer { fclose(file) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_stdio(&image, file) != 0 else {
            throw .read(path, text(of: image))
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        let width = Int(image.width), height = Int(image.height)
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixels else {
            png_image_free(&image)
            throw .read(path, "\(width)x\(height) is larger than the \(maximumSide)x\(maximumSide) (at most \(maximumPixels / 1_000_000) million pixels) read here")
        }
        // Not cleared first: libpng writes every pixel (or fails, and the array is dropped).
        var ok: Int32 = 0
        let argb = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            ok = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
            count = width * height
        }
        guard ok != 0 else { throw .read(path, text(of: image)) }
        return Pixels(width: width, height: height, argb: argb)
    }

    private static func text(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
