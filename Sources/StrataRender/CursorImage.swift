/// One cursor picture: its pixels (premultiplied ARGB, as Xcursor and pixman keep them) as a
/// texture the compositor draws, and its hotspot (the pixel that is the pointer's position).
public final class CursorImage {
    public let width: Int32
    public let height: Int32
    public let hotspotX: Int32
    public let hotspotY: Int32
    /// width × height pixels, row by row (the nested Wayland backend copies them upward).
    public let pixels: [UInt32]
    public let texture = SurfaceTexture()

    /// Nil when the size is empty or the pixels do not fill it.
    public init?(width: Int32, height: Int32, hotspotX: Int32, hotspotY: Int32, pixels: [UInt32]) {
        guard width > 0, height > 0, width <= 1024, height <= 1024, pixels.count == Int(width) * Int(height) else {
            return nil
        }
        self.width = width
        self.height = height
        self.hotspotX = max(0, min(hotspotX, width - 1))
        self.hotspotY = max(0, min(hotspotY, height - 1))
        self.pixels = pixels
        var copy = pixels
        let ok = copy.withUnsafeMutableBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            return texture.update(
                from: base, stride: width * 4, width: width, height: height, hasAlpha: true, damage: nil)
        }
        guard ok else { return nil }
    }

    /// The pixel at (x, y) as premultiplied 0xAARRGGBB, or nil outside the image.
    public func pixel(x: Int32, y: Int32) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[Int(y) * Int(width) + Int(x)]
    }

    /// A plain arrow drawn in code (black outline, white inside, hotspot at its tip): the cursor
    /// when no Xcursor theme is installed.
    public static func builtInArrow() -> CursorImage? {
        let mask = [
            "X          ", "XX         ", "X.X        ", "X..X       ", "X...X      ", "X....X     ",
            "X.....X    ", "X......X   ", "X.......X  ", "X........X ", "X.....XXXXX", "X..X..X    ",
            "X.X X..X   ", "XX  X..X   ", "X    X..X  ", "     X..X  ", "      XX   ",
        ]
        let width = Int32(mask[0].count), height = Int32(mask.count)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(width * height))
        for row in mask {
            for c in row { pixels.append(c == "X" ? 0xff00_0000 : c == "." ? 0xffff_ffff : 0) }
        }
        return CursorImage(width: width, height: height, hotspotX: 0, hotspotY: 0, pixels: pixels)
    }
}
