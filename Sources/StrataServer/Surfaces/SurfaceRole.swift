import StrataModel

/// What a role (subsurface, xdg_surface, cursor, layer surface) tells the surface it gives a
/// purpose to. A surface gets one role for its whole life; the role object may die first.
public protocol SurfaceRole: AnyObject {
    var roleName: String { get }
    /// Checks a wl_surface.attach (`buffer` nil: a detach); a thrown error refuses it.
    func surfaceWillAttach(_ surface: Surface, buffer: OpaquePointer?) throws(ProtocolError)
    /// Checks a commit before its state is applied; a thrown error refuses the commit.
    func surfaceWillCommit(_ surface: Surface) throws(ProtocolError)
    /// Called after the committed state is current, before the scene is told of the commit:
    /// a role whose surface's place changed tells the scene its new anchor here
    /// (`Scene.setAnchor(_:of:)`).
    func surfaceDidCommit(_ surface: Surface)
}

public extension SurfaceRole {
    func surfaceWillAttach(_ surface: Surface, buffer: OpaquePointer?) throws(ProtocolError) {}
    func surfaceWillCommit(_ surface: Surface) throws(ProtocolError) {}
    func surfaceDidCommit(_ surface: Surface) {}
}

/// A surface's origin on a screen, in that screen's coordinates, within ±`Coordinate.limit`
/// (the scene makes it through `Coordinate`: a frame, a popup or subsurface offset added wide).
public struct SurfacePlacement: Equatable {
    public var screen: ScreenID
    public var x: Int32
    public var y: Int32
}
