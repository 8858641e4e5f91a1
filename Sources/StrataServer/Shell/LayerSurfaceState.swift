import StrataModel

/// The double-buffered state of a layer surface, and the placement maths: where a surface goes
/// inside an area, and what its exclusive zone leaves of it.
struct LayerSurfaceState: Equatable {
    static let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8
    static let horizontal = left | right, vertical = top | bottom

    var layer: UInt32
    var width: UInt32 = 0
    var height: UInt32 = 0
    var anchor: UInt32 = 0
    var exclusiveZone: Int32 = 0
    var marginTop: Int32 = 0
    var marginRight: Int32 = 0
    var marginBottom: Int32 = 0
    var marginLeft: Int32 = 0
    var keyboardInteractivity: UInt32 = 0

    /// The edge a positive exclusive zone applies to: the surface is anchored to that edge alone,
    /// or to it and both perpendicular edges. nil otherwise (the zone then counts as 0).
    var exclusiveEdge: UInt32? {
        switch anchor {
        case Self.top, Self.top | Self.horizontal: return Self.top
        case Self.bottom, Self.bottom | Self.horizontal: return Self.bottom
        case Self.left, Self.left | Self.vertical: return Self.left
        case Self.right, Self.right | Self.vertical: return Self.right
        default: return nil
        }
    }

    var hasExclusiveZone: Bool { exclusiveZone > 0 && exclusiveEdge != nil }

    /// Why the state cannot be committed, or nil: a zero size needs both opposite anchors.
    var sizeError: String? {
        if width == 0, anchor & Self.horizontal != Self.horizontal {
            return "width 0 needs the surface anchored to both the left and the right edge"
        }
        if height == 0, anchor & Self.vertical != Self.vertical {
            return "height 0 needs the surface anchored to both the top and the bottom edge"
        }
        return nil
    }

    /// The surface's rectangle inside `bounds` (screen coordinates): centred on its anchors, a
    /// zero size stretched between them, moved inward by the margins of the anchored edges.
    func box(in bounds: Rect) -> Rect {
        let (x, w) = Self.place(
            size: Int(width), from: bounds.x, length: bounds.width, anchor: anchor,
            low: Self.left, high: Self.right, marginLow: Int(marginLeft), marginHigh: Int(marginRight))
        let (y, h) = Self.place(
            size: Int(height), from: bounds.y, length: bounds.height, anchor: anchor,
            low: Self.top, high: Self.bottom, marginLow: Int(marginTop), marginHigh: Int(marginBottom))
        return Rect(x: x, y: y, width: max(0, w), height: max(0, h))
    }

    private static func place(
        size: Int, from origin: Int, length: Int, anchor: UInt32, low: UInt32, high: UInt32,
        marginLow: Int, marginHigh: Int
    ) -> (Int, Int) {
        let both = anchor & (low | high) == (low | high)
        var position: Int, extent = size
        if both, size == 0 {
            position = origin
            extent = length
        } else if both {
            position = origin + length / 2 - size / 2
        } else if anchor & low != 0 {
            position = origin
        } else if anchor & high != 0 {
            position = origin + length - size
        } else {
            position = origin + length / 2 - size / 2
        }
        if both {
            position += marginLow
            extent -= marginLow + marginHigh
        } else if anchor & low != 0 {
            position += marginLow
        } else if anchor & high != 0 {
            position -= marginHigh
        }
        return (position, extent)
    }

    /// What a positive exclusive zone (plus the margin on its edge) leaves of `usable`.
    func shrink(_ usable: Rect) -> Rect {
        guard hasExclusiveZone, let edge = exclusiveEdge else { return usable }
        var r = usable
        switch edge {
        case Self.top:
            let d = min(r.height, max(0, Int(exclusiveZone) + Int(marginTop)))
            r.y += d
            r.height -= d
        case Self.bottom:
            r.height -= min(r.height, max(0, Int(exclusiveZone) + Int(marginBottom)))
        case Self.left:
            let d = min(r.width, max(0, Int(exclusiveZone) + Int(marginLeft)))
            r.x += d
            r.width -= d
        default:
            r.width -= min(r.width, max(0, Int(exclusiveZone) + Int(marginRight)))
        }
        return r
    }
}
