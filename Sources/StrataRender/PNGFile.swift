import CPNG
import Glibc

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

    /// Writes 0xAARRGGBB pixels (native-endian words: B, G, R, A bytes) as an RGBA PNG into
    /// `path`, which must be a regular file or not exist (`openRegularFile`).
    public static func write(path: String, pixels: UnsafePointer<UInt32>, width: Int32, height: Int32, stride: Int32)
        throws(Failure)
    {
        let fd = try openRegularFile(path)
        guard let file = fdopen(fd, "wb") else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .write(path, why)
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        // No filter and zlib level 3: about 4 times faster to write and to decode than libpng's
        // default (adaptive filters, level 6), for files up to a third larger
        // (docs/performance.md, "Golden screenshots").
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        let ok = png_image_write_to_stdio(&image, file, 0, UnsafeRawPointer(pixels), stride, nil)
        let closed = fclose(file) == 0
        if ok != 0, !closed { throw .write(path, String(cString: strerror(errno))) }
        if ok == 0 {
            let message = withUnsafeBytes(of: image.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            png_image_free(&image)
            throw .write(path, message)
        }
    }

    /// Opens `path` for writing, truncated, only if it is a regular file or does not exist yet:
    /// a FIFO would block the one thread that runs the compositor until someone reads it, and a
    /// device or socket is no place for a PNG. A symbolic link is followed (the control socket's
    /// user may point one at a file), and what it leads to must be a regular file too. The file is
    /// checked before it is opened (opening some devices does something), opened non-blocking (a
    /// FIFO put there in between fails with ENXIO, or opens and fails the check after), checked
    /// again through the open descriptor, and only then truncated.
    public static func openRegularFile(_ path: String) throws(Failure) -> Int32 {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .write(path, "not a regular file (\(kind(of: info.st_mode)))")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw .write(
                path, code == ENXIO ? "not a regular file (a FIFO or device)" : String(cString: strerror(code)))
        }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let mode = info.st_mode
            close(fd)
            throw .write(path, "not a regular file (\(kind(of: mode)))")
        }
        guard ftruncate(fd, 0) == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .write(path, why)
        }
        return fd
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a file"
        }
    }

    /// Writes a canvas (x8r8g8b8: its top bytes are undefined) as opaque pixels.
    public static func write(path: String, canvas: Canvas) throws(Failure) {
        let opaque = Pixels(opaque: canvas).argb
        try opaque.withUnsafeBufferPointer { pixels throws(Failure) in
            guard let base = pixels.baseAddress else { return }
            try write(path: path, pixels: base, width: canvas.width, height: canvas.height, stride: canvas.width * 4)
        }
    }

    /// Writes decoded pixels (`read`'s, or a comparison's diff picture).
    public static func write(path: String, pixels: Pixels) throws(Failure) {
        guard pixels.width > 0, pixels.height > 0, pixels.argb.count == pixels.width * pixels.height else {
            throw .write(path, "no pixels to write")
        }
        var failure: Failure?
        pixels.argb.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            do {
                try write(
                    path: path, pixels: base, width: Int32(pixels.width), height: Int32(pixels.height),
                    stride: Int32(pixels.width * 4))
            } catch let error as Failure {
                failure = error
            } catch {
                failure = .write(path, "cannot write")
            }
        }
        if let failure { throw failure }
    }

    /// A decoded PNG as 0xAARRGGBB pixels, row-major.
    public struct Pixels: Equatable {
        public var width: Int
        public var height: Int
        public var argb: [UInt32]
        public init(width: Int, height: Int, argb: [UInt32]) {
            self.width = width
            self.height = height
            self.argb = argb
        }
        public func at(_ x: Int, _ y: Int) -> UInt32 { argb[y * width + x] }

        /// A canvas's pixels (x8r8g8b8: its top bytes are undefined), made opaque, row-major.
        public init(opaque canvas: Canvas) {
            let width = Int(canvas.width), height = Int(canvas.height), rowPixels = Int(canvas.stride) / 4
            let argb = [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
                let source = canvas.data
                for y in 0..<height {
                    for x in 0..<width { out[y * width + x] = source[y * rowPixels + x] | 0xff00_0000 }
                }
                count = width * height
            }
            self.init(width: width, height: height, argb: argb)
        }
    }

    /// The largest side, and the most pixels, `read` decodes (a PNG header may claim any size).
    public static let maximumSide = 16384
    public static let maximumPixels = 64 * 1024 * 1024

    public static func read(path: String) throws(Failure) -> Pixels {
        // Opened non-blocking and read only if it is a regular file: a FIFO would wait for a
        // writer (the compositor reads baselines and expected pictures on its loop), and a
        // device is no picture.
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
            throw .read(path, message(of: image))
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        let width = Int(image.width), height = Int(image.height)
        // Untrusted files: the header's size is checked before any pixel memory is taken.
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixels else {
            png_image_free(&image)
            throw .read(
                path,
                "\(width)x\(height) is larger than the \(maximumSide)x\(maximumSide) (at most \(maximumPixels / 1_000_000) million pixels) read here"
            )
        }
        // Not cleared first: libpng writes every pixel (or fails, and the array is dropped).
        var ok: Int32 = 0
        let argb = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            ok = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil)
            count = width * height
        }
        guard ok != 0 else { throw .read(path, message(of: image)) }
        return Pixels(width: width, height: height, argb: argb)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
