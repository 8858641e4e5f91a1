import CWaylandServer
import Glibc

/// A security context's two descriptors: `listenFD`, the sandbox's listening socket, and
/// `closeFD`, whose hangup (or any event) means the sandbox is done. From `create_listener` on,
/// closeFD is watched; from `commit` on, connections on listenFD are accepted on the loop and
/// marked sandboxed with the context's metadata. It stops, closing both, when closeFD hangs up,
/// when its context is destroyed before commit, or when Strata shuts down; the client that made
/// it may disconnect meanwhile (the spec: accepting goes on).
public final class SecurityContextListener {
    unowned let manager: SecurityContextManager
    /// The connected client that made it (nil once that client disconnected): the per-client cap.
    public internal(set) var creator: OpaquePointer?
    private let listenFD: Int32
    private let closeFD: Int32
    private var closeSource: EventSource?
    private var listenSource: EventSource?
    public private(set) var metadata: SecurityContextMetadata?
    public private(set) var isStopped = false
    /// Connections accepted so far.
    public private(set) var accepted = 0

    /// Watches `closeFD`; nil when it cannot be watched (a regular file, say). The caller keeps
    /// ownership of the descriptors when this fails.
    init?(manager: SecurityContextManager, creator: OpaquePointer, listenFD: Int32, closeFD: Int32) {
        self.manager = manager
        self.creator = creator
        self.listenFD = listenFD
        self.closeFD = closeFD
        // Readable counts too: a peer that closed a socket reads as end of file, and a level-
        // triggered readable event left unread would wake the loop forever.
        guard
            let source = EventSource(
                display: manager.compositor.display, fd: closeFD, events: .readable,
                handler: { [weak self] _ in
                    guard let self, !self.isStopped else { return }
                    self.stop()
                    self.manager.listenerDidStop(self)
                })
        else {
            // deinit runs for a failed class initializer: it must not close what the caller keeps.
            isStopped = true
            return nil
        }
        closeSource = source
    }

    deinit { stop() }

    /// Starts accepting connections as sandboxed clients with `metadata` (the context's commit).
    func start(metadata: SecurityContextMetadata) {
        guard !isStopped, listenSource == nil else { return }
        self.metadata = metadata
        // The sandbox gave the socket away ("closing remains the only valid operation"): Strata
        // makes it non-blocking, so an accept never waits.
        _ = fcntl(listenFD, F_SETFL, fcntl(listenFD, F_GETFL) | O_NONBLOCK)
        listenSource = EventSource(display: manager.compositor.display, fd: listenFD, events: .readable) {
            [weak self] events in
            self?.acceptConnections(events)
        }
        if listenSource == nil {
            stop()
            manager.listenerDidStop(self)
        }
    }

    private func acceptConnections(_ events: EventSource.Events) {
        guard !isStopped, let metadata else { return }
        if !events.isDisjoint(with: [.hangup, .error]) {
            stop()
            manager.listenerDidStop(self)
            return
        }
        for _ in 0..<SecurityContextManager.maxAcceptsPerWakeup {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            // Close-on-exec before anything can start a process (one thread: nothing can between).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if manager.compositor.display.createClient(fd: fd, origin: .sandboxed(metadata)) == nil {
                close(fd)
            } else {
                accepted += 1
            }
        }
    }

    /// Stops watching and closes both descriptors; safe to call twice.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        closeSource?.remove()
        listenSource?.remove()
        closeSource = nil
        listenSource = nil
        Descriptors.close(listenFD)
        Descriptors.close(closeFD)
    }
}
