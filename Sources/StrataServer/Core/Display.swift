import CStrataServerGlue
import CWaylandServer
import Glibc

/// The libwayland display and its event loop: the one thread everything in the server runs on.
///
/// `dispatch(timeout:)` is the single step of the loop; `run()` repeats it until `terminate()`.
/// Tests step the server with `dispatch(timeout: 0)` between client requests.
public final class Display {
    public let display: OpaquePointer
    public let eventLoop: OpaquePointer
    /// The socket name (`wayland-N`) once `addSocket` succeeded.
    public private(set) var socketName: String?
    private let owningThread = pthread_self()
    private var running = false

    public init() throws(ServerError) {
        guard let display = wl_display_create() else { throw .setup("wl_display_create failed") }
        guard let loop = wl_display_get_event_loop(display) else {
            wl_display_destroy(display)
            throw .setup("the display has no event loop")
        }
        self.display = display
        self.eventLoop = loop
        Display.installLogHandler()
        // One display-wide filter asks each Global's own `filter` (nil: everyone sees it).
        wl_display_set_global_filter(
            display,
            { client, global, data in
                guard let client, let global, let data else { return true }
                let me = Unmanaged<Display>.fromOpaque(data).takeUnretainedValue()
                guard let filter = me.filteredGlobals[global]?.filter else { return true }
                return filter(client)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Globals that hide from some clients, by their wl_global (see `Global.filter`).
    private var filteredGlobals: [OpaquePointer: Global] = [:]

    func setFiltered(_ global: Global, handle: OpaquePointer, filtered: Bool) {
        filteredGlobals[handle] = filtered ? global : nil
    }

    /// Takes a free `wayland-N` socket (or `name`) in XDG_RUNTIME_DIR.
    public func addSocket(name: String? = nil) throws(ServerError) {
        assertOnLoop()
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else {
            throw .setup("XDG_RUNTIME_DIR is not set: it must name a private directory for the Wayland socket")
        }
        guard access(runtime, W_OK | X_OK) == 0 else {
            throw .setup("XDG_RUNTIME_DIR (\(runtime)) is not a writable directory")
        }
        if let name {
            guard !name.isEmpty, !name.contains("/") else { throw .setup("invalid socket name '\(name)'") }
            guard wl_display_add_socket(display, name) == 0 else {
                throw .setup(
                    "cannot use socket '\(name)' in \(runtime): \(String(cString: strerror(errno))) (is another compositor using it?)"
                )
            }
            socketName = name
        } else {
            guard let chosen = wl_display_add_socket_auto(display) else {
                throw .setup("no free wayland-N socket in \(runtime)")
            }
            socketName = String(cString: chosen)
        }
    }

    /// Listens on a socket the caller made, bound and listening (tests give real client
    /// processes a socket in a private directory this way). The display closes it at the end.
    public func addSocket(listeningFD fd: Int32) throws(ServerError) {
        assertOnLoop()
        guard wl_display_add_socket_fd(display, fd) == 0 else { throw .setup("wl_display_add_socket_fd failed") }
    }

    /// Accepts a client on an already connected socket (one end of a socketpair), as `origin`.
    /// The origin is recorded before any of the client's requests can be read, and forgotten in
    /// its destroy path (a later client at the same address starts as `.socket`).
    @discardableResult
    public func createClient(fd: Int32, origin: ClientOrigin = .socket) -> OpaquePointer? {
        assertOnLoop()
        guard origin != .socket else { return wl_client_create(display, fd) }
        // The listener first: a client that cannot be marked is not made at all (unmarked, a
        // sandboxed client would be an ordinary one).
        var made: OpaquePointer?
        guard
            let listener = Listener({ [weak self] _ in
                if let made {
                    self?.origins[made] = nil
                    StartedProcessIDs.remove(made)
                }
            }), let client = wl_client_create(display, fd)
        else { return nil }
        made = client
        listener.listen(toClientDestroy: client)
        origins[client] = (origin, listener)
        return client
    }

    /// Makes a socket pair, accepts its server end as a client of `origin`, and returns the
    /// other end (close-on-exec) for a process Strata starts (`WAYLAND_SOCKET`).
    public func createClientSocket(origin: ClientOrigin) throws(ServerError) -> (client: OpaquePointer, fd: Int32) {
        assertOnLoop()
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .setup("socketpair failed: \(String(cString: strerror(errno)))")
        }
        guard let client = createClient(fd: fds[0], origin: origin) else {
            close(fds[0])
            close(fds[1])
            throw .setup("wl_client_create failed")
        }
        return (client, fds[1])
    }

    /// The client connected last (tests find the server side of a connection that the loop
    /// accepted on a listening socket).
    public var newestClient: OpaquePointer? {
        guard let list = wl_display_get_client_list(display), let last = list.pointee.prev, last != list else {
            return nil
        }
        return wl_client_from_link(last)
    }

    /// Records the process Strata started for a connection it made (`createClientSocket`): the
    /// windows of that client report this pid, not Strata's (`StartedProcessIDs`).
    public func setProcessID(_ pid: pid_t, of client: OpaquePointer) {
        assertOnLoop()
        guard origins[client] != nil else { return }
        StartedProcessIDs.set(pid, for: client)
    }

    /// The process behind `client` (see `setProcessID`; else the socket's peer credentials).
    public func processID(of client: OpaquePointer) -> pid_t {
        StartedProcessIDs.processID(of: client)
    }

    /// How `client` connected (`.socket` unless it was made with another origin).
    public func origin(of client: OpaquePointer) -> ClientOrigin {
        origins[client]?.origin ?? .socket
    }

    /// The clients with an origin other than `.socket` (the leak check: back at the baseline
    /// once they are gone).
    public var clientsWithOrigin: Int { origins.count }

    /// Origins other than `.socket`, by wl_client, each with the listener that removes it.
    private var origins: [OpaquePointer: (origin: ClientOrigin, listener: Listener)] = [:]

    /// One step of the loop: waits at most `timeout` seconds (0: not at all, nil: until an
    /// event) for events, dispatches them, then flushes every client's queued events.
    @discardableResult
    public func dispatch(timeout: Double? = 0) -> Int32 {
        assertOnLoop()
        wl_display_flush_clients(display)
        let ms: Int32 = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max)))) } ?? -1
        let result = wl_event_loop_dispatch(eventLoop, ms)
        wl_event_loop_dispatch_idle(eventLoop)
        wl_display_flush_clients(display)
        return result
    }

    /// Runs the loop until `terminate()`.
    public func run() {
        running = true
        while running {
            dispatch(timeout: nil)
        }
    }

    public func terminate() { running = false }
    public var isRunning: Bool { running }

    public func nextSerial() -> UInt32 { wl_display_next_serial(display) }

    public func flushClients() { wl_display_flush_clients(display) }

    /// Destroys every client, then the display. Resources die in the clients' destroy paths.
    public func destroy() {
        assertOnLoop()
        wl_display_destroy_clients(display)
        wl_display_destroy(display)
    }

    public func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(
            pthread_equal(owningThread, pthread_self()) != 0, "libwayland called off the event-loop thread", file: file,
            line: line)
    }

    nonisolated(unsafe) public static var logHandler: ((String) -> Void)? = { line in
        let bytes = Array(("strata: libwayland: " + line).utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func installLogHandler() {
        strata_set_log_handler { line in
            guard let line else { return }
            Display.logHandler?(String(cString: line))
        }
    }
}

/// Errors of setting the server up (not client errors: those are `ProtocolError`).
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case setup(String)
    public var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}
