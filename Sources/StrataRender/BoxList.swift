import CPixman

/// A set of disjoint integer boxes: the frame's occlusion pass (what of the damage is still
/// uncovered, and each surface's part of it) without pixman region operations, which free a
/// region's storage whenever a result is one box or empty and allocate it again when it grows.
///
/// The storage only grows: an operation writes its result into a spare buffer that is then
/// swapped in (the previous result's storage becomes the next spare), and a buffer is emptied by
/// setting its count, so once both buffers have reached the frame's size nothing is allocated.
/// The buffers are plain memory behind `let` pointers, as `PixmanRegion`'s region is: arrays held
/// in the class's `var`s cost a dynamic exclusivity check at every access (`swift_beginAccess`,
/// ~100 instructions), which at a few per surface made the occlusion pass dearer than pixman's.
///
/// Boxes are never merged or banded: subtracting a rectangle from a box leaves up to four boxes
/// (the band above, the band below, the left and right parts of the middle), so the list may hold
/// more boxes than pixman's banded region of the same pixels. The boxes stay disjoint, so drawing
/// each of them still draws every pixel once. Unions and banding are what `PixmanRegion` is for.
public final class BoxList {
    public typealias Box = pixman_box32_t

    /// Boxes in memory that only grows, and their bounding box (all zero when there are none).
    private struct Buffer {
        var base: UnsafeMutablePointer<Box>
        var count = 0
        var capacity: Int
        var extents = Box(x1: 0, y1: 0, x2: 0, y2: 0)

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        var boxes: UnsafeBufferPointer<Box> { UnsafeBufferPointer(start: base, count: count) }

        mutating func removeAll() {
            count = 0
            extents = Box(x1: 0, y1: 0, x2: 0, y2: 0)
        }

        /// Appends a box that is not empty.
        @inline(__always)
        mutating func append(_ b: Box) {
            if count == capacity { grow() }
            (base + count).initialize(to: b)
            if count == 0 {
                extents = b
            } else {
                extents.x1 = min(extents.x1, b.x1)
                extents.y1 = min(extents.y1, b.y1)
                extents.x2 = max(extents.x2, b.x2)
                extents.y2 = max(extents.y2, b.y2)
            }
            count += 1
        }

        /// Appends the intersection of two boxes, if it is not empty.
        @inline(__always)
        mutating func appendIntersection(_ b: Box, _ r: Box) {
            let c = Box(x1: max(b.x1, r.x1), y1: max(b.y1, r.y1), x2: min(b.x2, r.x2), y2: min(b.y2, r.y2))
            guard c.x1 < c.x2, c.y1 < c.y2 else { return }
            append(c)
        }

        private mutating func grow() {
            let larger = capacity * 2
            let memory = UnsafeMutablePointer<Box>.allocate(capacity: larger)
            memory.initialize(from: base, count: count)
            base.deallocate()
            base = memory
            capacity = larger
        }
    }

    /// The boxes, and the buffer the next out-of-place result is written to.
    private let current: UnsafeMutablePointer<Buffer>
    private let spare: UnsafeMutablePointer<Buffer>

    public init() {
        current = .allocate(capacity: 1)
        current.initialize(to: Buffer(capacity: 8))
        spare = .allocate(capacity: 1)
        spare.initialize(to: Buffer(capacity: 8))
    }

    deinit {
        current.pointee.base.deallocate()
        spare.pointee.base.deallocate()
        current.deallocate()
        spare.deallocate()
    }

    public var isEmpty: Bool { current.pointee.count == 0 }
    public var count: Int { current.pointee.count }
    /// The bounding box of the boxes; all zero when the list is empty.
    public var extents: Box { current.pointee.extents }

    /// Total area in pixels (the boxes are disjoint: the sum of their areas).
    public var area: Int {
        var total = 0
        for b in current.pointee.boxes { total += Int(b.x2 - b.x1) * Int(b.y2 - b.y1) }
        return total
    }

    public func clear() { current.pointee.removeAll() }

    /// A rectangle as a box, its far edges computed without overflow (clamped); nil when it is
    /// empty (zero or negative sizes).
    @inline(__always)
    static func box(x: Int32, y: Int32, width: Int32, height: Int32) -> Box? {
        guard width > 0, height > 0 else { return nil }
        let x2 = Int32(clamping: Int64(x) + Int64(width)), y2 = Int32(clamping: Int64(y) + Int64(height))
        guard x2 > x, y2 > y else { return nil }
        return Box(x1: x, y1: y, x2: x2, y2: y2)
    }

    /// Makes this list the boxes of `region` (a pixman region's boxes are disjoint).
    public func set(_ region: PixmanRegion) {
        clear()
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(region.raw, &count) else { return }
        for i in 0..<Int(count) where rects[i].x1 < rects[i].x2 && rects[i].y1 < rects[i].y2 {
            current.pointee.append(rects[i])
        }
    }

    /// Makes this list the boxes of `region` clipped to a rectangle.
    public func set(_ region: PixmanRegion, clippedTo x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) {
        clear()
        guard let r = Self.box(x: x, y: y, width: width, height: height) else { return }
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(region.raw, &count) else { return }
        for i in 0..<Int(count) { current.pointee.appendIntersection(rects[i], r) }
    }

    /// Makes this list `other`'s boxes clipped to a rectangle (`other` may be this list).
    public func setIntersection(_ other: BoxList, x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.box(x: x, y: y, width: width, height: height) else {
            clear()
            return
        }
        spare.pointee.removeAll()
        for b in other.current.pointee.boxes { spare.pointee.appendIntersection(b, r) }
        swapInResult()
    }

    /// Removes a rectangle's pixels. Each box it meets becomes up to four: the band above the
    /// rectangle, the band below, and the parts left and right of it in between.
    public func subtract(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard let r = Self.box(x: x, y: y, width: width, height: height), meets(r) else { return }
        let e = current.pointee.extents
        if r.x1 <= e.x1, r.y1 <= e.y1, r.x2 >= e.x2, r.y2 >= e.y2 {
            clear()
            return
        }
        let result = spare
        result.pointee.removeAll()
        for b in current.pointee.boxes {
            guard b.x1 < r.x2, r.x1 < b.x2, b.y1 < r.y2, r.y1 < b.y2 else {
                result.pointee.append(b)
                continue
            }
            let midY1 = max(b.y1, r.y1), midY2 = min(b.y2, r.y2)
            if b.y1 < r.y1 { result.pointee.append(Box(x1: b.x1, y1: b.y1, x2: b.x2, y2: r.y1)) }
            if b.x1 < r.x1 { result.pointee.append(Box(x1: b.x1, y1: midY1, x2: r.x1, y2: midY2)) }
            if r.x2 < b.x2 { result.pointee.append(Box(x1: r.x2, y1: midY1, x2: b.x2, y2: midY2)) }
            if r.y2 < b.y2 { result.pointee.append(Box(x1: b.x1, y1: r.y2, x2: b.x2, y2: b.y2)) }
        }
        swapInResult()
    }

    /// Removes the boxes of `region` that lie inside the rectangle `clip` (both in the region's
    /// coordinates), each mapped by `map` to this list's coordinates first (a surface's opaque
    /// region: clipped to the surface's size, then placed on the screen). No region is built.
    public func subtract(
        _ region: PixmanRegion, clippedTo clipX: Int32, _ clipY: Int32, _ clipWidth: Int32, _ clipHeight: Int32,
        mappedBy map: (Box) -> (x: Int32, y: Int32, width: Int32, height: Int32)
    ) {
        guard let clip = Self.box(x: clipX, y: clipY, width: clipWidth, height: clipHeight) else { return }
        var count: Int32 = 0
        guard let rects = pixman_region32_rectangles(region.raw, &count) else { return }
        for i in 0..<Int(count) {
            guard !isEmpty else { return }
            let b = rects[i]
            let x1 = max(b.x1, clip.x1), y1 = max(b.y1, clip.y1), x2 = min(b.x2, clip.x2), y2 = min(b.y2, clip.y2)
            guard x1 < x2, y1 < y2 else { continue }
            let d = map(Box(x1: x1, y1: y1, x2: x2, y2: y2))
            subtract(x: d.x, y: d.y, width: d.width, height: d.height)
        }
    }

    /// Whether the bounding box meets the rectangle (a cheap test before real work).
    public func extentsIntersect(x: Int32, y: Int32, width: Int32, height: Int32) -> Bool {
        guard let r = Self.box(x: x, y: y, width: width, height: height) else { return false }
        return meets(r)
    }

    public func contains(x: Int32, y: Int32) -> Bool {
        let e = current.pointee.extents
        guard x >= e.x1, x < e.x2, y >= e.y1, y < e.y2 else { return false }
        return current.pointee.boxes.contains { x >= $0.x1 && x < $0.x2 && y >= $0.y1 && y < $0.y2 }
    }

    /// Calls `body` with the boxes, in no particular order, without copying them (for pixman).
    public func withBoxes<R>(_ body: (UnsafeBufferPointer<Box>) throws -> R) rethrows -> R {
        try body(current.pointee.boxes)
    }

    // MARK: Building

    @inline(__always)
    private func meets(_ r: Box) -> Bool {
        let e = current.pointee.extents
        return current.pointee.count > 0 && e.x1 < r.x2 && r.x1 < e.x2 && e.y1 < r.y2 && r.y1 < e.y2
    }

    /// The result built in `spare` becomes the list; the old boxes' storage becomes the spare.
    @inline(__always)
    private func swapInResult() {
        let result = spare.pointee
        spare.pointee = current.pointee
        current.pointee = result
    }
}
