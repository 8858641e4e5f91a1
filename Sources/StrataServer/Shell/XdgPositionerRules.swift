import StrataModel

/// The rules an xdg_positioner holds (copied when a popup is made or repositioned), and the
/// placement they give: anchor point on the anchor rectangle, gravity, offset, then the
/// constraint adjustments in the spec's order (flip, slide, resize).
///
/// All rectangles are in the coordinates of the parent's window geometry.
struct XdgPositionerRules: Equatable {
    var width: Int32 = 0
    var height: Int32 = 0
    var anchorRect: Rect?
    /// xdg_positioner.anchor and .gravity values (0…8).
    var anchor: UInt32 = 0
    var gravity: UInt32 = 0
    /// xdg_positioner.constraint_adjustment bits.
    var constraintAdjustment: UInt32 = 0
    var offsetX: Int32 = 0
    var offsetY: Int32 = 0
    // Version 3: kept for completeness; the placement does not depend on them yet.
    var isReactive = false
    var parentSize: Size?
    var parentConfigureSerial: UInt32?

    static let slideX: UInt32 = 1, slideY: UInt32 = 2, flipX: UInt32 = 4, flipY: UInt32 = 8
    static let resizeX: UInt32 = 16, resizeY: UInt32 = 32

    /// A size and an anchor rectangle are set (xdg_positioner's "complete").
    var isComplete: Bool { width > 0 && height > 0 && anchorRect != nil }

    /// The direction of an anchor or gravity value on each axis: -1 (left/top), 0, +1.
    static func direction(_ value: UInt32) -> (x: Int, y: Int) {
        switch value {
        case 1: return (0, -1)  // top
        case 2: return (0, 1)  // bottom
        case 3: return (-1, 0)  // left
        case 4: return (1, 0)  // right
        case 5: return (-1, -1)  // top_left
        case 6: return (-1, 1)  // bottom_left
        case 7: return (1, -1)  // top_right
        case 8: return (1, 1)  // bottom_right
        default: return (0, 0)
        }
    }

    /// The rectangle before constraints, for the given anchor and gravity directions.
    func unconstrained(anchor a: (x: Int, y: Int), gravity g: (x: Int, y: Int)) -> Rect {
        let rect = anchorRect ?? .zero
        let w = Int(width), h = Int(height)
        let ax = a.x < 0 ? rect.minX : a.x > 0 ? rect.maxX : rect.x + rect.width / 2
        let ay = a.y < 0 ? rect.minY : a.y > 0 ? rect.maxY : rect.y + rect.height / 2
        let x = g.x < 0 ? ax - w : g.x > 0 ? ax : ax - w / 2
        let y = g.y < 0 ? ay - h : g.y > 0 ? ay : ay - h / 2
        return Rect(x: x + Int(offsetX), y: y + Int(offsetY), width: w, height: h)
    }

    /// Where the popup goes, kept inside `bounds` as far as the constraint adjustments allow
    /// (nil bounds: no constraint).
    func place(within bounds: Rect?) -> Rect {
        let a = Self.direction(anchor), g = Self.direction(gravity)
        var box = unconstrained(anchor: a, gravity: g)
        guard let bounds, !bounds.isEmpty else { return box }

        func outX(_ r: Rect) -> Bool { r.minX < bounds.minX || r.maxX > bounds.maxX }
        func outY(_ r: Rect) -> Bool { r.minY < bounds.minY || r.maxY > bounds.maxY }
        var gx = g.x, gy = g.y

        // 1. Flip: invert anchor and gravity on the axis, kept only if that fits.
        if outX(box), constraintAdjustment & Self.flipX != 0 {
            let flipped = unconstrained(anchor: (-a.x, a.y), gravity: (-g.x, g.y))
            if !outX(flipped) {
                box.x = flipped.x
                gx = -g.x
            }
        }
        if outY(box), constraintAdjustment & Self.flipY != 0 {
            let flipped = unconstrained(anchor: (a.x, -a.y), gravity: (g.x, -g.y))
            if !outY(flipped) {
                box.y = flipped.y
                gy = -g.y
            }
        }
        // 2. Slide: towards the gravity first, then back, never past the other edge.
        if outX(box), constraintAdjustment & Self.slideX != 0 {
            box.x = Self.slide(box.x, box.width, bounds.minX, bounds.maxX, gravity: gx)
        }
        if outY(box), constraintAdjustment & Self.slideY != 0 {
            box.y = Self.slide(box.y, box.height, bounds.minY, bounds.maxY, gravity: gy)
        }
        // 3. Resize: cut what still sticks out.
        if outX(box), constraintAdjustment & Self.resizeX != 0 {
            let lo = max(box.minX, bounds.minX), hi = min(box.maxX, bounds.maxX)
            if hi > lo {
                box.x = lo
                box.width = hi - lo
            }
        }
        if outY(box), constraintAdjustment & Self.resizeY != 0 {
            let lo = max(box.minY, bounds.minY), hi = min(box.maxY, bounds.maxY)
            if hi > lo {
                box.y = lo
                box.height = hi - lo
            }
        }
        return box
    }

    /// One axis of the slide adjustment (xdg_positioner.constraint_adjustment.slide_x).
    static func slide(_ start: Int, _ size: Int, _ lo: Int, _ hi: Int, gravity: Int) -> Int {
        var start = start
        if gravity < 0 {
            // Towards lower values until the high edge fits or the low edge would leave.
            if start + size > hi { start -= min(start + size - hi, max(0, start - lo)) }
            if start < lo { start += min(lo - start, max(0, hi - (start + size))) }
        } else {
            if start < lo { start += min(lo - start, max(0, hi - (start + size))) }
            if start + size > hi { start -= min(start + size - hi, max(0, start - lo)) }
        }
        return start
    }
}
