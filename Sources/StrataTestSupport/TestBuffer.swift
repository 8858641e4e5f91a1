import CStrataClientGlue
import CWaylandClient
import Foundation

/// A wl_shm buffer filled with one colour (or drawn by the test), in its own memfd pool.
public final class TestBuffer {
    public let buffer: OpaquePointer
    public let width: Int32
    public let height: Int32
    public let pixels: UnsafeMutablePointer<UInt32>
    private let pool: OpaquePointer
    private let fd: Int32
    private let size: Int
    public private(set) var released = 0
    private var listener = wl_buffer_listener(release: { data, _ in
        guard let data else { return }
        Unmanaged<TestBuffer>.fromOpaque(data).takeUnretainedValue().released += 1
    })

    /// format: WL_SHM_FORMAT_ARGB8888 (0) or WL_SHM_FORMAT_XRGB8888 (1).
    public init?(shm: OpaquePointer, width: Int32, height: Int32, argb: UInt32, format: UInt32 = 0) {
        guard width > 0, height > 0 else { return nil }
        let size = Int(width) * Int(height) * 4
        let fd = strata_client_memfd("strata-test-buffer")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(size)) == 0,
            let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else {
            munmap(map, size)
            close(fd)
            return nil
        }
        guard let buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, format) else {
            wl_shm_pool_destroy(pool)
            munmap(map, size)
            close(fd)
            return nil
        }
        self.fd = fd
        self.size = size
        self.pool = pool
        self.buffer = buffer
        self.width = width
        self.height = height
        self.pixels = map.assumingMemoryBound(to: UInt32.self)
        fill(argb)
        wl_buffer_add_listener(buffer, &listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public func fill(_ argb: UInt32) {
        pixels.update(repeating: argb, count: Int(width) * Int(height))
    }

    public func fill(x: Int32, y: Int32, width w: Int32, height h: Int32, _ argb: UInt32) {
        for row in max(0, y)..<min(height, y + h) {
            for col in max(0, x)..<min(width, x + w) {
                pixels[Int(row) * Int(width) + Int(col)] = argb
            }
        }
    }

    deinit {
        wl_buffer_destroy(buffer)
        wl_shm_pool_destroy(pool)
        munmap(pixels, size)
        close(fd)
    }
}
