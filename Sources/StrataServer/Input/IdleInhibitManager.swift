import CStrataServerGlue
import CWaylandServer

/// zwp_idle_inhibit_manager_v1 v1 (every client): idle inhibitors on surfaces (mpv, Firefox and
/// GTK 4 while a video plays).
final class IdleInhibitManager: ResourceObject {
    static let version: UInt32 = 1
    unowned let tracker: IdleTracker

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zwp_idle_inhibit_manager_v1_interface(), version: version)
        { [unowned compositor] client, version, id in
            _ = IdleInhibitManager(tracker: compositor.seat.idle, client: client, version: version, id: id)
        }
    }

    init?(tracker: IdleTracker, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.tracker = tracker
        super.init(
            client: client, interface: strata_zwp_idle_inhibit_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        zwp_idle_inhibit_manager_v1_interface(
            destroy: destroyRequest,
            create_inhibitor: { _, resource, id, surfaceResource in
                handle(resource, as: IdleInhibitManager.self) { manager throws(ProtocolError) in
                    // libwayland checked the argument is a wl_surface; a dead one has no object.
                    guard let surface = ResourceObject.from(surfaceResource, as: Surface.self) else { return }
                    try IdleInhibitor.make(
                        tracker: manager.tracker, surface: surface, client: manager.client, version: manager.version,
                        id: id)
                }
            }))
}
