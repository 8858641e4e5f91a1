import StrataModel

extension Rect {
    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let left = Swift.min(minX, other.minX), top = Swift.min(minY, other.minY)
        return Rect(
            x: left, y: top, width: Swift.max(maxX, other.maxX) - left, height: Swift.max(maxY, other.maxY) - top)
    }
}
