import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A clock the test moves by hand: the idle tracker reads it instead of CLOCK_MONOTONIC, and the
/// test calls `deadlineDidPass()` where the timer would have expired. No sleeping.
final class ManualClock {
    var now: UInt64 = 1_000_000_000_000
    func advance(milliseconds: UInt64) { now += milliseconds * 1_000_000 }
}

/// A client with a seat and the idle notifier (swayidle's part).
final class IdleClient {
    let notifier: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer) throws {
        let client = try TestClient(server: server)
        seat = try TestSeat(client: client)
        notifier = try client.bind(ext_idle_notifier_v1_interface_ptr(), version: 2)
        self.client = client
    }

    func notification(_ milliseconds: UInt32, inputOnly: Bool = false) throws -> TestIdleNotification {
        let made = try TestIdleNotification(
            notifier: notifier, seat: seat.seat, timeoutMilliseconds: milliseconds, inputOnly: inputOnly)
        client.roundtrip()
        return made
    }
}

/// ext_idle_notifier_v1 and zwp_idle_inhibit_manager_v1 (`IdleTracker`).
@Suite struct IdleTests {
    /// A server whose idle tracker runs on `clock`.
    static func makeServer() throws -> (TestServer, ManualClock) {
        let server = try TestServer()
        let clock = ManualClock()
        server.compositor.seat.idle.clock = { clock.now }
        return (server, clock)
    }

    /// Moves the clock on and lets the timer's expiry run.
    static func pass(_ milliseconds: UInt64, _ clock: ManualClock, _ server: TestServer, _ client: TestClient) {
        clock.advance(milliseconds: milliseconds)
        server.compositor.seat.idle.deadlineDidPass()
        client.roundtrip()
    }

    @Test func aNotificationIdlesAfterItsTimeoutAndResumesAtTheNextInput() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        let note = try idle.notification(1000)
        Self.pass(999, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        Self.pass(1, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
        Self.pass(5000, clock, server, idle.client)
        #expect(note.takeEvents() == [], "idled once, not again")

        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        idle.client.roundtrip()
        #expect(note.takeEvents() == ["resumed"])
        server.compositor.seat.key(KEY_A, pressed: false, time: 2)
        // The countdown restarted at the input.
        Self.pass(999, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        Self.pass(1, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
    }

    @Test func theCountdownStartsWhenTheNotificationIsMade() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        server.compositor.seat.pointerButton(0x110, pressed: true, time: 1)
        server.compositor.seat.pointerButton(0x110, pressed: false, time: 1)
        clock.advance(milliseconds: 10_000)
        let note = try idle.notification(300)
        Self.pass(299, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        Self.pass(1, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
    }

    enum Input: String, CaseIterable {
        case pointerMotion, relativeMotion, button, axis, scroll, key, touchDown, touchMotion, touchUp
    }

    @Test(arguments: Input.allCases)
    func everyKindOfInputResumesAndRestarts(_ input: Input) throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        let note = try idle.notification(100)
        let seat: Seat = server.compositor.seat
        let output = try #require(server.compositor.scene.outputs.first)
        // The pointer and touch point need a position first (for the relative motion and the touch motion/up).
        seat.pointerMotion(on: output, x: 5, y: 5, time: 0)
        seat.touchDown(id: 1, on: output, x: 5, y: 5, time: 0)
        Self.pass(100, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
        switch input {
        case .pointerMotion: seat.pointerMotion(on: output, x: 10, y: 10, time: 1)
        case .relativeMotion: seat.pointerMotion(dx: 1, dy: 1, time: 1)
        case .button: seat.pointerButton(0x110, pressed: true, time: 1)
        case .axis: seat.pointerAxis(vertical: 1, horizontal: 0, time: 1)
        case .scroll: seat.pointerScroll(PointerScroll(vertical: 15), time: 1)
        case .key: seat.key(KEY_A, pressed: true, time: 1)
        case .touchDown: seat.touchDown(id: 2, on: output, x: 1, y: 1, time: 1)
        case .touchMotion: seat.touchMotion(id: 1, x: 6, y: 6, time: 1)
        case .touchUp: seat.touchUp(id: 1, time: 1)
        }
        idle.client.roundtrip()
        #expect(note.takeEvents() == ["resumed"])
        Self.pass(100, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
    }

    @Test func aVisibleInhibitingSurfaceHoldsIdleOffButNotForInputOnlyNotifications() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let player = shell.client
        let manager = try player.bind(zwp_idle_inhibit_manager_v1_interface_ptr(), version: 1)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: 0xff00_ff00))
        let window = try #require(server.windows.windows.last)
        let inhibitor = try #require(zwp_idle_inhibit_manager_v1_create_inhibitor(manager, toplevel.surface))
        player.roundtrip()
        #expect(server.compositor.seat.idle.isInhibited)

        let note = try idle.notification(1000)
        let inputOnly = try idle.notification(1000, inputOnly: true)
        Self.pass(1000, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        #expect(inputOnly.takeEvents() == ["idled"])
        Self.pass(60_000, clock, server, idle.client)
        #expect(note.takeEvents() == [], "held off as long as the surface is shown")

        // Hidden, the surface holds nothing: the notification idles at the next look.
        server.windows.hide(window)
        #expect(!server.compositor.seat.idle.isInhibited)
        Self.pass(1000, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])

        // Shown again after an input: held off again; destroying the inhibitor restarts the
        // countdown from then.
        server.windows.show(window)
        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        idle.client.roundtrip()
        #expect(note.takeEvents() == ["resumed"])
        #expect(inputOnly.takeEvents() == ["resumed"])
        Self.pass(5000, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        zwp_idle_inhibitor_v1_destroy(inhibitor)
        player.roundtrip()
        #expect(server.compositor.seat.idle.inhibitorCount == 0)
        Self.pass(999, clock, server, idle.client)
        #expect(note.takeEvents() == [])
        Self.pass(1, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
    }

    @Test func anInhibitorOnASurfaceThatIsNotShownOrIsDestroyedHoldsNothing() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        let player = try TestClient(server: server)
        let manager = try player.bind(zwp_idle_inhibit_manager_v1_interface_ptr(), version: 1)
        let compositor = try player.bind(wl_compositor_interface_ptr(), version: 5)
        let bare = try #require(wl_compositor_create_surface(compositor))
        _ = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, bare)
        let doomed = try #require(wl_compositor_create_surface(compositor))
        _ = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, doomed)
        wl_surface_destroy(doomed)
        #expect(player.roundtrip())
        #expect(server.compositor.seat.idle.inhibitorCount == 2)
        #expect(!server.compositor.seat.idle.isInhibited)
        let note = try idle.notification(50)
        Self.pass(50, clock, server, idle.client)
        #expect(note.takeEvents() == ["idled"])
    }

    /// The real timer on the loop, without a manual clock: a zero and a 20 ms timeout idle while
    /// the test steps the loop (no sleep), and an input resumes them.
    @Test func theTimerOnTheLoopIdlesShortTimeouts() throws {
        let server = try TestServer()
        let idle = try IdleClient(server)
        let zero = try idle.notification(0)
        let short = try idle.notification(20)
        #expect(idle.client.wait(seconds: 5) { zero.isIdle && short.isIdle })
        #expect(zero.takeEvents() == ["idled"] && short.takeEvents() == ["idled"])
        server.compositor.seat.pointerAxis(vertical: 1, horizontal: 0, time: 1)
        idle.client.roundtrip()
        #expect(zero.events.first == "resumed" && short.events.first == "resumed")
        #expect(idle.client.wait(seconds: 5) { zero.isIdle && short.isIdle })
    }

    // MARK: Hostile

    @Test func theLargestTimeoutNeverOverflowsIntoAnEarlyIdle() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        clock.now = UInt64.max - 1_000_000_000  // a clock near its end: the deadline saturates
        let huge = try idle.notification(UInt32.max)
        #expect(server.compositor.seat.idle.armedDeadline == UInt64.max)
        clock.now = 1_000_000_000
        let biggest = try idle.notification(UInt32.max)
        Self.pass(49 * 24 * 3_600_000, clock, server, idle.client)
        #expect(huge.takeEvents() == [] && biggest.takeEvents() == [])
        Self.pass(UInt64(UInt32.max) - 49 * 24 * 3_600_000, clock, server, idle.client)
        #expect(biggest.takeEvents() == ["idled"])
        #expect(huge.takeEvents() == [])
    }

    @Test func zeroTimeoutsUnderAStreamOfInputAlternateWithoutPilingUp() throws {
        let (server, clock) = try Self.makeServer()
        let idle = try IdleClient(server)
        let notes = try (0..<8).map { _ in try idle.notification(0) }
        for step in 0..<200 {
            Self.pass(1, clock, server, idle.client)
            server.compositor.seat.pointerMotion(dx: 1, dy: 0, time: UInt32(step))
        }
        // The last input resumed them; the next look idles them again (the loop's own timer
        // may have done so already: either way once).
        Self.pass(1, clock, server, idle.client)
        for note in notes {
            let events = note.takeEvents()
            #expect(events.count == 401)
            #expect(events.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? "idled" : "resumed") })
        }
        #expect(idle.client.protocolError == nil)
    }

    @Test func moreThanTheCapOfNotificationsIsNoMemory() throws {
        let (server, _) = try Self.makeServer()
        let idle = try IdleClient(server)
        for _ in 0..<ClientBudget.maxIdleNotificationsPerClient {
            _ = ext_idle_notifier_v1_get_idle_notification(idle.notifier, 1000, idle.seat.seat)
        }
        #expect(idle.client.roundtrip())
        #expect(server.compositor.seat.idle.notificationCount == Int(ClientBudget.maxIdleNotificationsPerClient))
        _ = ext_idle_notifier_v1_get_input_idle_notification(idle.notifier, 1000, idle.seat.seat)
        #expect(!idle.client.roundtrip())
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
        #expect(idle.client.connectionError == ENOMEM)
        for _ in 0..<5 { server.step() }
        #expect(server.compositor.seat.idle.notificationCount == 0)
        let other = try IdleClient(server)
        _ = try other.notification(10)
        #expect(other.client.roundtrip())
    }

    @Test func moreThanTheCapOfInhibitorsIsNoMemory() throws {
        let (server, _) = try Self.makeServer()
        let client = try TestClient(server: server)
        let manager = try client.bind(zwp_idle_inhibit_manager_v1_interface_ptr(), version: 1)
        let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = try #require(wl_compositor_create_surface(compositor))
        for _ in 0...ClientBudget.maxIdleInhibitorsPerClient {
            _ = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface)
        }
        #expect(!client.roundtrip())
        #expect(client.connectionError == ENOMEM)
        for _ in 0..<5 { server.step() }
        #expect(server.compositor.seat.idle.inhibitorCount == 0)
    }

    @Test func notificationsDestroyedInAnyOrderLeaveTheOthersWorkingAndNothingBehind() throws {
        let (server, clock) = try Self.makeServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let idle = try IdleClient(server)
            let notes = try (0..<6).map { try idle.notification(UInt32(100 * ($0 + 1))) }
            for index in [0, 5, 2] { ext_idle_notification_v1_destroy(notes[index].notification) }
            idle.client.roundtrip()
            #expect(server.compositor.seat.idle.notificationCount == 3)
            Self.pass(600, clock, server, idle.client)
            #expect([1, 3, 4].allSatisfy { notes[$0].takeEvents() == ["idled"] })
            #expect([0, 2, 5].allSatisfy { notes[$0].events.isEmpty })
        }
        #expect(server.waitForClients(0), "the client's hang-up is seen")
        #expect(server.compositor.seat.idle.notificationCount == 0)
        #expect(server.liveCounts == baseline)
    }
}
