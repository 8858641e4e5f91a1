import CStrataClientGlue
import CWaylandClient
import Foundation
@testable import StrataServer
import StrataTestSupport
import Testing

/// Who closes a descriptor: each one a client hands Strata, and each one Strata makes, has one
/// owner that closes it exactly once, on success and on every refusal (docs/reliability.md,
/// "Descriptor ownership"). A second close is not harmless: under the parallel suite (and in a
/// real Strata) the number has often been given to something else in between, another test's
/// client socket. The closes are counted with `Descriptors.recordingCloses`, on the test's own
/// task, so other tests' descriptors never count.
@Suite struct DescriptorOwnershipTests {
    /// What a descriptor refers to: a number closed and reused by another test refers to
    /// something else.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        init?(_ fd: Int32) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// A regular file: epoll refuses to watch it.
    static func regularFile() throws -> Int32 {
        let fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        return fd
    }

    // MARK: Security contexts

    /// A listener whose close_fd cannot be watched fails its init; the deinit that runs for a
    /// failed class initializer must not close the two descriptors, which its caller (the
    /// manager's refusal) closes.
    @Test func aSecurityListenerThatCannotWatchItsCloseFdLeavesBothDescriptorsToItsCaller() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let sandbox = try SandboxSocket()
        let listenFD = fcntl(sandbox.listenFD, F_DUPFD_CLOEXEC, 0)
        let closeFD = try Self.regularFile()
        try #require(listenFD >= 0)
        let before = (Identity(listenFD), Identity(closeFD))
        var made = true
        let closes = Descriptors.recordingCloses {
            made =
                SecurityContextListener(
                    manager: server.compositor.securityContexts, creator: client.serverClient,
                    listenFD: listenFD, closeFD: closeFD) != nil
        }
        #expect(!made)
        #expect(closes.closed.isEmpty)
        #expect(
            Identity(listenFD) == before.0 && Identity(listenFD) != nil, "the listener closed the caller's listen_fd")
        #expect(Identity(closeFD) == before.1 && Identity(closeFD) != nil, "the listener closed the caller's close_fd")
        close(listenFD)
        close(closeFD)
        #expect(client.roundtrip())
    }

    enum Refusal: String, CaseIterable, CustomTestStringConvertible {
        case listenFDIsAPipe, listenFDDoesNotListen, closeFDCannotBeWatched
        var testDescription: String { rawValue }
    }

    /// create_listener refused (each way it can be): the server closes the two descriptors it
    /// received, each once, and the client gets invalid_listen_fd.
    @Test(arguments: Refusal.allCases)
    func aRefusedCreateListenerClosesTheTwoDescriptorsItReceivedOnceEach(_ refusal: Refusal) throws {
        let server = try TestServer()
        let engine = try TestClient(server: server)
        let manager = try engine.bind(wp_security_context_manager_v1_interface_ptr())
        let sandbox = try SandboxSocket()
        var kept: [Int32] = []
        defer { for fd in kept { close(fd) } }
        switch refusal {
        case .listenFDIsAPipe:
            var ends: [Int32] = [-1, -1]
            try #require(strata_client_pipe(&ends) == 0)
            kept = ends
            _ = wp_security_context_manager_v1_create_listener(manager, ends[0], sandbox.closeFD)
        case .listenFDDoesNotListen:
            var pair: [Int32] = [-1, -1]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
            kept = pair
            _ = wp_security_context_manager_v1_create_listener(manager, pair[0], sandbox.closeFD)
        case .closeFDCannotBeWatched:
            let file = try Self.regularFile()
            kept = [file]
            _ = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, file)
        }
        var connected = true
        let closes = Descriptors.recordingCloses { connected = engine.roundtrip() }
        #expect(!connected)
        let error = try #require(engine.protocolError)
        #expect(
            error.interface == "wp_security_context_manager_v1"
                && error.code == WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD.rawValue)
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
        #expect(server.compositor.securityContexts.listeners.isEmpty)
        #expect(try TestClient(server: server).roundtrip())
    }

    /// A committed listener owns both descriptors: closed once each when close_fd hangs up.
    @Test func aListenerClosesItsTwoDescriptorsOnceWhenCloseFdHangsUp() throws {
        let server = try TestServer()
        let engine = try TestClient(server: server)
        let manager = try engine.bind(wp_security_context_manager_v1_interface_ptr())
        let sandbox = try SandboxSocket()
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        wp_security_context_v1_commit(context)
        #expect(engine.roundtrip())
        try #require(server.compositor.securityContexts.listeners.count == 1)
        let closes = Descriptors.recordingCloses {
            sandbox.hangUp()
            // Until the hang-up is seen: another test's posix_spawn child can hold a copy of the
            // write end until its exec (late under load).
            _ = server.run(seconds: 10) { server.compositor.securityContexts.listeners.isEmpty }
        }
        #expect(server.compositor.securityContexts.listeners.isEmpty)
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
        wp_security_context_v1_destroy(context)
        #expect(engine.roundtrip())
    }

    /// A close_fd that never hangs up (a listening socket: the fuzzer found it): the committed
    /// listener outlives its engine, as the spec says, with both descriptors. Ending the sandboxes
    /// of engines that are gone (what the fuzzer does after each input) closes each once, and
    /// leaves a listener whose engine is still connected alone.
    @Test func aListenerWhoseCloseFdNeverHangsUpIsEndedWithItsEngineGoneAndClosesItsDescriptorsOnce() throws {
        let server = try TestServer()
        let sandbox = try SandboxSocket(), never = try SandboxSocket()
        var engine: TestClient? = try TestClient(server: server)
        let manager = try #require(try engine?.bind(wp_security_context_manager_v1_interface_ptr()))
        wp_security_context_v1_commit(
            wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, never.listenFD))
        #expect(engine?.roundtrip() == true)
        let stays = try TestClient(server: server)
        let staysManager = try stays.bind(wp_security_context_manager_v1_interface_ptr())
        let other = try SandboxSocket()
        wp_security_context_v1_commit(
            wp_security_context_manager_v1_create_listener(staysManager, other.listenFD, other.closeFD))
        #expect(stays.roundtrip())
        #expect(server.compositor.securityContexts.listeners.count == 2)
        engine = nil
        #expect(server.run(seconds: 10) { server.compositor.securityContexts.listeners.contains { $0.creator == nil } })
        #expect(server.compositor.securityContexts.listeners.count == 2, "a committed listener outlives its engine")
        var stopped = 0
        let closes = Descriptors.recordingCloses {
            stopped = server.compositor.securityContexts.stopListenersWithoutCreator()
        }
        #expect(stopped == 1)
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
        #expect(server.compositor.securityContexts.listeners.count == 1)
        #expect(server.compositor.securityContexts.listeners.first?.creator == stays.serverClient)
        sandbox.closeListening()
        #expect(sandbox.connect() == nil, "Strata kept the ended sandbox's listening socket")
    }

    /// Destroyed before commit: the context's listener stops, its descriptors closed once each.
    @Test func aContextDestroyedBeforeCommitClosesItsTwoDescriptorsOnce() throws {
        let server = try TestServer()
        let engine = try TestClient(server: server)
        let manager = try engine.bind(wp_security_context_manager_v1_interface_ptr())
        let sandbox = try SandboxSocket()
        let context = wp_security_context_manager_v1_create_listener(manager, sandbox.listenFD, sandbox.closeFD)
        #expect(engine.roundtrip())
        wp_security_context_v1_destroy(context)
        var connected = false
        let closes = Descriptors.recordingCloses { connected = engine.roundtrip() }
        #expect(connected)
        #expect(server.compositor.securityContexts.listeners.isEmpty)
        #expect(closes.closed.count == 2 && closes.closedEachOnce, "closed: \(closes.closed)")
    }

    // MARK: Frame clocks

    /// A frame clock whose timer the loop cannot watch: its failed init closes the timer, and
    /// its deinit must not close it again (it ran, when the init failed after full
    /// initialization).
    @Test func aFrameClockWhoseTimerCannotBeWatchedClosesItOnce() throws {
        let server = try TestServer()
        let timer = try Self.regularFile()
        var made = true
        let closes = Descriptors.recordingCloses {
            made = FrameClock(display: server.compositor.display, clock: Clock(), timerFD: timer, onTick: {}) != nil
        }
        #expect(!made)
        #expect(closes.closed == [timer])
    }

    /// A frame clock owns its timer: closed once, when it goes.
    @Test func aFrameClockClosesItsTimerOnceWhenItGoes() throws {
        let server = try TestServer()
        // Any descriptor the loop can watch will do (the clock is never started here).
        var ends: [Int32] = [-1, -1]
        try #require(strata_client_pipe(&ends) == 0)
        defer { close(ends[1]) }
        let timer = ends[0]
        let closes = Descriptors.recordingCloses {
            var clock = FrameClock(display: server.compositor.display, clock: Clock(), timerFD: timer, onTick: {})
            #expect(clock != nil)
            clock = nil
        }
        #expect(closes.closed == [timer])
    }

    // MARK: Timers made on demand

    /// Hands out regular files as timers (the loop cannot watch them), and remembers them.
    final class UnwatchableTimers {
        private(set) var made: [Int32] = []
        func make() -> Int32 {
            let fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
            if fd >= 0 { made.append(fd) }
            return fd
        }
    }

    /// The idle tracker makes its timer at the first notification: one the loop cannot watch is
    /// closed at once (it was kept and a new one made over it at the next notification, so all
    /// but the last leaked).
    @Test func anIdleTrackerWhoseTimerCannotBeWatchedClosesEachTimerItMadeOnce() throws {
        let server = try TestServer()
        let idle = try IdleClient(server)
        let timers = UnwatchableTimers()
        server.compositor.seat.idle.makeTimerFD = timers.make
        var notes: [TestIdleNotification] = []
        let closes = try Descriptors.recordingCloses {
            // Each earlier than the one before: each arms the timer.
            for timeout: UInt32 in [3000, 2000, 1000] { notes.append(try idle.notification(timeout)) }
            server.compositor.seat.idle.stop()
        }
        #expect(timers.made.count == 3)
        #expect(closes.closed.sorted() == timers.made.sorted(), "made \(timers.made), closed \(closes.closed)")
        #expect(idle.client.roundtrip())
    }

    /// A room waiter makes its timer when a burst must wait for a client's socket to drain: one
    /// the loop cannot watch is closed at once (it was kept, and the next burst made another over
    /// it).
    @Test func aBackpressureSenderWhoseTimerCannotBeWatchedClosesEachTimerItMadeOnce() throws {
        let server = try TestServer()
        // A client that does not read, with a small buffer on Strata's side of its socket.
        let client = try RawClient(server: server, receiveBuffer: 4096)
        client.keepsEvents = false
        client.readsWhenBlocked = false
        for _ in 0..<64 where BackpressureSender.hasRoom(client.serverClient) {
            for _ in 0..<8 { _ = client.send(WireMessage(object: 1, opcode: 0, [.newID(client.newID())])) }
            server.step()
        }
        try #require(!BackpressureSender.hasRoom(client.serverClient))
        let waiter = BackpressureSender(display: server.compositor.display)
        let timers = UnwatchableTimers()
        waiter.makeTimerFD = timers.make
        var sent = 0
        let serverClient = client.serverClient
        let closes = Descriptors.recordingCloses {
            for _ in 0..<3 { waiter.send(to: { serverClient }) { _ in sent += 1 } }
            waiter.stop()
        }
        #expect(sent == 0)
        #expect(timers.made.count == 3)
        #expect(closes.closed.sorted() == timers.made.sorted(), "made \(timers.made), closed \(closes.closed)")
        #expect(!client.isDisconnected)
    }

    /// A room waiter holds its timer only while a burst waits: once the burst is sent (the
    /// client read) the timer is closed, once, and the next wait makes a new one. (Kept after the
    /// first wait, the seat's selections each held a timer for good, which the fuzzer's
    /// descriptor check cannot tell from a leak.)
    @Test func aBackpressureSenderClosesItsTimerOnceTheBurstIsSent() throws {
        let server = try TestServer()
        let client = try RawClient(server: server, receiveBuffer: 4096)
        client.keepsEvents = false
        client.readsWhenBlocked = false
        let waiter = BackpressureSender(display: server.compositor.display)
        var made: [Int32] = []
        let makeTimer = waiter.makeTimerFD
        waiter.makeTimerFD = {
            let fd = makeTimer()
            made.append(fd)
            return fd
        }
        let serverClient = client.serverClient
        var sent = 0
        for round in 1...2 {
            for _ in 0..<64 where BackpressureSender.hasRoom(serverClient) {
                for _ in 0..<8 { _ = client.send(WireMessage(object: 1, opcode: 0, [.newID(client.newID())])) }
                server.step()
            }
            try #require(!BackpressureSender.hasRoom(serverClient))
            let closes = Descriptors.recordingCloses {
                waiter.send(to: { serverClient }) { _ in sent += 1 }
                #expect(waiter.isWaiting)
                client.read()
                _ = server.run(seconds: 2) { sent == round }
            }
            #expect(sent == round)
            #expect(!waiter.isWaiting)
            #expect(made.count == round)
            #expect(closes.closed == [made[round - 1]], "made \(made), closed \(closes.closed)")
        }
        #expect(!client.isDisconnected)
    }

    // MARK: Request handlers

    /// zwp_virtual_keyboard_v1.keymap: the handler owns the fd, closed once whether the keymap
    /// is taken or refused with a protocol error.
    @Test(arguments: [true, false])
    func aVirtualKeyboardKeymapFdIsClosedOnceWhetherTakenOrRefused(_ valid: Bool) throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let manager = try client.bind(zwp_virtual_keyboard_manager_v1_interface_ptr())
        let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat.seat)
        #expect(client.roundtrip())
        let bytes = Array(VirtualInputTests.keymap.utf8) + [0]
        let fd = strata_client_memfd("test-keymap")
        try #require(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // Refused: a format other than xkb_v1.
        let format = valid ? WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue : WL_KEYBOARD_KEYMAP_FORMAT_NO_KEYMAP.rawValue
        zwp_virtual_keyboard_v1_keymap(keyboard, format, fd, UInt32(bytes.count))
        close(fd)
        var connected = false
        let closes = Descriptors.recordingCloses { connected = client.roundtrip() }
        #expect(closes.closed.count == 1, "closed: \(closes.closed)")
        if valid {
            #expect(connected)
        } else {
            #expect(!connected)
            #expect(client.protocolError?.interface == "zwp_virtual_keyboard_v1")
        }
    }

    /// wl_data_offer.receive: the handler closes its fd once, whether it asked the live source
    /// to write (libwayland sends the source a duplicate) or the offer was inert.
    @Test(arguments: [true, false])
    func aSelectionReceiveClosesItsFdOnceWhetherTheSourceIsLiveOrGone(_ live: Bool) throws {
        let server = try TestServer()
        let a = try ClipboardClient(server, x: 0)
        let b = try ClipboardClient(server, x: 100)
        a.window.makeKey()
        let source = try a.offer("data")
        b.window.makeKey()
        b.client.roundtrip()
        try #require(b.device.selection != nil)
        if !live {
            wl_data_source_destroy(source.source)
            a.client.roundtrip()
        }
        let fd = try #require(b.device.receiveSelection("text/plain"))
        defer { close(fd) }
        var connected = false
        let closes = Descriptors.recordingCloses { connected = b.client.roundtrip() }
        #expect(connected)
        #expect(closes.closed.count == 1, "closed: \(closes.closed)")
        #expect(a.client.roundtrip())
        #expect(source.sendRequests == (live ? ["text/plain"] : []))
    }
}
