import CStrataServerGlue
import CWaylandServer

/// ext_idle_notifier_v1 v2 (every client, as on sway): idle notifications of the one seat.
final class IdleNotifier: ResourceObject {
    static let version: UInt32 = 2
    unowned let tracker: IdleTracker

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_ext_idle_notifier_v1_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = IdleNotifier(tracker: compositor.seat.idle, client: client, version: version, id: id)
        }
    }

    init?(tracker: IdleTracker, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.tracker = tracker
        super.init(
            client: client, interface: strata_ext_idle_notifier_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func makeNotification(id: UInt32, timeout: UInt32, respectsInhibitors: Bool) throws(ProtocolError) {
        // One seat: the seat argument can only name it.
        try IdleNotification.make(
            tracker: tracker, timeoutMilliseconds: timeout, respectsInhibitors: respectsInhibitors,
            client: client, version: version, id: id)
    }

    static let implementation = makeImplementation(
        ext_idle_notifier_v1_interface(
            destroy: destroyRequest,
            get_idle_notification: { _, resource, id, timeout, _ in
                handle(resource, as: IdleNotifier.self) {
                    try $0.makeNotification(id: id, timeout: timeout, respectsInhibitors: true)
                }
            },
            get_input_idle_notification: { _, resource, id, timeout, _ in
                handle(resource, as: IdleNotifier.self) {
                    try $0.makeNotification(id: id, timeout: timeout, respectsInhibitors: false)
                }
            }))
}
