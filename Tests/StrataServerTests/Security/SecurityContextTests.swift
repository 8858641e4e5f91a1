import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// wp_security_context_v1: a sandbox engine registers a listening socket; what connects through
/// it is sandboxed (never privileged, never offered the manager), and the listener stops when
/// close_fd hangs up. Every refusal is the spec's error, and the bystander goes on.
@Suite final class SecurityContextTests {
    let server: TestServer
    /// The sandbox engine's connection (it goes before the server: a client steps its server
    /// when it disconnects).
    private var engineConnection: TestClient?
    var engine: TestClient { engineConnection! }
    let manager: OpaquePointer

    init() throws {
        server = try TestServer()
        let engine = try TestClient(server: server)
        engineConnection = engine
        manager = try engine.bind(wp_security_context_manager_v1_interface_ptr())
    }

    deinit { engineConnection = nil }

    /// create_listener with `sandbox`'s descriptors, the metadata given, committed.
    @discardableResult
    func commitContext(
        _ sandbox: SandboxSocket, engineName: String? = "flatpak", appID: String? = "org.example.App",
        instanceID: String? = "7"
    ) -> OpaquePointer? {
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        if let engineName { wp_security_context_v1_set_sandbox_engine(context, engineName) }
        if let appID { wp_security_context_v1_set_app_id(context, appID) }
        if let instanceID { wp_security_context_v1_set_instance_id(context, instanceID) }
        wp_security_context_v1_commit(context)
        engine.roundtrip()
        return context
    }

    func sandboxedClient(_ sandbox: SandboxSocket) throws -> TestClient {
        try TestClient(server: server, connectedSocket: try #require(sandbox.connect()))
    }

    @Test func aSandboxedClientSeesNeitherPrivilegedGlobalsNorTheManagerEvenWhenEveryoneIsPrivileged() throws {
        server.compositor.clientPrivilege = .everyone
        let sandbox = try SandboxSocket()
        commitContext(sandbox)
        let app = try sandboxedClient(sandbox)
        #expect(
            server.compositor.display.origin(of: app.serverClient)
                == .sandboxed(
                    SecurityContextMetadata(sandboxEngine: "flatpak", appID: "org.example.App", instanceID: "7")))
        #expect(app.globals["wl_compositor"] != nil && app.globals["xdg_wm_base"] != nil)
        for name in ClientPrivilegeTests.privilegedGlobals + [
            "wp_security_context_manager_v1", "ext_session_lock_manager_v1",
        ] {
            #expect(app.globals[name] == nil, "\(name) shown to a sandboxed client")
        }
        #expect(try TestClient(server: server).globals["zwlr_screencopy_manager_v1"] != nil)
        #expect(engine.roundtrip())
    }

    /// Nesting: the sandboxed client names the manager by the engine's number; libwayland refuses
    /// the bind to a global hidden from it ("invalid global", code 0 on wl_registry).
    @Test func aSandboxedClientCannotBindTheManagerToNest() throws {
        let sandbox = try SandboxSocket()
        commitContext(sandbox)
        let app = try sandboxedClient(sandbox)
        let name = try #require(engine.globals["wp_security_context_manager_v1"]).name
        _ = app.bind(name: name, wp_security_context_manager_v1_interface_ptr(), version: 1)
        #expect(!app.roundtrip())
        let error = try #require(app.protocolError)
        #expect(error.interface == "wl_registry" && error.code == WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue)
        #expect(engine.roundtrip())
        #expect(server.compositor.securityContexts.listeners.count == 1)
    }

    @Test func aListenFdThatIsNotASocketIsInvalid() throws {
        let sandbox = try SandboxSocket()
        var pipeFDs: [Int32] = [-1, -1]
        try #require(strata_client_pipe(&pipeFDs) == 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        _ = wp_security_context_manager_v1_create_listener(manager, pipeFDs[0], sandbox.closeFD)
        try expectManagerError(WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue)
    }

    @Test func aSocketThatIsNotListeningIsInvalid() throws {
        let sandbox = try SandboxSocket()
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        _ = wp_security_context_manager_v1_create_listener(manager, pair[0], sandbox.closeFD)
        try expectManagerError(WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue)
    }

    /// A listening TCP socket would let connections from the network in.
    @Test func aListeningSocketThatIsNotAUnixSocketIsInvalid() throws {
        let sandbox = try SandboxSocket()
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(tcp >= 0)
        defer { close(tcp) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian  // 127.0.0.1, port 0: any free one
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(tcp, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0 && listen(tcp, 1) == 0)
        _ = wp_security_context_manager_v1_create_listener(manager, tcp, sandbox.closeFD)
        try expectManagerError(WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue)
    }

    @Test func aCloseFdThatCannotBeWatchedIsRefused() throws {
        let sandbox = try SandboxSocket()
        let file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)  // a regular file: epoll refuses it
        try #require(file >= 0)
        defer { close(file) }
        _ = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, file)
        try expectManagerError(WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue)
    }

    @Test func committingTwiceIsAlreadyUsed() throws {
        let sandbox = try SandboxSocket()
        let context = commitContext(sandbox)
        wp_security_context_v1_commit(context)
        try expectContextError(WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED.rawValue)
    }

    @Test func metadataAfterCommitIsAlreadyUsed() throws {
        let sandbox = try SandboxSocket()
        let context = commitContext(sandbox, appID: nil)
        wp_security_context_v1_set_app_id(context, "org.example.Late")
        try expectContextError(WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED.rawValue)
    }

    @Test func metadataSetTwiceIsAlreadySet() throws {
        let sandbox = try SandboxSocket()
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        wp_security_context_v1_set_sandbox_engine(context, "flatpak")
        wp_security_context_v1_set_sandbox_engine(context, "flatpak")
        try expectContextError(WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET.rawValue)
    }

    @Test(arguments: ["", String(repeating: "a", count: SecurityContextManager.maxMetadataLength + 1)])
    func emptyOrOverlongMetadataIsInvalid(_ value: String) throws {
        let sandbox = try SandboxSocket()
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        wp_security_context_v1_set_instance_id(context, value)
        try expectContextError(WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA.rawValue)
    }

    @Test func metadataOfTheLongestLengthIsAccepted() throws {
        let sandbox = try SandboxSocket()
        let longest = String(repeating: "a", count: SecurityContextManager.maxMetadataLength)
        commitContext(sandbox, engineName: longest, appID: longest, instanceID: longest)
        let app = try sandboxedClient(sandbox)
        #expect(
            server.compositor.display.origin(of: app.serverClient)
                == .sandboxed(SecurityContextMetadata(sandboxEngine: longest, appID: longest, instanceID: longest)))
    }

    /// Until close_fd hangs up every connection is accepted and sandboxed; then Strata closes its
    /// copy of the socket, and a connection is refused once the sandbox closed its own.
    @Test func aHangupOnCloseFdStopsTheListener() throws {
        let sandbox = try SandboxSocket()
        commitContext(sandbox)
        sandbox.closeListening()
        let first = try sandboxedClient(sandbox)
        #expect(first.globals["wl_compositor"] != nil)
        #expect(server.compositor.securityContexts.listeners.first?.accepted == 1)
        sandbox.hangUp()
        // Until the hang-up is seen: another test's posix_spawn child can hold a copy of the
        // write end until its exec (late under load).
        #expect(server.run(seconds: 10) { server.compositor.securityContexts.listeners.isEmpty })
        #expect(sandbox.connect() == nil, "the socket still listens after close_fd hung up")
        #expect(first.roundtrip(), "a client accepted before the hangup stays connected")
        #expect(engine.roundtrip())
    }

    /// 20 connections waiting at once: one wake-up of the loop takes 16, the next the rest; every
    /// one is sandboxed, and all are forgotten when they close.
    @Test func oneWakeUpAcceptsAtMostSixteenConnections() throws {
        let sandbox = try SandboxSocket()
        commitContext(sandbox)
        let display = server.compositor.display
        let waiting = (0..<20).compactMap { _ in sandbox.connect() }
        try #require(waiting.count == 20)
        let listener = try #require(server.compositor.securityContexts.listeners.first)
        server.step()
        #expect(listener.accepted == SecurityContextManager.maxAcceptsPerWakeup)
        server.step()
        #expect(listener.accepted == 20)
        #expect(display.clientsWithOrigin == 20)
        for fd in waiting { close(fd) }
        #expect(server.run(seconds: 10) { display.clientsWithOrigin == 0 })
        #expect(engine.roundtrip())
    }

    /// The spec: accepting goes on after the client that made the context disconnects.
    @Test func theListenerOutlivesTheClientThatMadeIt() throws {
        let sandbox = try SandboxSocket()
        let creator = try TestClient(server: server)
        let creatorsManager = try creator.bind(wp_security_context_manager_v1_interface_ptr())
        let context = wp_security_context_manager_v1_create_listener(creatorsManager, sandbox.listenFD, sandbox.closeFD)
        wp_security_context_v1_commit(context)
        #expect(creator.roundtrip())
        #expect(server.compositor.securityContexts.listenerCount(of: creator.serverClient) == 1)
        withExtendedLifetime(creator) {}
        _ = consume creator
        server.step()
        #expect(server.compositor.securityContexts.listeners.count == 1)
        #expect(server.compositor.securityContexts.listeners.first?.creator == nil)
        let app = try sandboxedClient(sandbox)
        #expect(server.compositor.display.origin(of: app.serverClient).isSandboxed)
    }

    /// Uncommitted contexts die with their client or their destroy request, descriptors and all.
    @Test func aContextDestroyedBeforeCommitClosesItsDescriptors() throws {
        let sandbox = try SandboxSocket()
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        #expect(engine.roundtrip())
        #expect(server.compositor.securityContexts.listeners.count == 1)
        wp_security_context_v1_destroy(context)
        #expect(engine.roundtrip())
        #expect(server.compositor.securityContexts.listeners.isEmpty)
        sandbox.closeListening()
        #expect(sandbox.connect() == nil, "Strata kept the listening socket of a destroyed context")
    }

    /// One connection holds at most `maxListenersPerClient` contexts; the next is no_memory for
    /// it alone, and its contexts go with it.
    @Test func oneClientsListenersAreCapped() throws {
        let baseline = server.liveCounts
        let sandbox = try SandboxSocket()
        let hoarder = try TestClient(server: server)
        let hoardersManager = try hoarder.bind(wp_security_context_manager_v1_interface_ptr())
        for _ in 0..<SecurityContextManager.maxListenersPerClient {
            _ = wp_security_context_manager_v1_create_listener(hoardersManager, sandbox.listenFD, sandbox.closeFD)
        }
        #expect(hoarder.roundtrip())
        #expect(
            server.compositor.securityContexts.listenerCount(of: hoarder.serverClient)
                == SecurityContextManager.maxListenersPerClient)
        _ = wp_security_context_manager_v1_create_listener(hoardersManager, sandbox.listenFD, sandbox.closeFD)
        #expect(!hoarder.roundtrip())
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM, not a protocol error.
        #expect(hoarder.connectionError == ENOMEM && hoarder.protocolError == nil)
        _ = consume hoarder
        server.step()
        #expect(server.compositor.securityContexts.listeners.isEmpty)
        #expect(server.liveCounts == baseline, "\(server.liveCounts)")
        #expect(engine.roundtrip())
        commitContext(sandbox)
        #expect(try sandboxedClient(sandbox).globals["wl_compositor"] != nil)
    }

    /// Connections that leave contexts behind (close_fds that never hang up) keep at most
    /// `maxLeftoverListeners` of them, the oldest ended first; another engine always gets its
    /// context afterwards.
    @Test func leftoversAreCappedAndNeverRefuseAnotherEngine() throws {
        let sandbox = try SandboxSocket()
        let perClient = SecurityContextManager.maxListenersPerClient
        let contexts = server.compositor.securityContexts!
        var first: SecurityContextListener?
        for _ in 0..<(SecurityContextManager.maxListeners / perClient) {
            let creator = try TestClient(server: server)
            let creatorsManager = try creator.bind(wp_security_context_manager_v1_interface_ptr())
            for _ in 0..<perClient {
                let context = wp_security_context_manager_v1_create_listener(
                    creatorsManager, sandbox.listenFD, sandbox.closeFD)
                wp_security_context_v1_commit(context)
            }
            #expect(creator.roundtrip())
            if first == nil { first = contexts.listeners.first }
            _ = consume creator
            server.step()
            #expect(contexts.leftoverCount <= SecurityContextManager.maxLeftoverListeners)
        }
        #expect(contexts.listeners.count == SecurityContextManager.maxLeftoverListeners)
        #expect(first?.isStopped == true, "the oldest leftover ended first")
        // The newest leftovers are kept, and still accept (the spec).
        let socket = try #require(sandbox.connect())
        #expect(server.run(seconds: 10) { contexts.listeners.contains { $0.accepted > 0 } })
        let app = try TestClient(server: server, connectedSocket: socket)
        #expect(server.compositor.display.origin(of: app.serverClient).isSandboxed)
        commitContext(sandbox)
        #expect(engine.roundtrip() && engine.connectionError == 0)
        #expect(contexts.listenerCount(of: engine.serverClient) == 1)
        sandbox.hangUp()
        #expect(server.run(seconds: 10) { contexts.listeners.isEmpty })
    }

    /// When connected clients' contexts and leftovers fill `maxListeners`, a new context ends
    /// the oldest leftover instead of being refused; only connected clients' own contexts past
    /// the cap refuse one, with a message naming it.
    @Test func aNewContextEndsTheOldestLeftoverToMakeRoom() throws {
        let sandbox = try SandboxSocket()
        let perClient = SecurityContextManager.maxListenersPerClient
        let contexts = server.compositor.securityContexts!
        // Leftovers first, then connected clients up to the cap.
        let leaver = try TestClient(server: server)
        let leaversManager = try leaver.bind(wp_security_context_manager_v1_interface_ptr())
        for _ in 0..<SecurityContextManager.maxLeftoverListeners {
            wp_security_context_v1_commit(
                wp_security_context_manager_v1_create_listener(leaversManager, sandbox.listenFD, sandbox.closeFD))
        }
        #expect(leaver.roundtrip())
        _ = consume leaver
        server.step()
        #expect(contexts.leftoverCount == SecurityContextManager.maxLeftoverListeners)
        var holders: [TestClient] = []
        while contexts.listeners.count < SecurityContextManager.maxListeners {
            let holder = try TestClient(server: server)
            let holdersManager = try holder.bind(wp_security_context_manager_v1_interface_ptr())
            let room = min(perClient, SecurityContextManager.maxListeners - contexts.listeners.count)
            for _ in 0..<room {
                _ = wp_security_context_manager_v1_create_listener(holdersManager, sandbox.listenFD, sandbox.closeFD)
            }
            #expect(holder.roundtrip())
            holders.append(holder)
        }
        let oldest = contexts.listeners.first
        commitContext(sandbox)
        #expect(engine.connectionError == 0, "a leftover made room")
        #expect(oldest?.isStopped == true && contexts.listeners.count == SecurityContextManager.maxListeners)
        #expect(contexts.leftoverCount == SecurityContextManager.maxLeftoverListeners - 1)
        withExtendedLifetime(holders) {}
    }

    /// Past `maxListeners` of connected clients, the next create_listener is no_memory naming
    /// the cap; so is a connection's own cap.
    @Test func theCapsAreNamedInTheirErrors() throws {
        let sandbox = try SandboxSocket()
        let perClient = SecurityContextManager.maxListenersPerClient
        var holders: [RawClient] = []
        func fill(_ client: RawClient, _ count: Int) throws -> UInt32 {
            let manager = try #require(client.bind("wp_security_context_manager_v1"))
            for _ in 0..<count {
                #expect(
                    client.send(
                        WireMessage(
                            object: manager, opcode: 1,
                            [.newID(client.newID()), .fd(sandbox.listenFD), .fd(sandbox.closeFD)])))
            }
            return manager
        }
        let greedy = try RawClient(server: server)
        #expect(greedy.getRegistry())
        let greedyManager = try fill(greedy, perClient)
        #expect(greedy.roundtrip())
        #expect(
            greedy.send(
                WireMessage(
                    object: greedyManager, opcode: 1,
                    [.newID(greedy.newID()), .fd(sandbox.listenFD), .fd(sandbox.closeFD)])))
        greedy.expectOverBudget(naming: "per-client limit: more than \(perClient) security contexts")
        _ = consume greedy
        server.step()
        for _ in 0..<(SecurityContextManager.maxListeners / perClient) {
            let holder = try RawClient(server: server)
            #expect(holder.getRegistry())
            _ = try fill(holder, perClient)
            #expect(holder.roundtrip())
            holders.append(holder)
        }
        #expect(server.compositor.securityContexts.listeners.count == SecurityContextManager.maxListeners)
        let late = try RawClient(server: server)
        #expect(late.getRegistry())
        _ = try fill(late, 1)
        late.expectOverBudget(naming: "more than \(SecurityContextManager.maxListeners) security contexts")
        withExtendedLifetime(holders) {}
    }

    private func expectManagerError(_ code: UInt32) throws {
        #expect(!engine.roundtrip())
        let error = try #require(engine.protocolError)
        #expect(error.interface == "wp_security_context_manager_v1" && error.code == code)
        try expectNothingLeft()
    }

    private func expectContextError(_ code: UInt32) throws {
        #expect(!engine.roundtrip())
        let error = try #require(engine.protocolError)
        #expect(error.interface == "wp_security_context_v1" && error.code == code)
        try expectNothingLeft()
    }

    /// The engine's connection is gone: its uncommitted contexts with it; a bystander is served.
    private func expectNothingLeft() throws {
        server.step()
        #expect(server.compositor.securityContexts.listeners.allSatisfy { $0.metadata != nil })
        let bystander = try TestClient(server: server)
        #expect(bystander.globals["wp_security_context_manager_v1"] != nil && bystander.roundtrip())
    }
}
