/// The role of a drag's icon surface (`wl_data_device-icon`, given by start_drag). The surface is
/// not part of the scene: `DragIconLayer` draws it at the drag's point while the drag lasts, and
/// its input region is ignored (it is never hit). Its subsurfaces are not drawn, so a client's
/// tree under an icon costs nothing per motion. A surface keeps the role for life and may be the
/// icon of later drags.
final class DragIconRole: SurfaceRole {
    static let roleName = "wl_data_device-icon"
    var roleName: String { Self.roleName }
    private unowned let seat: Seat

    init(seat: Seat) {
        self.seat = seat
    }

    /// New pixels, size or offset (wl_surface.offset moves the icon by the offset).
    func surfaceDidCommit(_ surface: Surface) {
        seat.drag?.iconDidCommit(surface)
    }
}
