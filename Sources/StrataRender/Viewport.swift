import CPixman
import StrataModel

/// wp_viewport's crop and scale of a surface: the `source` rectangle of the surface's content
/// (surface coordinates after buffer transform and scale, before the viewport) is shown scaled
/// to `destination`. Either may be unset; the surface size is the destination, else the source's
/// size, else the buffer's.
public struct Viewport: Equatable, Sendable {
    public struct Source: Equatable, Sendable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
    public struct Size: Equatable, Sendable {
        public var width, height: Int32
        public init(width: Int32, height: Int32) {
            self.width = width
            self.height = height
        }
    }
    public var source: Source?
    public var destination: Size?

    public init(source: Source? = nil, destination: Size? = nil) {
        self.source = source
        self.destination = destination
    }

    public var isEmpty: Bool { source == nil && destination == nil }

    /// The surface size this viewport gives content of `width`×`height` (surface units before
    /// the viewport), or nil when the source size is not whole and there is no destination.
    public func surfaceSize(contentWidth width: Int32, contentHeight height: Int32) -> Size? {
        if let destination { return destination }
        if let source {
            guard source.width == source.width.rounded(), source.height == source.height.rounded() else { return nil }
            return Size(
                width: Coordinate.size(Int(Coordinate.clamped(source.width))),
                height: Coordinate.size(Int(Coordinate.clamped(source.height))))
        }
        return Size(width: width, height: height)
    }

    /// Whether the source rectangle lies inside content of `width`×`height`.
    public func sourceFits(contentWidth width: Int32, contentHeight height: Int32) -> Bool {
        guard let source else { return true }
        return source.x + source.width <= Double(width) && source.y + source.height <= Double(height)
    }

    /// The pixman transform from the surface's (destination) coordinates to the content's
    /// (surface coordinates before the viewport) for a surface of `surfaceWidth`×`surfaceHeight`
    /// showing content of `contentWidth`×`contentHeight`.
    public func pixmanTransform(
        surfaceWidth: Int32, surfaceHeight: Int32,
        contentWidth: Int32, contentHeight: Int32
    ) -> pixman_transform_t {
        let src = source ?? Source(x: 0, y: 0, width: Double(contentWidth), height: Double(contentHeight))
        // A source past 32,768 (wl_fixed reaches 2^23) or a tiny destination leaves pixman's
        // 16.16 range: the entries saturate (`Coordinate.fixed`) rather than trap.
        var t = pixman_transform_t()
        let sx = src.width / Double(max(1, surfaceWidth)), sy = src.height / Double(max(1, surfaceHeight))
        t.matrix.0 = (Coordinate.fixed(sx), 0, Coordinate.fixed(src.x))
        t.matrix.1 = (0, Coordinate.fixed(sy), Coordinate.fixed(src.y))
        t.matrix.2 = (0, 0, 1 << 16)
        return t
    }

    /// Whether content of `contentWidth`×`contentHeight` is scaled to the surface size.
    public func scales(surfaceWidth: Int32, surfaceHeight: Int32, contentWidth: Int32, contentHeight: Int32) -> Bool {
        let w = source?.width ?? Double(contentWidth), h = source?.height ?? Double(contentHeight)
        return w != Double(surfaceWidth) || h != Double(surfaceHeight)
    }
}
