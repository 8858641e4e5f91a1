import CStrataServerGlue
import CWaylandServer
import StrataModel

/// ext_session_lock_v1: one attempt to lock the session. Answered at once: `locked` when the
/// lock screen grants it (`LockScreen.lockRequested`), else `finished` (another live lock holds
/// the session). Makes lock surfaces, one per screen. `unlock_and_destroy` unlocks; `destroy`
/// after `locked` is `invalid_destroy`; a holder that dies leaves the session locked.
final class SessionLock: ResourceObject {
    private unowned let lockScreen: LockScreen
    /// `locked` was sent (and not `finished`).
    private(set) var wasLocked = false
    /// Its lock surfaces, one per screen at most (`duplicate_output`), at most
    /// `ClientBudget.maxLockSurfacesPerLock` in all.
    private var lockSurfaces: [SessionLockSurface] = []
    /// Set by unlock_and_destroy before the resource goes.
    private var unlocked = false

    init?(lockScreen: LockScreen, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.lockScreen = lockScreen
        super.init(
            client: client, interface: strata_ext_session_lock_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    /// Sends `locked` or `finished`, as the lock screen decides.
    func answer() {
        if lockScreen.lockRequested(by: self) {
            wasLocked = true
            ext_session_lock_v1_send_locked(resource)
        } else {
            ext_session_lock_v1_send_finished(resource)
        }
    }

    var isHolder: Bool { lockScreen.holds(self) }

    func lockSurface(on screen: ScreenID) -> SessionLockSurface? {
        lockSurfaces.first { $0.screenID == screen && !$0.isDestroyed }
    }

    func forEachLockSurface(_ body: (SessionLockSurface) -> Void) {
        for lockSurface in lockSurfaces { body(lockSurface) }
    }

    func remove(_ lockSurface: SessionLockSurface) {
        lockSurfaces.removeAll { $0 === lockSurface }
    }

    private func error(_ code: ext_session_lock_v1_error, _ message: String) -> ProtocolError {
        ProtocolError(code: code.rawValue, message)
    }

    override func resourceDidDestroy() {
        if !unlocked { lockScreen.lockDidDie(self) }
        for lockSurface in lockSurfaces { lockSurface.lockDidGo() }
        lockSurfaces.removeAll()
    }

    // MARK: Requests

    func handleDestroyRequest() throws(ProtocolError) {
        if wasLocked {
            throw error(EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY, "destroy after locked: use unlock_and_destroy")
        }
        wl_resource_destroy(resource)
    }

    func handleUnlockAndDestroyRequest() throws(ProtocolError) {
        guard wasLocked else {
            throw error(EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK, "unlock_and_destroy before locked was sent")
        }
        unlocked = true
        lockScreen.unlockRequested(by: self)
        wl_resource_destroy(resource)
    }

    func handleGetLockSurfaceRequest(id: UInt32, surface: Surface, output: OpaquePointer?) throws(ProtocolError) {
        if surface.role != nil || surface.roleName != nil {
            throw error(
                EXT_SESSION_LOCK_V1_ERROR_ROLE,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has the role \(surface.roleName ?? "?")")
        }
        if surface.hasContent || (surface.pending.bufferChanged && surface.pending.buffer.resource != nil) {
            throw error(
                EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED,
                "the wl_surface already has a buffer attached or committed")
        }
        if lockSurfaces.count >= ClientBudget.maxLockSurfacesPerLock {
            throw .noMemory(
                "more than \(ClientBudget.maxLockSurfacesPerLock) lock surfaces on one lock", client: client)
        }
        // An output whose screen is gone makes an inert lock surface: never configured or shown.
        let screen = ResourceObject.from(output, as: OutputBinding.self)?.output?.screen
        if let screen, lockSurface(on: screen.id) != nil {
            throw error(
                EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT,
                "screen \(screen.name) already has a lock surface of this lock")
        }
        guard
            let lockSurface = SessionLockSurface(
                lock: self, lockScreen: lockScreen, surface: surface, screenID: screen?.id,
                client: client, version: version, id: id)
        else { return }
        lockSurfaces.append(lockSurface)
        lockSurface.sendConfigure()
    }

    static let implementation = makeImplementation(
        ext_session_lock_v1_interface(
            destroy: { _, resource in
                handle(resource, as: SessionLock.self) { try $0.handleDestroyRequest() }
            },
            get_lock_surface: { _, resource, id, surface, output in
                handle(resource, as: SessionLock.self) { lock throws(ProtocolError) in
                    guard let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try lock.handleGetLockSurfaceRequest(id: id, surface: surface, output: output)
                }
            },
            unlock_and_destroy: { _, resource in
                handle(resource, as: SessionLock.self) { try $0.handleUnlockAndDestroyRequest() }
            }))
}
