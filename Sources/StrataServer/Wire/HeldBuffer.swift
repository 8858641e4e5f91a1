import CWaylandServer
import StrataRender

/// A client's wl_shm buffer that a surface shows straight from the client's memory. It is held
/// (not released) while it is the surface's content: the client gets `wl_buffer.release` when
/// another buffer (or none) replaces it or the surface dies. It takes no external reference on
/// the pool: libwayland 1.21 would then defer a `wl_shm_pool.resize` while still checking new
/// buffers against the old size (GTK 4 grows its cursor pool and carves a buffer from the new
/// part: `invalid_stride`). A resize may move the mapping, so the address is asked for at every
/// read (`beginAccess`) and the texture rewraps when it moved. Should the client destroy the
/// buffer while it is held, the surface keeps a copy of its pixels (`SurfaceTexture.keepCopy`)
/// before the memory goes.
///
/// Every read goes through `beginAccess`/`endAccess`, libwayland's guard against a pool the
/// client truncated (the SIGBUS is caught, the read sees zeroes, the client gets
/// `wl_shm.invalid_fd`).
final class HeldBuffer: TextureMemory {
    /// The wl_buffer; nil once it is destroyed (or the hold ended).
    private(set) var resource: OpaquePointer?
    private var shm: OpaquePointer?
    private var listener: Listener?
    /// Called when the client destroys the buffer while it is held (before its memory goes);
    /// nil once the buffer is replaced (`retire`).
    private var willDestroy: (() -> Void)?

    init(resource: OpaquePointer, shm: OpaquePointer, willDestroy: @escaping () -> Void) {
        self.resource = resource
        self.shm = shm
        self.willDestroy = willDestroy
        listener = Listener { [weak self] _ in self?.resourceWillDestroy() }
        listener?.listen(toResourceDestroy: resource)
    }

    deinit { end(release: false) }

    func beginAccess() -> UnsafeMutableRawPointer? {
        guard let shm else { return nil }
        wl_shm_buffer_begin_access(shm)
        return wl_shm_buffer_get_data(shm)
    }

    func endAccess() {
        guard let shm else { return }
        wl_shm_buffer_end_access(shm)
    }

    /// Reads the buffer's first and last byte, so a pool already too short for it (truncated, or
    /// grown past its file) is the client's error at its commit rather than at the next frame.
    /// (Later truncation is caught by the reads of the frames.)
    func probe(stride: Int32, width: Int32, height: Int32) {
        // Only within the buffer: libwayland checked offset + stride × height against the pool,
        // and a row of pixels must fit its stride (else the buffer is refused anyway).
        guard width > 0, height > 0, Int(stride) >= Int(width) * 4 else { return }
        guard let data = beginAccess() else {
            endAccess()
            return
        }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        probed = bytes[0] &+ bytes[Int(stride) * Int(height - 1) + Int(width) * 4 - 1]
        endAccess()
    }
    /// Where `probe` stores what it read, so the reads are not optimised away.
    private(set) var probed: UInt8 = 0

    /// The surface shows another buffer now: this one only waits for its release (the frame that
    /// stops drawing it), and its destruction no longer concerns the surface.
    func retire() { willDestroy = nil }

    /// Ends the hold: the client may reuse the buffer (`release`: it is told so).
    func end(release: Bool) {
        listener?.remove()
        listener = nil
        if release, let resource { wl_buffer_send_release(resource) }
        resource = nil
        shm = nil
    }

    private func resourceWillDestroy() {
        // The memory is still mapped while the destroy signal runs: copy it out first.
        willDestroy?()
        end(release: false)
    }
}
