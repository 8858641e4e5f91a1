import CPixman

/// Memory a texture reads without owning it: a client's shm buffer. Every read is bracketed, so
/// the server can guard it (libwayland's wl_shm begin/end access turns the SIGBUS of a pool the
/// client truncated into a protocol error instead of a crash).
public protocol TextureMemory: AnyObject {
    /// Starts a read and returns the pixels' address now (nil: nothing to read).
    func beginAccess() -> UnsafeMutableRawPointer?
    func endAccess()
}

/// A surface's pixels. Either **borrowed**: a committed shm buffer drawn straight from the
/// client's memory (`attach`), which the server holds (does not release) while it is shown, or
/// **owned**: pixels copied in (`update`, `keepCopy` when a borrowed buffer goes away, `fill`).
/// Borrowing saves a copy of every committed frame; readers go through `withImage`, which
/// brackets the read for borrowed memory.
public final class SurfaceTexture {
    /// The pixman image: the owned pixels, or a wrapper of the borrowed memory (read it through
    /// `withImage`; nil: no content).
    public private(set) var image: OpaquePointer?
    public private(set) var width: Int32 = 0
    public private(set) var height: Int32 = 0
    public private(set) var hasAlpha = true
    /// The borrowed memory, when the pixels are a client's.
    public private(set) var memory: TextureMemory?
    private var stride: Int32 = 0
    /// The address `image` wraps (borrowed); a read finding another address rewraps.
    private var wrapped: UnsafeMutableRawPointer?

    public init() {}

    deinit {
        if let image { pixman_image_unref(image) }
    }

    public var isBorrowed: Bool { memory != nil }

    /// Shows `memory` (`width`×`height` pixels, 32 bits each, `stride` bytes a row) without
    /// copying it. Returns false (and keeps nothing) when the size is invalid or pixman cannot
    /// wrap it.
    @discardableResult
    public func attach(_ memory: TextureMemory, stride: Int32, width: Int32, height: Int32, hasAlpha: Bool) -> Bool {
        clear()
        guard width > 0, height > 0, Int(stride) >= Int(width) * 4 else { return false }
        self.memory = memory
        self.stride = stride
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        let data = memory.beginAccess()
        memory.endAccess()
        guard rewrap(data) else {
            clear()
            return false
        }
        return true
    }

    /// Calls `body` with the image, the read bracketed for borrowed memory; nil without content.
    @inline(__always)
    public func withImage<R>(_ body: (OpaquePointer) -> R) -> R? {
        guard let memory else { return image.map(body) }
        let data = memory.beginAccess()
        defer { memory.endAccess() }
        guard data == wrapped || rewrap(data), let image else { return nil }
        return body(image)
    }

    /// Borrowed memory becomes owned: its pixels are copied (the client's buffer is going away).
    public func keepCopy() {
        guard let memory, width > 0, height > 0 else { return }
        let format = hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8
        guard let copy = pixman_image_create_bits(format, width, height, nil, 0) else {
            clear()
            return
        }
        let data = memory.beginAccess()
        if data == wrapped || rewrap(data), let image {
            pixman_image_set_transform(image, nil)
            pixman_image_set_repeat(image, PIXMAN_REPEAT_NONE)
            pixman_image_composite32(PIXMAN_OP_SRC, image, nil, copy, 0, 0, 0, 0, 0, 0, width, height)
        }
        memory.endAccess()
        if let image { pixman_image_unref(image) }
        image = copy
        self.memory = nil
        wrapped = nil
    }

    private func rewrap(_ data: UnsafeMutableRawPointer?) -> Bool {
        if let image { pixman_image_unref(image) }
        image = nil
        wrapped = nil
        guard let data else { return false }
        let format = hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8
        image = pixman_image_create_bits(format, width, height, data.assumingMemoryBound(to: UInt32.self), stride)
        wrapped = image == nil ? nil : data
        return image != nil
    }

    /// Copies the damaged part (buffer coordinates; nil: all) of a client buffer of
    /// `width`×`height` pixels, 32 bits each, `stride` bytes a row. A new size or format copies all.
    /// Returns false when pixman cannot allocate or wrap the buffer.
    @discardableResult
    public func update(from data: UnsafeMutableRawPointer, stride: Int32, width: Int32, height: Int32,
                       hasAlpha: Bool, damage: PixmanRegion?) -> Bool {
        guard width > 0, height > 0, Int(stride) >= Int(width) * 4 else { return false }
        if memory != nil { clear() }
        let format = hasAlpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8
        var full = damage == nil
        if image == nil || width != self.width || height != self.height || hasAlpha != self.hasAlpha {
            if let image { pixman_image_unref(image) }
            image = pixman_image_create_bits(format, width, height, nil, 0)
            self.width = width
            self.height = height
            self.hasAlpha = hasAlpha
            full = true
        }
        guard let image,
              let source = pixman_image_create_bits(format, width, height, data.assumingMemoryBound(to: UInt32.self), stride)
        else { return false }
        defer { pixman_image_unref(source) }
        pixman_image_set_transform(image, nil)
        if full {
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, image, 0, 0, 0, 0, 0, 0, width, height)
        } else if let damage {
            damage.forEachBox { box in
                let x1 = max(0, box.x1), y1 = max(0, box.y1)
                let x2 = min(width, box.x2), y2 = min(height, box.y2)
                guard x2 > x1, y2 > y1 else { return }
                pixman_image_composite32(PIXMAN_OP_SRC, source, nil, image, x1, y1, 0, 0, x1, y1, x2 - x1, y2 - y1)
            }
        }
        return true
    }

    /// Fills the texture with one colour (single-pixel buffers, tests).
    public func fill(width: Int32, height: Int32, argb: UInt32) {
        guard width > 0, height > 0 else { return }
        if memory != nil { clear() }
        if image == nil || width != self.width || height != self.height || !hasAlpha {
            if let image { pixman_image_unref(image) }
            image = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, nil, 0)
            self.width = width
            self.height = height
            hasAlpha = true
        }
        guard let image else { return }
        var color = Canvas.pixmanColor(argb: argb)
        var rect = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(clamping: width), height: UInt16(clamping: height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &color, 1, &rect)
    }

    /// A copy of the pixels, row by row (premultiplied ARGB; opaque textures read as alpha
    /// 0xff): what the nested Wayland backend hands to its parent as the cursor image.
    public func copyPixels() -> [UInt32]? {
        guard let image, width > 0, height > 0 else { return nil }
        let stride = Int(pixman_image_get_stride(image)) / 4
        let data = pixman_image_get_data(image)
        guard let data else { return nil }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(width) * Int(height))
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let p = data[y * stride + x]
                pixels.append(hasAlpha ? p : p | 0xff00_0000)
            }
        }
        return pixels
    }

    public func clear() {
        if let image { pixman_image_unref(image) }
        image = nil
        memory = nil
        wrapped = nil
        width = 0
        height = 0
    }
}
