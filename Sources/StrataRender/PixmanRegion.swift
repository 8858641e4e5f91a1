import CPixman
import StrataModel

/// A pixman region (a set of integer rectangles) owned by Swift. Regions are reused: clear and
/// refill them rather than allocating new ones on the frame path.
public final class PixmanRegion {
    public let raw: UnsafeMutablePointer<pixman_region32_t>

    public init() {
        raw = .allocate(capacity: 1)
        pixman_region32_init(raw)
    }

    public convenience init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.init()
        addRect(x: x, y: y, width: width, height: height)
    }

    deinit {
        pixman_region32_fini(raw)
        raw.deallocate()
    }

    /// A region covering everything (the initial input region of a surface): the whole plane a
    /// client's numbers are clamped to (`Coordinate.limit`).
    public static let infiniteExtent: Int32 = Coordinate.limit
    public func setInfinite() {
        clear()
        addRect(
            x: -Self.infiniteExtent, y: -Self.infiniteExtent, width: 2 * Self.infiniteExtent,
            height: 2 * Self.infiniteExtent)
    }

    public func clear() {
        pixman_region32_clear(raw)
    }

    public var isEmpty: Bool { pixman_region32_not_empty(raw) == 0 }

    /// The number of boxes (0 when empty).
    public var boxCount: Int { Int(pixman_region32_n_rects(raw)) }

    /// The rectangle x, y, width × height as pixman takes it: both edges computed wide and
    /// clamped to ±`Coordinate.limit` (so pixman's own `x + width` cannot overflow), nil when
    /// that leaves nothing (a zero or negative size, or all of it beyond the limit). Every
    /// rectangle a region is given goes through here: wl_region.add/subtract and damage carry
    /// any Int32 a client sends.
    @inline(__always)
    public static func clampedRect(x: Int32, y: Int32, width: Int32, height: Int32) -> (
        x: Int32, y: Int32, width: UInt32, height: UInt32
    )? {
        guard width > 0, height > 0 else { return nil }
        let x1 = Coordinate.clamped(x), y1 = Coordinate.clamped(y)
        let x2 = Coordinate.sum(x, width), y2 = Coordinate.sum(y, height)
        guard x2 > x1, y2 > y1 else { return nil }
        return (x1, y1, UInt32(x2 - x1), UInt32(y2 - y1))
    }

    /// Becomes its bounding box when it holds more than `maxBoxes` boxes (damage: more is
    /// redrawn, nothing is missed), so later unions with it cost a bounded time.
    public func collapse(ifMoreThan maxBoxes: Int) {
        guard boxCount > maxBoxes else { return }
        var box = pixman_region32_extents(raw).pointee
        pixman_region32_reset(raw, &box)
    }

    /// Adds rectangles (x1, y1, x2, y2 boxes, empty ones skipped) with one union: pixman sorts
    /// them once instead of merging the region once per rectangle.
    public func addBoxes(_ boxes: [Box]) {
        var valid = boxes.compactMap { b -> pixman_box32_t? in
            b.x1 < b.x2 && b.y1 < b.y2 ? pixman_box32_t(x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2) : nil
        }
        guard !valid.isEmpty else { return }
        var added = pixman_region32_t()
        pixman_region32_init_rects(&added, &valid, Int32(valid.count))
        pixman_region32_union(raw, raw, &added)
        pixman_region32_fini(&added)
    }

    /// Adds a rectangle; negative or zero sizes add nothing (clamped, never trusted).
    public func addRect(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.clampedRect(x: x, y: y, width: width, height: height) else { return }
        pixman_region32_union_rect(raw, raw, r.x, r.y, r.width, r.height)
    }

    public func subtractRect(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.clampedRect(x: x, y: y, width: width, height: height) else { return }
        // A one-box region lives on the stack: pixman allocates nothing for it.
        var rect = pixman_region32_t()
        pixman_region32_init_rect(&rect, r.x, r.y, r.width, r.height)
        pixman_region32_subtract(raw, raw, &rect)
        pixman_region32_fini(&rect)
    }

    /// Makes this region `source` minus a rectangle. Out of place, so pixman reuses this region's
    /// storage instead of allocating (an in-place operation on a region of several boxes always
    /// allocates the result).
    public func setDifference(_ source: PixmanRegion, x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.clampedRect(x: x, y: y, width: width, height: height) else { set(source); return }
        var rect = pixman_region32_t()
        pixman_region32_init_rect(&rect, r.x, r.y, r.width, r.height)
        pixman_region32_subtract(raw, source.raw, &rect)
        pixman_region32_fini(&rect)
    }

    /// Makes this region `source` minus `other` (out of place, see `setDifference(_:x:y:width:height:)`).
    public func setDifference(_ source: PixmanRegion, _ other: PixmanRegion) {
        pixman_region32_subtract(raw, source.raw, other.raw)
    }

    /// Makes this region `source` intersected with a rectangle (out of place).
    public func setIntersection(_ source: PixmanRegion, x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.clampedRect(x: x, y: y, width: width, height: height) else { clear(); return }
        pixman_region32_intersect_rect(raw, source.raw, r.x, r.y, r.width, r.height)
    }

    /// Whether the region's bounding box meets the rectangle (a cheap test before real work).
    public func extentsIntersect(x: Int32, y: Int32, width: Int32, height: Int32) -> Bool {
        let e = pixman_region32_extents(raw).pointee
        return e.x1 < e.x2 && e.x1 < x &+ width && x < e.x2 && e.y1 < y &+ height && y < e.y2
    }

    public func union(_ other: PixmanRegion) { pixman_region32_union(raw, raw, other.raw) }
    public func subtract(_ other: PixmanRegion) { pixman_region32_subtract(raw, raw, other.raw) }
    public func intersect(_ other: PixmanRegion) { pixman_region32_intersect(raw, raw, other.raw) }
    public func intersect(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.clampedRect(x: x, y: y, width: width, height: height) else { clear(); return }
        pixman_region32_intersect_rect(raw, raw, r.x, r.y, r.width, r.height)
    }
    public func translate(dx: Int32, dy: Int32) { pixman_region32_translate(raw, dx, dy) }

    /// Makes this region a copy of `other`.
    public func set(_ other: PixmanRegion) { pixman_region32_copy(raw, other.raw) }

    public func contains(x: Int32, y: Int32) -> Bool {
        pixman_region32_contains_point(raw, x, y, nil) != 0
    }

    public struct Box: Equatable, Sendable {
        public var x1, y1, x2, y2: Int32
        public init(x1: Int32, y1: Int32, x2: Int32, y2: Int32) {
            self.x1 = x1
            self.y1 = y1
            self.x2 = x2
            self.y2 = y2
        }
        /// The sides (pixman's boxes are within ±`Coordinate.limit`, so Int32 holds them; a box
        /// built by hand from wider edges saturates).
        public var width: Int32 { Int32(clamping: Int(x2) - Int(x1)) }
        public var height: Int32 { Int32(clamping: Int(y2) - Int(y1)) }
    }

    public var extents: Box {
        let e = pixman_region32_extents(raw).pointee
        return Box(x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2)
    }

    /// Calls `body` for each rectangle of the region without allocating.
    public func forEachBox(_ body: (Box) -> Void) {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(raw, &count) else { return }
        for i in 0..<Int(count) {
            let b = boxes[i]
            body(Box(x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2))
        }
    }

    public var boxes: [Box] {
        var result: [Box] = []
        forEachBox { result.append($0) }
        return result
    }

    /// Total area in pixels (sum of the boxes).
    public var area: Int {
        var total = 0
        forEachBox { total += Int($0.width) * Int($0.height) }
        return total
    }
}
