/// Axis values of one tablet tool frame; nil: unchanged. The seat sends only the axes the tool
/// has, drops values that are not finite, and clamps the rest to the spec's ranges.
public struct TabletToolAxes: Sendable, Equatable {
    /// 0 (none) … 1 (the most the tool senses).
    public var pressure: Double?
    /// 0 (touching) … 1 (the farthest still in proximity).
    public var distance: Double?
    /// Degrees from the perpendicular, −90 … 90, on the X and Y axes (positive: towards the
    /// right, towards the user).
    public var tiltX: Double?
    public var tiltY: Double?
    /// Degrees clockwise around the Z axis, 0 ..< 360 (taken modulo 360).
    public var rotation: Double?
    /// A slider's position, −1 … 1.
    public var slider: Double?
    /// A wheel's turn in degrees (−360 … 360) and in clicks (−1000 … 1000).
    public var wheelDegrees: Double?
    public var wheelClicks: Int32 = 0

    public init(
        pressure: Double? = nil, distance: Double? = nil, tiltX: Double? = nil, tiltY: Double? = nil,
        rotation: Double? = nil, slider: Double? = nil, wheelDegrees: Double? = nil, wheelClicks: Int32 = 0
    ) {
        self.pressure = pressure
        self.distance = distance
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.rotation = rotation
        self.slider = slider
        self.wheelDegrees = wheelDegrees
        self.wheelClicks = wheelClicks
    }

    public var isEmpty: Bool {
        pressure == nil && distance == nil && tiltX == nil && tiltY == nil && rotation == nil && slider == nil
            && wheelDegrees == nil && wheelClicks == 0
    }
}
