import CStrataServerGlue
import CWaylandServer
import Glibc

/// wp_security_context_manager_v1 v1: sandboxes (flatpak) register a listening socket whose
/// connections Strata marks as sandboxed (`ClientOrigin.sandboxed`): they never see the
/// privileged globals, whatever `Compositor.clientPrivilege` says.
///
/// The global is offered to every client that is not itself sandboxed (as sway does): making a
/// security context only takes rights away from the connections that come through it, and a
/// sandboxed client never sees the manager, so it cannot nest (a bind by name is refused by
/// libwayland; a sandboxed client reaching `create_listener` anyway gets `nested`).
///
/// Each context owns two descriptors until it stops (`SecurityContextListener`); the caps below
/// keep what one client, or all of them, can make Strata hold.
public final class SecurityContextManager {
    static let version: UInt32 = 1
    /// Live listeners (committed or not) made through one client's connection while it is
    /// connected. A sandbox engine makes one per sandboxed app it starts; 32 apps started at
    /// once through one connection is far past flatpak's one.
    public static let maxListenersPerClient = 32
    /// Live listeners in all: each holds two descriptors. Leftovers (below) are ended first to
    /// make room, so only connected clients' own listeners can fill it.
    public static let maxListeners = 256
    /// Leftovers: committed listeners whose creator disconnected while their close_fd has not
    /// hung up (the spec: accepting goes on). At most this many are kept, for all clients
    /// together; past it, and whenever a new context needs the room, the oldest leftover ends
    /// as if its close_fd had hung up. A sandbox engine that disconnects while its apps run
    /// keeps up to this many of them reachable; one that leaves contexts behind cannot make
    /// Strata refuse another engine.
    public static let maxLeftoverListeners = 16
    /// Connections accepted on one listener per wake-up of the loop: a flood of connections on
    /// one sandbox's socket waits for the next turn instead of holding up every other client.
    public static let maxAcceptsPerWakeup = 16
    /// Bytes of a sandbox engine name, app id or instance id: flatpak's app ids are D-Bus names
    /// (at most 255 bytes); anything longer or empty is `invalid_metadata`.
    public static let maxMetadataLength = 255

    unowned let compositor: Compositor
    /// Every live listener, in creation order.
    public private(set) var listeners: [SecurityContextListener] = []
    /// The clients that made the live listeners, each watched so its listeners stop counting
    /// against it when it disconnects (a later client at the same address starts afresh).
    private var creators: [OpaquePointer: Listener] = [:]

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    func install() -> Global? {
        let global = Global(
            display: compositor.display, interface: strata_wp_security_context_manager_v1_interface(),
            version: Self.version
        ) { [unowned self] client, version, id in
            _ = SecurityContextManagerBinding(manager: self, client: client, version: version, id: id)
        }
        global?.filter = { [unowned self] client in !self.compositor.display.origin(of: client).isSandboxed }
        return global
    }

    /// The listeners still counted against `client`.
    public func listenerCount(of client: OpaquePointer) -> Int {
        listeners.reduce(0) { $0 + ($1.creator == client ? 1 : 0) }
    }

    /// `create_listener`: checks the caller and both descriptors, then makes the context. Takes
    /// ownership of the descriptors (closed on every refusal).
    func createListener(binding: SecurityContextManagerBinding, id: UInt32, listenFD: Int32, closeFD: Int32) throws {
        var owned = true
        defer {
            if owned {
                Descriptors.close(listenFD)
                Descriptors.close(closeFD)
            }
        }
        let client = binding.client
        guard !compositor.display.origin(of: client).isSandboxed else {
            throw ProtocolError(
                code: WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_NESTED.rawValue,
                "a sandboxed client cannot make a security context")
        }
        guard listenerCount(of: client) < Self.maxListenersPerClient else {
            throw ProtocolError.noMemory(
                "per-client limit: more than \(Self.maxListenersPerClient) security contexts", client: client)
        }
        if listeners.count >= Self.maxListeners, let oldest = listeners.first(where: { $0.creator == nil }) {
            end(oldest)
        }
        guard listeners.count < Self.maxListeners else {
            throw ProtocolError.noMemory(
                "more than \(Self.maxListeners) security contexts of connected clients in all", client: client)
        }
        if let why = Self.listeningSocketProblem(listenFD) {
            throw ProtocolError(
                code: WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue, "listen_fd \(why)")
        }
        guard let context = SecurityContext(manager: self, client: client, version: binding.version, id: id) else {
            return
        }
        guard
            let listener = SecurityContextListener(manager: self, creator: client, listenFD: listenFD, closeFD: closeFD)
        else {
            context.destroyResource()
            throw ProtocolError(
                code: WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue,
                "close_fd cannot be watched for its hangup")
        }
        owned = false
        context.listener = listener
        listeners.append(listener)
        watchCreator(client)
    }

    /// Why `fd` is not a listening Unix stream socket, or nil when it is one. (A listening TCP
    /// socket would put Strata on the network.)
    static func listeningSocketProblem(_ fd: Int32) -> String? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0 else {
            return "is not a socket (\(String(cString: strerror(errno))))"
        }
        guard value == 1 else { return "is a socket that is not listening" }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else {
            return "is not a stream socket"
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0, value == AF_UNIX else {
            return "is not a Unix socket"
        }
        return nil
    }

    private func watchCreator(_ client: OpaquePointer) {
        guard creators[client] == nil, let watcher = Listener({ [weak self] _ in self?.creatorDidDisconnect(client) })
        else { return }
        watcher.listen(toClientDestroy: client)
        creators[client] = watcher
    }

    private func creatorDidDisconnect(_ client: OpaquePointer) {
        for listener in listeners where listener.creator == client { listener.creator = nil }
        creators[client] = nil
        // Uncommitted contexts end with the client's resources; only committed ones are left over.
        var leftovers = listeners.filter { $0.creator == nil && $0.metadata != nil }
        while leftovers.count > Self.maxLeftoverListeners {
            end(leftovers.removeFirst())
        }
    }

    /// The leftovers kept now (committed listeners whose creator is gone).
    public var leftoverCount: Int {
        listeners.reduce(0) { $0 + ($1.creator == nil && $1.metadata != nil ? 1 : 0) }
    }

    private func end(_ listener: SecurityContextListener) {
        listener.stop()
        listenerDidStop(listener)
    }

    /// Forgets a listener that stopped (its close_fd hung up, its context was destroyed
    /// before commit, or Strata is shutting down).
    func listenerDidStop(_ listener: SecurityContextListener) {
        listeners.removeAll { $0 === listener }
    }

    /// Ends the sandboxes whose engine has disconnected, as if each close_fd had hung up: their
    /// listeners stop and close both descriptors. How many stopped. A committed listener outlives
    /// its creator by design, within `maxLeftoverListeners`; the fuzzer, which plays the sandbox
    /// engine as well as the client, ends them after each input.
    @discardableResult
    public func stopListenersWithoutCreator() -> Int {
        let orphans = listeners.filter { $0.creator == nil }
        for listener in orphans { end(listener) }
        return orphans.count
    }

    /// Stops every listener (compositor shutdown).
    func stop() {
        for listener in listeners { listener.stop() }
        listeners.removeAll()
        creators.removeAll()
    }
}
