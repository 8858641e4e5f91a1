import CStrataClientGlue
import CWaylandClient
import Glibc

/// The cursor Strata shows in the parent compositor: a parent wl_surface holding a copy of the
/// cursor's pixels (ARGB8888 in a memfd pool), given to the parent's wl_pointer.set_cursor.
/// Each new image gets a fresh buffer; the previous one is destroyed once replaced.
final class ParentCursor {
    /// The largest side of a client's cursor surface that is copied to the parent: a cursor
    /// surface is a client's buffer of any size (up to its pool budget), and forwarding it costs
    /// Strata a copy and the parent a buffer of that size. Xcursor themes go up to 256 pixels;
    /// a larger client cursor is hidden in the parent instead of copied.
    static let maximumSide: Int32 = 512

    /// Whether a client cursor of this size is copied to the parent.
    static func forwards(width: Int32, height: Int32) -> Bool {
        width > 0 && height > 0 && width <= maximumSide && height <= maximumSide
    }

    let surface: OpaquePointer
    private var buffer: OpaquePointer?

    init?(compositor: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        self.surface = surface
    }

    /// Shows `pixels` (width × height, premultiplied ARGB) on the cursor surface.
    func show(pixels: [UInt32], width: Int32, height: Int32, shm: OpaquePointer) -> Bool {
        guard width > 0, height > 0, pixels.count == Int(width) * Int(height) else { return false }
        let size = pixels.count * 4
        let fd = strata_client_memfd("strata-nested-cursor")
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0,
            let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED
        else { return false }
        pixels.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { map.copyMemory(from: base, byteCount: size) }
        }
        munmap(map, size)
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else { return false }
        let next = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        guard let next else { return false }
        wl_surface_attach(surface, next, 0, 0)
        wl_surface_damage(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        if let buffer { wl_buffer_destroy(buffer) }
        buffer = next
        return true
    }

    func destroy() {
        if let buffer { wl_buffer_destroy(buffer) }
        buffer = nil
        wl_surface_destroy(surface)
    }
}
