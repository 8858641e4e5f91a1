import StrataModel

/// The session lock (ext_session_lock_v1, `docs/breadth.md`, "Session lock"): which lock object
/// holds the session, and which lock surface each screen shows.
///
/// The model keeps the state (`WindowManager.isLocked`: no window is key while locked); this
/// object keeps who locked. A lock request is granted (`locked`) when no live lock object holds
/// the session, also when the session is still locked by a locker that died: the new locker takes
/// the lock over, and only an `unlock_and_destroy` of the holder unlocks. While locked the scene
/// draws only the lock surfaces (black where a screen has none) and the seat gives them every
/// input.
public final class LockScreen {
    unowned let compositor: Compositor
    /// The lock object that holds the session: sent `locked`, alive, not unlocked. Nil while
    /// unlocked, and while locked by a locker that died.
    private(set) weak var holder: SessionLock?

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    public var isLocked: Bool { compositor.windows.isLocked }

    /// Whether `lock` holds the session.
    func holds(_ lock: SessionLock) -> Bool { holder === lock && !lock.isDestroyed }

    /// A lock request: true (the session is locked and `lock` holds it) unless another live lock
    /// object holds it already.
    func lockRequested(by lock: SessionLock) -> Bool {
        if let holder, !holder.isDestroyed { return false }
        holder = lock
        let requester = Compositor.requester(of: lock.client)
        compositor.withCause(.lock, request: "ext_session_lock_manager_v1.lock", requester: requester) {
            compositor.windows.lock()
        }
        lockSurfacesDidChange()
        return true
    }

    /// `unlock_and_destroy` of the holder: the session unlocks (the model restores the key
    /// window). Its lock surfaces are not shown any more.
    func unlockRequested(by lock: SessionLock) {
        guard holder === lock else { return }
        holder = nil
        lock.forEachLockSurface { $0.refreshAnchor() }
        let requester = Compositor.requester(of: lock.client)
        compositor.withCause(.lock, request: "ext_session_lock_v1.unlock_and_destroy", requester: requester) {
            compositor.windows.unlock()
        }
        lockSurfacesDidChange()
    }

    /// The holder died without unlocking (destroyed, or its client gone): the session stays
    /// locked, the screens black, until a new locker locks and unlocks.
    func lockDidDie(_ lock: SessionLock) {
        guard holder === lock else { return }
        holder = nil
        lockSurfacesDidChange()
    }

    /// The lock surface `screen` shows: the holder's, mapped. Nil while unlocked.
    func shownSurface(on screen: ScreenID) -> Surface? {
        guard isLocked, let holder, !holder.isDestroyed,
            let lockSurface = holder.lockSurface(on: screen), lockSurface.isMapped,
            let surface = lockSurface.surface, !surface.isDestroyed
        else { return nil }
        return surface
    }

    /// Where keys go while locked: the main screen's lock surface, else the first screen's
    /// that has one.
    var keyboardTarget: Surface? {
        for screen in compositor.windows.screens {
            if let surface = shownSurface(on: screen.id) { return surface }
        }
        return nil
    }

    /// A lock surface mapped, unmapped or died, or the holder changed: keyboard and pointer
    /// focus are decided again.
    func lockSurfacesDidChange() {
        compositor.seat.lockScreenDidChange()
    }

    /// A screen's size changed: its lock surface is configured to the new size.
    func screenDidChangeGeometry(_ id: ScreenID) {
        holder?.lockSurface(on: id)?.sendConfigure()
    }
}
