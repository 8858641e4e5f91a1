/// The role of a surface given to zwp_tablet_tool_v2.set_cursor. Strata keeps what the client
/// asked but does not draw it: the cursor layer draws the pointer's cursor only.
final class TabletCursorRole: SurfaceRole {
    static let roleName = "zwp_tablet_tool_v2-cursor"
    var roleName: String { Self.roleName }

    func surfaceDidCommit(_ surface: Surface) {}
}
