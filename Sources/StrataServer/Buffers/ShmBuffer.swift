import CPixman
import CStrataServerGlue
import CWaylandServer
import StrataRender

/// A client's wl_shm buffer as the compositor knows it: one per wl_buffer, made the first time the
/// buffer is committed and found again at its later commits through its destroy listener (as weston
/// finds its weston_buffer), so a client drawing into two buffers in turn costs no object, listener
/// or pixman image per commit.
///
/// Surfaces show it straight from the client's memory. While one or more surfaces show it, it is
/// **held** (`holders`): the client gets `wl_buffer.release` when the last of them lets it go
/// (`unhold`) — a count per buffer, so a buffer shown by two surfaces is released when both have
/// replaced it. It takes no external reference on the pool: libwayland 1.21 would then defer a
/// `wl_shm_pool.resize` while still checking new buffers against the old size (GTK 4 grows its
/// cursor pool and carves a buffer from the new part: `invalid_stride`). A resize may move the
/// mapping, so the address is asked for at every read and the image rewrapped when it moved.
///
/// Lifetime: the wl_buffer's destroy listener owns the object (retained until the buffer dies);
/// textures showing it and the compositor's release queue hold it too. Destroyed while held, it
/// copies the pixels first (the memory is still mapped while the destroy signal runs) and serves
/// the copy from then on: the surfaces showing it keep their picture — within the client's copy
/// budget (`ClientBudget.maxCopiedBytesPerClient`, charged until the copy goes); past it the
/// surfaces show nothing until their next buffer, as weston's pixman renderer does. (Keeping the
/// client's mapping instead, with `wl_shm_buffer_ref_pool`, was weighed and rejected: once the
/// wl_shm_buffer is gone no read can be bracketed by `wl_shm_buffer_begin_access`, so a client
/// truncating its file would crash Strata with SIGBUS; and libwayland 1.21 would defer the pool's
/// resize, failing the client's next buffer from the grown part.)
///
/// Every read of the client's memory goes through `beginRead`/`endRead`, libwayland's guard
/// against a pool the client truncated (the SIGBUS is caught, the read sees zeroes, the client
/// gets `wl_shm.invalid_fd`).
final class ShmBuffer: TextureMemory {
    /// The wl_buffer; nil once it is destroyed.
    private(set) var resource: OpaquePointer?
    private var shm: OpaquePointer?
    private var listener: UnsafeMutablePointer<strata_listener>?
    let width: Int32
    let height: Int32
    let stride: Int32
    let hasAlpha: Bool
    /// A pixman image of the pixels: a wrapper of the client's memory at `wrapped`, or, once the
    /// buffer is destroyed while held, a copy of them.
    private var image: OpaquePointer?
    private var wrapped: UnsafeMutableRawPointer?
    /// Surfaces showing the buffer (or replaced it and wait for the frame that releases it).
    private(set) var holders = 0

    /// The buffer object of `resource`, made on first use. Nil for anything but an ARGB or XRGB
    /// shm buffer (the caller reports those).
    static func of(_ resource: OpaquePointer) -> ShmBuffer? {
        if let owner = strata_buffer_listener_owner(resource) {
            return Unmanaged<ShmBuffer>.fromOpaque(owner).takeUnretainedValue()
        }
        guard let shm = wl_shm_buffer_get(resource) else { return nil }
        let format = wl_shm_buffer_get_format(shm)
        guard format == WL_SHM_FORMAT_ARGB8888.rawValue || format == WL_SHM_FORMAT_XRGB8888.rawValue else { return nil }
        return ShmBuffer(resource: resource, shm: shm, hasAlpha: format == WL_SHM_FORMAT_ARGB8888.rawValue)
    }

    private init?(resource: OpaquePointer, shm: OpaquePointer, hasAlpha: Bool) {
        self.resource = resource
        self.shm = shm
        width = wl_shm_buffer_get_width(shm)
        height = wl_shm_buffer_get_height(shm)
        stride = wl_shm_buffer_get_stride(shm)
        self.hasAlpha = hasAlpha
        // The listener's owner is a retained reference, given back when the buffer dies.
        guard
            let listener = strata_buffer_listener_create(
                Unmanaged.passRetained(self).toOpaque(),
                { owner, _ in
                    guard let owner else { return }
                    Unmanaged<ShmBuffer>.fromOpaque(owner).takeRetainedValue().resourceWillDestroy()
                })
        else {
            Unmanaged.passUnretained(self).release()
            return nil
        }
        self.listener = listener
        strata_listener_add_to_resource(listener, resource)
    }

    deinit {
        strata_listener_destroy(listener)
        if let image { pixman_image_unref(image) }
    }

    /// Surfaces that showed the buffer (those still showing it are told when its pixels vanish);
    /// pruned when it holds many more than `holders`, so it stays as short as what shows it.
    private var shownBy: [Weak<Surface>] = []

    /// `surface` shows the buffer.
    func hold(by surface: Surface) {
        holders += 1
        if shownBy.count > 2 * holders + 8 {
            shownBy.removeAll { $0.value?.shownBuffer !== self }
        }
        shownBy.append(Weak(surface))
    }

    /// A surface no longer shows the buffer: released when no surface does.
    func unhold() {
        guard holders > 0 else { return }
        holders -= 1
        if holders == 0, let resource { wl_buffer_send_release(resource) }
    }

    /// The format's pixel layout fits the buffer: the stride holds a row, the size is positive.
    var hasValidLayout: Bool { width > 0 && height > 0 && Int(stride) >= Int(width) * 4 }

    func beginRead() -> OpaquePointer? {
        guard let shm else { return image }  // the copy kept when the buffer died
        wl_shm_buffer_begin_access(shm)
        let data = wl_shm_buffer_get_data(shm)
        if data != wrapped || image == nil { rewrap(data) }
        return image
    }

    func endRead() {
        guard let shm else { return }
        wl_shm_buffer_end_access(shm)
    }

    private func rewrap(_ data: UnsafeMutableRawPointer?) {
        if let image { pixman_image_unref(image) }
        image = nil
        wrapped = nil
        guard let data, hasValidLayout else { return }
        image = pixman_image_create_bits(
            hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8, width, height,
            data.assumingMemoryBound(to: UInt32.self), stride)
        wrapped = image == nil ? nil : data
    }

    /// Reads the buffer's first and last byte, so a pool already too short for it (truncated, or
    /// grown past its file) is the client's error at its commit rather than at the next frame.
    /// (Later truncation is caught by the reads of the frames.)
    func probe() {
        // Only within the buffer: libwayland checked offset + stride × height against the pool.
        guard hasValidLayout, let shm else { return }
        wl_shm_buffer_begin_access(shm)
        if let data = wl_shm_buffer_get_data(shm) {
            let bytes = data.assumingMemoryBound(to: UInt8.self)
            probed = bytes[0] &+ bytes[Int(stride) * Int(height - 1) + Int(width) * 4 - 1]
        }
        wl_shm_buffer_end_access(shm)
    }
    /// The copy's bytes on the client's budget (`ClientBudget.maxCopiedBytesPerClient`), given
    /// back when the copy goes (this object's end).
    private var copyCharge: BudgetCharge?

    /// Charges a copy of the pixels to the client of `resource`: false past its budget.
    private func chargeCopy(of resource: OpaquePointer) -> Bool {
        let bytes = UInt64(width) * UInt64(height) * 4
        guard let charge = BudgetCharge(client: wl_resource_get_client(resource), kind: STRATA_CHARGE_COPIED_BYTES)
        else {
            return false
        }
        guard charge.add(bytes, limit: ClientBudget.maxCopiedBytesPerClient) else { return false }
        copyCharge = charge
        return true
    }

    /// Where `probe` stores what it read, so the reads are not optimised away.
    private(set) var probed: UInt8 = 0

    /// The client destroys the buffer (its memory is still mapped): shown somewhere, its pixels
    /// are copied and served from now on; then it forgets the client's buffer.
    private func resourceWillDestroy() {
        if holders > 0, hasValidLayout, let shm, let resource, chargeCopy(of: resource),
            let copy = pixman_image_create_bits(hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8, width, height, nil, 0)
        {
            wl_shm_buffer_begin_access(shm)
            if let data = wl_shm_buffer_get_data(shm), data != wrapped || image == nil { rewrap(data) }
            if let image {
                pixman_image_set_transform(image, nil)
                pixman_image_set_repeat(image, PIXMAN_REPEAT_NONE)
                pixman_image_composite32(PIXMAN_OP_SRC, image, nil, copy, 0, 0, 0, 0, 0, 0, width, height)
            }
            wl_shm_buffer_end_access(shm)
            if let image { pixman_image_unref(image) }
            image = copy
        } else {
            // Not shown, or past the client's copy budget: the surfaces showing it show nothing
            // until their next buffer.
            if let image { pixman_image_unref(image) }
            image = nil
            copyCharge = nil
            if holders > 0 {
                for surface in shownBy {
                    if let surface = surface.value, surface.shownBuffer === self { surface.contentDidVanish() }
                }
            }
        }
        shownBy = []
        wrapped = nil
        strata_listener_destroy(listener)
        listener = nil
        resource = nil
        shm = nil
    }
}
