import CStrataServerGlue
import CWaylandServer

/// ext_session_lock_manager_v1 v1: makes session locks (swaylock). Offered to every client that
/// is not sandboxed (`docs/breadth.md`, "Session lock": why not only the privileged ones).
final class SessionLockManager: ResourceObject {
    static let version: UInt32 = 1
    private unowned let lockScreen: LockScreen

    static func install(on compositor: Compositor) -> Global? {
        let global = Global(
            display: compositor.display, interface: strata_ext_session_lock_manager_v1_interface(), version: version
        ) { [unowned compositor] client, version, id in
            _ = SessionLockManager(lockScreen: compositor.lockScreen, client: client, version: version, id: id)
        }
        // A sandboxed app must not blank the screens or take the keys typed on a lock screen.
        global?.filter = { [unowned compositor] client in !compositor.display.origin(of: client).isSandboxed }
        return global
    }

    init?(lockScreen: LockScreen, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.lockScreen = lockScreen
        super.init(
            client: client, interface: strata_ext_session_lock_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        ext_session_lock_manager_v1_interface(
            destroy: destroyRequest,
            lock: { _, resource, id in
                handle(resource, as: SessionLockManager.self) { manager in
                    guard
                        let lock = SessionLock(
                            lockScreen: manager.lockScreen, client: manager.client, version: manager.version, id: id)
                    else { return }
                    lock.answer()
                }
            }))
}
