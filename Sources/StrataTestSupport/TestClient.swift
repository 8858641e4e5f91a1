import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
#if canImport(Testing) && !STRATA_NO_TESTING
    import Testing
#endif

/// A real libwayland client connected to a `TestServer` through a socket pair. Every wait
/// steps the server between the client's writes and reads, on this one thread.
public final class TestClient {
    public let display: OpaquePointer
    public private(set) var registry: OpaquePointer?
    public unowned let server: TestServer
    /// The server's side of this connection (the `wl_client`), for server-side test helpers.
    public let serverClient: OpaquePointer
    /// Globals announced by the registry: interface name → (name, version).
    public private(set) var globals: [String: (name: UInt32, version: UInt32)] = [:]
    public private(set) var removedGlobals: [UInt32] = []
    /// Every global announced and not removed, in announcement order (several wl_outputs).
    public private(set) var allGlobals: [(name: UInt32, interface: String, version: UInt32)] = []
    private var retained: Unmanaged<TestClient>?
    /// Set once the test looked at the connection's error (`protocolError`, `connectionError`)
    /// or said it expects the connection to fail (`expectsFailure`).
    private var failureObserved = false
    /// Where the client was made, for the report of an error nobody expected.
    private let madeAt: (fileID: String, filePath: String, line: Int, column: Int)
    /// Tells when the server has destroyed `serverClient` (released: wait for the hang-up).
    private let hangUp: ClientHangUpWatch

    public enum Failure: Error, CustomStringConvertible {
        case connect(String)
        case missingGlobal(String)
        public var description: String {
            switch self {
            case .connect(let why): return "cannot connect: \(why)"
            case .missingGlobal(let name): return "the server does not announce \(name)"
            }
        }
    }

    /// Connects through a socket pair whose server end is accepted as `origin` (how Strata
    /// would have made the connection: `.startedByStrata` for a process it started).
    ///
    /// A connection that dies of a protocol error (or any error) fails the test when the client
    /// is released, unless the test looked at `protocolError` or `connectionError`, or set
    /// `expectsFailure`: a negative assertion after a surprise disconnect cannot pass vacuously.
    public init(
        server: TestServer, origin: ClientOrigin = .socket, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) throws {
        self.server = server
        self.madeAt = (fileID, filePath, line, column)
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw Failure.connect(String(cString: strerror(errno)))
        }
        guard let serverClient = server.compositor.display.createClient(fd: fds[0], origin: origin) else {
            close(fds[0]); close(fds[1])
            throw Failure.connect("wl_client_create failed")
        }
        self.serverClient = serverClient
        hangUp = ClientHangUpWatch(serverClient)
        display = try Self.connect(fds[1])
        listenToRegistry()
    }

    /// Connects through `fd`, a socket already connected to one of the server's listening
    /// sockets (a security context's): one server step accepts it, and the client accepted last
    /// is this one's server side.
    public init(
        server: TestServer, connectedSocket fd: Int32, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) throws {
        self.server = server
        self.madeAt = (fileID, filePath, line, column)
        server.step()
        guard let serverClient = server.compositor.display.newestClient else {
            close(fd)
            throw Failure.connect("the server accepted no connection")
        }
        self.serverClient = serverClient
        hangUp = ClientHangUpWatch(serverClient)
        display = try Self.connect(fd)
        listenToRegistry()
    }

    /// The client side of the connection on `fd` (closed if that fails: by libwayland, which
    /// closes the fd when wl_display_connect_to_fd fails, so not a second time here).
    private static func connect(_ fd: Int32) throws -> OpaquePointer {
        guard let display = wl_display_connect_to_fd(fd) else {
            throw Failure.connect("wl_display_connect_to_fd failed")
        }
        return display
    }

    /// Asks for the registry and reads the globals it announces.
    private func listenToRegistry() {
        registry = wl_display_get_registry(display)
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_registry_add_listener(registry, &TestClient.registryListener, me)
        roundtrip()
    }

    deinit {
        let error = wl_display_get_error(display)
        if error != 0, !failureObserved {
            TestClient.reportUnexpected(
                "the connection failed (\(describeFailure(error))) and the test never checked it; "
                    + "assert on `protocolError`/`connectionError` or set `expectsFailure`", at: madeAt)
        }
        if let registry { wl_registry_destroy(registry) }
        wl_display_disconnect(display)
        server.step()
        // Until the server has seen the hang-up (late under load: `ClientHangUpWatch`), so what
        // the test checks next sees the client gone.
        hangUp.wait(stepping: server)
    }

    /// Says that this test expects the connection to fail, without asserting on how.
    public var expectsFailure: Bool {
        get { failureObserved }
        set { failureObserved = newValue }
    }

    private func describeFailure(_ error: Int32) -> String {
        guard error == EPROTO else { return String(cString: strerror(error)) }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        return "protocol error \(code) on \(interface.map { String(cString: $0.pointee.name) } ?? "?")@\(id)"
    }

    /// Records a test failure (or, outside a test run, prints it).
    static func reportUnexpected(
        _ message: String,
        at location: (fileID: String, filePath: String, line: Int, column: Int)
    ) {
        #if canImport(Testing) && !STRATA_NO_TESTING
            Issue.record(
                Comment(rawValue: "TestClient: " + message),
                sourceLocation: SourceLocation(
                    fileID: location.fileID, filePath: location.filePath,
                    line: location.line, column: location.column))
        #else
            FileHandle.standardError.write(Data("TestClient: \(message)\n".utf8))
        #endif
    }

    private static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            let client = Unmanaged<TestClient>.fromOpaque(data).takeUnretainedValue()
            client.globals[String(cString: interface)] = (name, version)
            client.allGlobals.append((name, String(cString: interface), version))
        },
        global_remove: { data, _, name in
            guard let data else { return }
            let client = Unmanaged<TestClient>.fromOpaque(data).takeUnretainedValue()
            client.removedGlobals.append(name)
            client.allGlobals.removeAll { $0.name == name }
            client.globals = client.globals.filter { $0.value.name != name }
        })

    /// Binds a global announced under `name` at `version` (or the announced one).
    public func bind(_ interface: UnsafePointer<wl_interface>, version: UInt32? = nil) throws -> OpaquePointer {
        let name = String(cString: interface.pointee.name)
        guard let global = globals[name] else { throw Failure.missingGlobal(name) }
        let v = min(version ?? global.version, global.version)
        guard let proxy = wl_registry_bind(registry, global.name, interface, v) else {
            throw Failure.missingGlobal(name)
        }
        return OpaquePointer(proxy)
    }

    /// Binds the global with registry name `name` (one of several of an interface).
    public func bind(name: UInt32, _ interface: UnsafePointer<wl_interface>, version: UInt32) -> OpaquePointer? {
        wl_registry_bind(registry, name, interface, version).map(OpaquePointer.init)
    }

    /// Sends everything queued, lets the server handle it, and reads and dispatches the replies,
    /// until the server has answered a wl_display.sync. Returns false if the connection failed
    /// (a protocol error), or nothing answered within `limit` loop steps.
    @discardableResult
    public func roundtrip(limit: Int = 200) -> Bool {
        var done = false
        guard let callback = wl_display_sync(display) else { return false }
        let box = Box { done = true }
        wl_callback_add_listener(callback, &TestClient.doneListener, Unmanaged.passUnretained(box).toOpaque())
        defer {
            wl_callback_destroy(callback)
            withExtendedLifetime(box) {}
        }
        for _ in 0..<limit {
            if !pump(timeout: 0) { return false }
            if done { return true }
        }
        return done
    }

    /// Waits, stepping the server with a timeout, until `condition` holds (frame callbacks need
    /// the frame clock to fire). Returns false on a connection error or after `seconds` (10 by
    /// default: a loaded machine can hold the frame timer back for a while; a wait whose
    /// condition holds costs nothing more, and a test that expects nothing gives its own).
    @discardableResult
    public func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            if !pump(timeout: 0.005) { return condition() }
        }
        return true
    }

    /// One exchange without waiting (several clients and servers stepped in turn); false on a
    /// connection error.
    @discardableResult
    public func step() -> Bool { pump(timeout: 0) }

    /// One exchange: client flush, server step, client read and dispatch.
    private func pump(timeout: Double) -> Bool {
        if wl_display_flush(display) < 0, errno != EAGAIN { return false }
        server.step(timeout: timeout)
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return false }
        }
        var pfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_pending(display) >= 0
    }

    private final class Box {
        let action: () -> Void
        init(_ action: @escaping () -> Void) { self.action = action }
    }

    private static var doneListener = wl_callback_listener(done: { data, _, _ in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().action()
    })

    /// The protocol error the server sent, if the connection died of one.
    public var protocolError: (code: UInt32, interface: String, id: UInt32)? {
        failureObserved = true
        guard wl_display_get_error(display) == EPROTO else { return nil }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let code = wl_display_get_protocol_error(display, &interface, &id)
        return (code, interface.map { String(cString: $0.pointee.name) } ?? "?", id)
    }

    /// Non-zero once the connection failed (EPROTO for a protocol error).
    public var connectionError: Int32 {
        failureObserved = true
        return wl_display_get_error(display)
    }
}
