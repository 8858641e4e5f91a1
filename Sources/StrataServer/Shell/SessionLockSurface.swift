import CStrataServerGlue
import CWaylandServer
import StrataModel

/// ext_session_lock_surface_v1: the role of a wl_surface a locker shows on one screen while the
/// session is locked. Configured at once to the screen's size (logical, as windows' frames), and
/// again when the screen's mode, scale or transform changes; each commit after an ack must
/// carry a buffer (`null_buffer`) of the acked size (`dimensions_mismatch`). Shown, at the
/// screen's origin above everything, while its lock holds the session and it has content; the
/// scene anchors it to the screen (`SurfaceAnchor.screen`).
final class SessionLockSurface: ResourceObject, SurfaceRole {
    static let roleName = "ext_session_lock_surface_v1"
    var roleName: String { Self.roleName }

    private weak var lock: SessionLock?
    private unowned let lockScreen: LockScreen
    private var compositor: Compositor { lockScreen.compositor }
    private(set) weak var surface: Surface?
    /// The screen it covers; nil when the output named a screen already gone (inert).
    let screenID: ScreenID?
    /// Configures not acked yet, oldest first (bounded: a screen changing size endlessly).
    private var unacked: [(serial: UInt32, width: UInt32, height: UInt32)] = []
    /// The size of the last acked configure; nil before the first ack.
    private var acked: (width: UInt32, height: UInt32)?
    private(set) var isMapped = false
    private var isAnchored = false
    private var surfaceDestroyed: Signal<Surface>.Token?

    init?(
        lock: SessionLock, lockScreen: LockScreen, surface: Surface, screenID: ScreenID?,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.lock = lock
        self.lockScreen = lockScreen
        self.surface = surface
        self.screenID = screenID
        super.init(
            client: client, interface: strata_ext_session_lock_surface_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
        _ = surface.setRole(self)
        surfaceDestroyed = surface.didDestroy.observe { [weak self] _ in self?.tearDown() }
    }

    private func error(_ code: ext_session_lock_surface_v1_error, _ message: String) -> ProtocolError {
        ProtocolError(on: isDestroyed ? nil : resource, code: code.rawValue, message)
    }

    /// Whether the surface is alive and its lock object too (after its lock object is gone, the
    /// compositor has no more use for it).
    private var isLive: Bool { !isDestroyed && lock != nil && surface.map { !$0.isDestroyed } ?? false }

    /// Whether the rules of the role apply: alive, on a screen that is still connected (an inert
    /// lock surface is never configured, and its commits are not checked).
    private var isActive: Bool { isLive && screenID.flatMap { compositor.scene.output(for: $0) } != nil }

    /// Tells the client its screen's size (logical), unless the screen is gone.
    func sendConfigure() {
        guard isLive, let screenID, let output = compositor.scene.output(for: screenID) else { return }
        let width = UInt32(clamping: max(0, output.width)), height = UInt32(clamping: max(0, output.height))
        if let last = unacked.last, last.width == width, last.height == height { return }
        if unacked.isEmpty, let acked, acked == (width, height) { return }
        let serial = compositor.display.nextSerial()
        unacked.append((serial, width, height))
        if unacked.count > 16 { unacked.removeFirst(unacked.count - 16) }
        ext_session_lock_surface_v1_send_configure(resource, serial, width, height)
    }

    /// Anchors the surface to its screen while it is to be shown (its lock holds the session,
    /// it has content), else takes it out of the scene; the scene damages the change.
    func refreshAnchor() {
        guard let surface, !surface.isDestroyed else { return }
        let shown = isLive && isMapped && lock?.isHolder == true && screenID != nil
        guard shown != isAnchored else { return }
        isAnchored = shown
        compositor.scene.setAnchor(shown ? screenID.map { .screen($0) } : nil, of: surface)
        compositor.scene.surfaceTreeDidChange(surface)
        lockScreen.lockSurfacesDidChange()
    }

    // MARK: SurfaceRole

    func surfaceWillCommit(_ surface: Surface) throws(ProtocolError) {
        guard isActive else { return }
        guard acked != nil else {
            throw error(
                EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK,
                "commit before the first configure was acknowledged")
        }
        let hasBuffer = surface.pending.bufferChanged ? surface.pending.buffer.resource != nil : surface.hasContent
        if !hasBuffer {
            throw error(EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER, "a lock surface was committed without a buffer")
        }
    }

    func surfaceDidCommit(_ surface: Surface) {
        guard isActive, let acked else { return }
        // The size is known once the state is applied (buffer, scale, transform, viewport).
        guard UInt32(clamping: max(0, surface.width)) == acked.width,
            UInt32(clamping: max(0, surface.height)) == acked.height
        else {
            post(
                error(
                    EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH,
                    "the lock surface is \(surface.width)x\(surface.height), the acked configure said \(acked.width)x\(acked.height)"
                ))
            isMapped = false
            refreshAnchor()
            return
        }
        isMapped = surface.hasContent
        refreshAnchor()
    }

    // MARK: Lifetime

    /// Its lock object went (unlocked, destroyed, or its client is leaving): not shown again.
    func lockDidGo() {
        lock = nil
        refreshAnchor()
    }

    private func tearDown() {
        surfaceDestroyed?.remove()
        surfaceDestroyed = nil
        let wasAnchored = isAnchored
        isMapped = false
        isAnchored = false
        lock?.remove(self)
        lock = nil
        if wasAnchored { lockScreen.lockSurfacesDidChange() }
    }

    override func resourceDidDestroy() {
        if let surface, !surface.isDestroyed, isAnchored {
            isAnchored = false
            compositor.scene.setAnchor(nil, of: surface)
            compositor.scene.surfaceTreeDidChange(surface)
        }
        tearDown()
        surface?.clearRole(self)
    }

    // MARK: Requests

    func handleAckConfigureRequest(serial: UInt32) throws(ProtocolError) {
        guard let index = unacked.firstIndex(where: { $0.serial == serial }) else {
            throw error(
                EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL,
                "ack_configure(\(serial)): no such configure is waiting for an ack")
        }
        acked = (unacked[index].width, unacked[index].height)
        unacked.removeFirst(index + 1)
    }

    static let implementation = makeImplementation(
        ext_session_lock_surface_v1_interface(
            destroy: destroyRequest,
            ack_configure: { _, resource, serial in
                handle(resource, as: SessionLockSurface.self) { try $0.handleAckConfigureRequest(serial: serial) }
            }))
}
