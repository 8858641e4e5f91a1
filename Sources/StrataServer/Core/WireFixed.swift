import CWaylandServer

/// Doubles into `wl_fixed_t` (24.8 fixed point) without wrapping: values past the type's range
/// (±8,388,607.996) saturate at its ends. `wl_fixed_from_double` itself wraps a large value
/// into a meaningless one; a NaN should never get here (callers drop it), and becomes 0.
enum WireFixed {
    static let range = -8_388_608.0...8_388_607.99

    static func clamped(_ v: Double) -> wl_fixed_t {
        guard !v.isNaN else { return 0 }
        return wl_fixed_from_double(min(max(v, range.lowerBound), range.upperBound))
    }
}
