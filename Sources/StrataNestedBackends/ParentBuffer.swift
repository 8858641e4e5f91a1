import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataRender

/// A wl_shm buffer of the parent compositor holding a copy of a screen's canvas (XRGB8888, the
/// canvas is opaque), in its own memfd pool. It remembers which screen pixels it lacks
/// (`missing`): a buffer that sat out some frames while the other one was shown gets exactly
/// those regions copied when it is used again.
final class ParentBuffer {
    let buffer: OpaquePointer
    let width: Int32
    let height: Int32
    /// Between attach+commit and the parent's wl_buffer.release.
    var isBusy = false
    /// Screen pixels this buffer does not have yet (starts as everything).
    let missing = PixmanRegion()
    /// Called when the parent releases the buffer.
    var didRelease: (() -> Void)?
    private let pool: OpaquePointer
    private let fd: Int32
    private let size: Int
    private let pixels: UnsafeMutableRawPointer
    private var retired = false
    private static var listener = wl_buffer_listener(release: { data, _ in
        guard let data else { return }
        Unmanaged<ParentBuffer>.fromOpaque(data).takeUnretainedValue().parentDidRelease()
    })
    /// Kept while retired and busy, so the release can still find the object.
    private var selfReference: ParentBuffer?

    init?(shm: OpaquePointer, width: Int32, height: Int32) {
        guard width > 0, height > 0 else { return nil }
        let size = Int(width) * Int(height) * 4
        guard size <= Int(Int32.max) else { return nil }
        let fd = strata_client_memfd("strata-nested-buffer")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(size)) == 0, let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
            map != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else {
            munmap(map, size)
            close(fd)
            return nil
        }
        guard let buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_XRGB8888.rawValue)
        else {
            wl_shm_pool_destroy(pool)
            munmap(map, size)
            close(fd)
            return nil
        }
        self.buffer = buffer
        self.pool = pool
        self.fd = fd
        self.size = size
        self.pixels = map
        self.width = width
        self.height = height
        missing.addRect(x: 0, y: 0, width: width, height: height)
        wl_buffer_add_listener(buffer, &ParentBuffer.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Copies the pixels this buffer misses from `canvas` (same size) and clears `missing`.
    func update(from canvas: Canvas) {
        guard canvas.width == width, canvas.height == height else { return }
        missing.intersect(x: 0, y: 0, width: width, height: height)
        // The canvas is x8r8g8b8 and its top bytes are whatever the clients' XRGB buffers held
        // (Xwayland's are 0): they are set here, so a parent that reads them as alpha (weston's
        // headless screenshots do) still sees opaque pixels.
        let source = canvas.data
        let sourceStride = Int(canvas.stride) / 4
        let target = pixels.assumingMemoryBound(to: UInt32.self)
        let stride = Int(width)
        missing.forEachBox { box in
            let count = Int(box.x2 - box.x1)
            guard count > 0 else { return }
            for y in Int(box.y1)..<Int(box.y2) {
                let from = source + y * sourceStride + Int(box.x1)
                let to = target + y * stride + Int(box.x1)
                for index in 0..<count { to[index] = from[index] | 0xff00_0000 }
            }
        }
        missing.clear()
    }

    /// The buffer is no longer wanted (the screen was resized or closed): destroyed now when the
    /// parent does not hold it, else when the parent releases it.
    func retire() {
        guard !retired else { return }
        retired = true
        didRelease = nil
        if isBusy { selfReference = self } else { destroy() }
    }

    private func parentDidRelease() {
        isBusy = false
        if retired {
            destroy()
            selfReference = nil
        } else {
            didRelease?()
        }
    }

    private var destroyed = false
    private func destroy() {
        guard !destroyed else { return }
        destroyed = true
        wl_buffer_destroy(buffer)
        wl_shm_pool_destroy(pool)
        munmap(pixels, size)
        close(fd)
    }

    deinit { destroy() }
}
