import CStrataServerGlue
import CWaylandServer
import Glibc
import StrataRender

/// A client's wl_shm buffer that a capture writes into (screencopy, image copy capture): the
/// checks both protocols make, and the copy of a screen's image into it.
struct CaptureBuffer {
    let shm: OpaquePointer
    let format: UInt32

    /// The formats captures write: XRGB8888 (the screen's own) and ARGB8888 (opaque pixels for
    /// screens; a window's transparency for toplevel captures).
    static let formats = [WL_SHM_FORMAT_XRGB8888.rawValue, WL_SHM_FORMAT_ARGB8888.rawValue]

    /// `buffer` when it is a wl_shm buffer of one of `formats`, exactly `width`×`height`, whose
    /// stride holds a row; nil otherwise.
    init?(_ buffer: OpaquePointer?, width: Int32, height: Int32) {
        guard let buffer, let shm = wl_shm_buffer_get(buffer) else { return nil }
        let format = wl_shm_buffer_get_format(shm)
        guard Self.formats.contains(format), wl_shm_buffer_get_width(shm) == width,
            wl_shm_buffer_get_height(shm) == height,
            Int64(wl_shm_buffer_get_stride(shm)) >= Int64(width) * 4
        else { return nil }
        self.shm = shm
        self.format = format
    }

    var hasAlpha: Bool { format == WL_SHM_FORMAT_ARGB8888.rawValue }

    /// Copies `box` of `canvas` (x8r8g8b8) into the buffer's top left corner; an ARGB8888 buffer
    /// gets the pixels opaque. False when the box is not inside the canvas or the buffer cannot
    /// be read.
    func copy(_ canvas: Canvas, box: PixmanRegion.Box) -> Bool {
        guard box.x1 >= 0, box.y1 >= 0, box.x2 <= canvas.width, box.y2 <= canvas.height,
            box.width <= wl_shm_buffer_get_width(shm), box.height <= wl_shm_buffer_get_height(shm)
        else { return false }
        wl_shm_buffer_begin_access(shm)
        defer { wl_shm_buffer_end_access(shm) }
        guard let destination = wl_shm_buffer_get_data(shm) else { return false }
        let destinationStride = Int(wl_shm_buffer_get_stride(shm)), sourceStride = Int(canvas.stride)
        let source = UnsafeRawPointer(canvas.data)
        let rowBytes = Int(box.width) * 4
        // The canvas is x8r8g8b8 (top bytes undefined): an ARGB8888 buffer gets them opaque.
        let opaque = hasAlpha
        for row in 0..<Int(box.height) {
            let from = source + (Int(box.y1) + row) * sourceStride + Int(box.x1) * 4
            let to = destination + row * destinationStride
            memcpy(to, from, rowBytes)
            if opaque {
                let pixels = to.assumingMemoryBound(to: UInt32.self)
                for x in 0..<Int(box.width) { pixels[x] |= 0xff00_0000 }
            }
        }
        return true
    }

    /// Copies a `width`×`height` image of 32-bit pixels (`stride` bytes a row) into the buffer
    /// at (`x`, `y`), as it is (a window's image, alpha included) or made `opaque` (x8r8g8b8
    /// pixels into an ARGB8888 buffer). False when it does not fit or the buffer cannot be read.
    func copy(
        pixels: UnsafeRawPointer, width: Int32, height: Int32, stride: Int, x: Int32 = 0, y: Int32 = 0,
        opaque: Bool = false
    ) -> Bool {
        guard x >= 0, y >= 0, Int64(x) + Int64(width) <= Int64(wl_shm_buffer_get_width(shm)),
            Int64(y) + Int64(height) <= Int64(wl_shm_buffer_get_height(shm))
        else { return false }
        wl_shm_buffer_begin_access(shm)
        defer { wl_shm_buffer_end_access(shm) }
        guard let destination = wl_shm_buffer_get_data(shm) else { return false }
        let destinationStride = Int(wl_shm_buffer_get_stride(shm))
        for row in 0..<Int(height) {
            let to = destination + (Int(y) + row) * destinationStride + Int(x) * 4
            memcpy(to, pixels + row * stride, Int(width) * 4)
            if opaque {
                let pixels = to.assumingMemoryBound(to: UInt32.self)
                for i in 0..<Int(width) { pixels[i] |= 0xff00_0000 }
            }
        }
        return true
    }
}
