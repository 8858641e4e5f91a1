import CStrataClientGlue
import CWaylandClient

/// A test client's ext_session_lock_v1 (a locker such as swaylock), recording "locked" and
/// "finished", with its lock surfaces. Proxies are destroyed only by the test (never in deinit).
public final class TestSessionLock {
    /// Buffers its lock surfaces drew: released before the client (a buffer's deinit destroys its
    /// proxy), so declared first.
    var buffers: [TestBuffer] = []
    /// Every lock surface made, kept while their proxies may get events.
    public private(set) var lockSurfaces: [TestLockSurface] = []
    public let client: TestClient
    public let lock: OpaquePointer
    public private(set) var events: [String] = []
    private let compositor: OpaquePointer
    private let shm: OpaquePointer

    /// Binds the manager and asks it to lock (`manager.lock`); the answer comes at the next roundtrip.
    public init(client: TestClient) throws {
        self.client = client
        let manager = try client.bind(ext_session_lock_manager_v1_interface_ptr(), version: 1)
        compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        shm = try client.bind(wl_shm_interface_ptr())
        guard let made = ext_session_lock_manager_v1_lock(manager) else {
            throw TestClient.Failure.connect("lock failed")
        }
        lock = made
        ext_session_lock_v1_add_listener(made, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public var isLocked: Bool { events.contains("locked") }
    public var isFinished: Bool { events.contains("finished") }

    /// The wl_output proxies of every screen, in announcement order.
    public func bindOutputs() -> [OpaquePointer] {
        client.allGlobals.filter { $0.interface == "wl_output" }.compactMap {
            client.bind(name: $0.name, wl_output_interface_ptr(), version: 4)
        }
    }

    /// A new wl_surface (no buffer).
    public func makeSurface() -> OpaquePointer? {
        wl_compositor_create_surface(compositor)
    }

    /// get_lock_surface for `surface` on `output`.
    public func lockSurface(_ surface: OpaquePointer, output: OpaquePointer) -> TestLockSurface? {
        guard let made = ext_session_lock_v1_get_lock_surface(lock, surface, output) else { return nil }
        let lockSurface = TestLockSurface(lockSurface: made, surface: surface, shm: shm, owner: self)
        lockSurfaces.append(lockSurface)
        return lockSurface
    }

    /// get_lock_surface for a new wl_surface on `output`.
    public func newLockSurface(output: OpaquePointer) -> TestLockSurface? {
        makeSurface().flatMap { lockSurface($0, output: output) }
    }

    /// A lock surface on `output`, configured, acked and drawn in `argb` at the configured size
    /// (after a roundtrip).
    public func showLockSurface(on output: OpaquePointer, argb: UInt32) -> TestLockSurface? {
        guard let surface = makeSurface(), let lockSurface = lockSurface(surface, output: output) else { return nil }
        client.roundtrip()
        guard lockSurface.ackAndDraw(argb: argb) else { return nil }
        client.roundtrip()
        return lockSurface
    }

    public func unlockAndDestroy() { ext_session_lock_v1_unlock_and_destroy(lock) }
    public func destroy() { ext_session_lock_v1_destroy(lock) }

    private static var listener = ext_session_lock_v1_listener(
        locked: { data, _ in
            data.map { Unmanaged<TestSessionLock>.fromOpaque($0).takeUnretainedValue() }?.events.append("locked")
        },
        finished: { data, _ in
            data.map { Unmanaged<TestSessionLock>.fromOpaque($0).takeUnretainedValue() }?.events.append("finished")
        })
}

/// A test client's ext_session_lock_surface_v1 and its wl_surface, recording configures.
public final class TestLockSurface {
    public struct Configure: Equatable {
        public var serial: UInt32
        public var width: UInt32
        public var height: UInt32
    }

    public let lockSurface: OpaquePointer
    public let surface: OpaquePointer
    private let shm: OpaquePointer
    /// Keeps the buffers drawn (until it goes, with its client).
    private weak var owner: TestSessionLock?
    public private(set) var configures: [Configure] = []

    init(lockSurface: OpaquePointer, surface: OpaquePointer, shm: OpaquePointer, owner: TestSessionLock) {
        self.lockSurface = lockSurface
        self.surface = surface
        self.shm = shm
        self.owner = owner
        ext_session_lock_surface_v1_add_listener(lockSurface, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    public var id: UInt32 { wl_proxy_get_id(surface) }

    public func ack(_ serial: UInt32? = nil) {
        guard let serial = serial ?? configures.last?.serial else { return }
        ext_session_lock_surface_v1_ack_configure(lockSurface, serial)
    }

    /// Attaches a `width`×`height` buffer of `argb` and commits.
    @discardableResult
    public func draw(width: Int32, height: Int32, argb: UInt32) -> Bool {
        guard let owner, let buffer = TestBuffer(shm: shm, width: width, height: height, argb: argb) else {
            return false
        }
        owner.buffers.append(buffer)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        return true
    }

    /// Acks the last configure and draws at its size.
    public func ackAndDraw(argb: UInt32) -> Bool {
        guard let last = configures.last else { return false }
        ack(last.serial)
        return draw(width: Int32(last.width), height: Int32(last.height), argb: argb)
    }

    public func destroy() { ext_session_lock_surface_v1_destroy(lockSurface) }

    private static var listener = ext_session_lock_surface_v1_listener(
        configure: { data, _, serial, width, height in
            data.map { Unmanaged<TestLockSurface>.fromOpaque($0).takeUnretainedValue() }?
                .configures.append(Configure(serial: serial, width: width, height: height))
        })
}
