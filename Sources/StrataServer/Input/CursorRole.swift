/// The role of a surface given to wl_pointer.set_cursor. The surface is not part of the scene:
/// the cursor layer (`CursorLayer`) draws it at the pointer while it is the focus client's cursor.
final class CursorRole: SurfaceRole {
    static let roleName = "wl_pointer-cursor"
    var roleName: String { Self.roleName }
    private unowned let pointer: Pointer

    init(pointer: Pointer) {
        self.pointer = pointer
    }

    // Never anchored in the scene: the cursor layer draws it.

    /// New pixels, size or hotspot (wl_surface.offset moves the image by the offset).
    func surfaceDidCommit(_ surface: Surface) {
        pointer.cursorSurfaceDidCommit(surface, offsetX: surface.committedOffset.x, offsetY: surface.committedOffset.y)
    }
}
