import CStrataServerGlue
import CWaylandServer

/// wl_callback created by wl_surface.frame: done once the frame showing the commit is shown.
final class FrameCallback: ResourceObject {
    /// `surface`: the surface asking (its live counts are the callback's).
    init?(client: OpaquePointer, id: UInt32, surface: Surface) {
        super.init(
            client: client, interface: strata_wl_callback_interface(), version: 1, id: id, implementation: nil,
            countedWith: surface)
    }

    /// Sends done(time in ms) and destroys the callback, as the protocol says.
    func done(timeMilliseconds: UInt32) {
        guard !isDestroyed else { return }
        wl_callback_send_done(resource, timeMilliseconds)
        wl_resource_destroy(resource)
    }
}
