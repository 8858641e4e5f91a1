/// The role of a surface given to wl_pointer.set_cursor. Cursors are not drawn yet: the seat
/// keeps the surface and hotspot (`Seat.cursor`) for the renderer and the nested backends.
final class CursorRole: SurfaceRole {
    static let roleName = "wl_pointer-cursor"
    var roleName: String { Self.roleName }

    /// Not part of the scene (yet).
    func placement(of surface: Surface) -> SurfacePlacement? { nil }
}
