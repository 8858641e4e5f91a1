import CPixman

/// Pixels a texture reads without owning them: a client's shm buffer. Every read is bracketed, so
/// the server can guard it (libwayland's wl_shm begin/end access turns the SIGBUS of a pool the
/// client truncated into a protocol error instead of a crash). The memory keeps its own pixman
/// image of the pixels (rewrapped when the client's pool moved), so a texture attaching the same
/// buffer again creates nothing.
public protocol TextureMemory: AnyObject {
    /// Starts a read: an image of the pixels as they are now, valid until `endRead` (nil: nothing
    /// to read). Callers set the image's transform, filter and repeat before drawing with it.
    func beginRead() -> OpaquePointer?
    func endRead()
}

/// A surface's pixels. Either **borrowed**: a committed shm buffer drawn straight from the
/// client's memory (`attach`), which the server holds (does not release) while it is shown, or
/// **owned**: pixels copied in (`update`, `fill`). Borrowing saves a copy of every committed
/// frame; readers go through `withImage`, which brackets the read for borrowed memory.
public final class SurfaceTexture {
    /// The owned pixels (nil when there are none, or when the pixels are borrowed: read those
    /// through `withImage`).
    public private(set) var image: OpaquePointer?
    public private(set) var width: Int32 = 0
    public private(set) var height: Int32 = 0
    public private(set) var hasAlpha = true
    /// The borrowed memory, when the pixels are a client's.
    public private(set) var memory: TextureMemory?

    public init() {}

    deinit {
        if let image { pixman_image_unref(image) }
    }

    public var isBorrowed: Bool { memory != nil }
    /// Whether there are pixels to show (owned or borrowed).
    public var hasPixels: Bool { image != nil || memory != nil }

    /// Shows `memory` (`width`×`height` pixels) without copying it. Returns false (and keeps
    /// nothing) when the size is invalid or the memory has nothing to read.
    @discardableResult
    public func attach(_ memory: TextureMemory, width: Int32, height: Int32, hasAlpha: Bool) -> Bool {
        clear()
        guard width > 0, height > 0 else { return false }
        let readable = memory.beginRead() != nil
        memory.endRead()
        guard readable else { return false }
        self.memory = memory
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        return true
    }

    /// Calls `body` with the image, the read bracketed for borrowed memory; nil without content.
    @inline(__always)
    public func withImage<R>(_ body: (OpaquePointer) -> R) -> R? {
        guard let memory else { return image.map(body) }
        defer { memory.endRead() }
        return memory.beginRead().map(body)
    }

    /// Copies the damaged part (buffer coordinates; nil: all) of a client buffer of
    /// `width`×`height` pixels, 32 bits each, `stride` bytes a row. A new size or format copies all.
    /// Returns false when pixman cannot allocate or wrap the buffer.
    @discardableResult
    public func update(
        from data: UnsafeMutableRawPointer, stride: Int32, width: Int32, height: Int32,
        hasAlpha: Bool, damage: PixmanRegion?
    ) -> Bool {
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
            let source = pixman_image_create_bits(
                format, width, height, data.assumingMemoryBound(to: UInt32.self), stride)
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
        guard width > 0, height > 0 else { return nil }
        let width = Int(width), height = Int(height), hasAlpha = hasAlpha
        return withImage { image -> [UInt32]? in
            let stride = Int(pixman_image_get_stride(image)) / 4
            guard let data = pixman_image_get_data(image),
                Int(pixman_image_get_width(image)) >= width, Int(pixman_image_get_height(image)) >= height
            else { return nil }
            var pixels: [UInt32] = []
            pixels.reserveCapacity(width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let p = data[y * stride + x]
                    pixels.append(hasAlpha ? p : p | 0xff00_0000)
                }
            }
            return pixels
        } ?? nil
    }

    public func clear() {
        if let image { pixman_image_unref(image) }
        image = nil
        memory = nil
        width = 0
        height = 0
    }
}
