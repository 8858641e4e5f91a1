import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The causes the wire gives the model's changes (`ChangeCause`; docs/window-model.md,
/// "Causes"), with real clients: input is the user's, a map and a focus request are their client's.
@Suite struct ChangeCauseWireTests {
    /// Every notification the model posts from now on.
    final class Posted {
        private(set) var all: [PostedNotification] = []
        private var token: ObserverToken?
        init(_ server: TestServer) {
            token = server.windows.notifications.addObserver(phase: .recording) { [unowned self] in all.append($0) }
        }
        deinit { token?.remove() }
        func named(_ name: String) -> [PostedNotification] { all.filter { $0.name == name } }
        func clear() { all.removeAll() }
    }

    private static var me: String { "pid \(getpid())" }

    @Test func aClickThroughTheSeatIsTheUsersClickDecidedByThePolicy() throws {
        let server = try TestServer(clock: .manual)
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let wa = try #require(a.showPlainSurface(try a.makeSurface(width: 50, height: 50), x: 0, y: 0))
        let wb = try #require(b.showPlainSurface(try b.makeSurface(width: 50, height: 50), x: 100, y: 0))
        #expect(wb.isKeyWindow)
        let input: Seat = server.compositor.seat
        input.pointerMotion(on: server.compositor.scene.outputs[0], x: 10, y: 10, time: 1)
        server.compositor.clock.step(frames: 3)
        let posted = Posted(server)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(wa.isKeyWindow)
        let key = try #require(posted.named("windowDidBecomeKey").first)
        #expect(
            key.cause
                == ChangeCause(
                    .click, request: "pointer-button 272", requester: "user", decidedBy: "uikit",
                    requestedAt: server.compositor.clock.nanoseconds))
        #expect(key.cause?.requestedAt != 0)
        #expect(posted.named("windowDidResignKey").first?.cause?.kind == .click)
        withExtendedLifetime((a, b, seatA, seatB)) {}
    }

    @Test func aTouchDownIsTheUsersTouch() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let window = try #require(
            client.showPlainSurface(try client.makeSurface(width: 50, height: 50), x: 100, y: 100, makeKey: false))
        let posted = Posted(server)
        server.compositor.seat.touchDown(id: 1, on: server.compositor.scene.outputs[0], x: 110, y: 105, time: 1)
        #expect(window.isKeyWindow)
        let cause = try #require(posted.named("windowDidBecomeKey").first?.cause)
        #expect(cause.kind == .touch && cause.request == "touch-down" && cause.requester == "user")
        withExtendedLifetime((client, seat)) {}
    }

    @Test func thePointerEnteringAWindowIsAPointerEnterCause() throws {
        let server = try TestServer(policy: FocusFollowsPointerPolicy())
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let wa = try #require(a.showPlainSurface(try a.makeSurface(width: 50, height: 50), x: 0, y: 0))
        _ = try #require(b.showPlainSurface(try b.makeSurface(width: 50, height: 50), x: 100, y: 0))
        let posted = Posted(server)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 10, y: 10, time: 1)
        #expect(wa.isKeyWindow)
        let cause = try #require(posted.named("windowDidBecomeKey").first?.cause)
        #expect(cause.kind == .pointerEnter && cause.decidedBy == "focus-follows-pointer")
        withExtendedLifetime((a, b, seatA, seatB)) {}
    }

    @Test func aToplevelShownByItsClientIsAMapOfThatClient() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let posted = Posted(server)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let visible = try #require(posted.named("windowDidBecomeVisible").first)
        #expect(visible.cause?.kind == .map)
        #expect(visible.cause?.request == "xdg_toplevel map")
        #expect(visible.cause?.requester == Self.me)
        #expect(posted.named("windowDidBecomeKey").first?.cause?.decidedBy == "uikit")
    }

    @Test func aToplevelItsClientUnmapsPassesKeyOnUnderThatClientsCause() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let first = try #require(shell.makeToplevel())
        #expect(first.map(argb: Colour.red))
        let second = try #require(shell.makeToplevel())
        #expect(second.map(argb: Colour.green))
        let posted = Posted(server)
        wl_surface_attach(second.surface, nil, 0, 0)
        wl_surface_commit(second.surface)
        #expect(client.roundtrip())
        let resign = try #require(posted.named("windowDidResignKey").first?.cause)
        #expect(resign.kind == .other && resign.request == "xdg_toplevel unmap" && resign.requester == Self.me)
        let successor = try #require(posted.named("windowDidBecomeKey").first?.cause)
        #expect(successor.kind == .successor && successor.request == "xdg_toplevel unmap")
        #expect(successor.requester == Self.me && successor.decidedBy == "uikit")
        withExtendedLifetime((first, second)) {}
    }

    @Test func aRefusedMakeKeyIsAKeyRequestWasRefusedOfThatClientsFocusRequest() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let background = try TestClient(server: server)
        let backgroundShell = try TestXdgShell(client: background)
        let manager = try TestWindowManager(client: background)
        let (toplevel, object) = try makeExtendedToplevel(backgroundShell, manager: manager, appID: "background")
        #expect(toplevel.map(argb: Colour.red))
        let typing = try TestClient(server: server)
        let typingShell = try TestXdgShell(client: typing)
        let other = try #require(typingShell.makeToplevel())
        #expect(other.map(argb: Colour.green))
        let model = try #require(server.windows.windows.first { $0.appID == "background" })
        #expect(!model.isKeyWindow)

        let posted = Posted(server)
        object.makeKey()
        #expect(background.roundtrip())
        #expect(posted.all.map(\.name) == ["keyRequestWasRefused"])
        let refusal = try #require(posted.all.first)
        #expect(refusal.notification == .keyRequestWasRefused(model.id))
        #expect(refusal.cause?.kind == .focusRequest)
        #expect(refusal.cause?.request == "strata_window_v1.make_key")
        #expect(refusal.cause?.requester == Self.me)
        withExtendedLifetime((toplevel, other)) {}
    }

    @Test func lockingAndUnlockingAreTheLockersLockCause() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        let posted = Posted(server)
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        #expect(server.windows.isLocked)
        let lock = try #require(posted.named("sessionDidLock").first?.cause)
        #expect(lock.kind == .lock && lock.request == "ext_session_lock_manager_v1.lock" && lock.requester == Self.me)
        #expect(posted.named("windowDidResignKey").first?.cause?.kind == .lock)
        locker.unlockAndDestroy()
        locker.client.roundtrip()
        #expect(!server.windows.isLocked)
        #expect(posted.named("sessionDidUnlock").first?.cause?.request == "ext_session_lock_v1.unlock_and_destroy")
        #expect(posted.named("windowDidBecomeKey").first?.cause?.kind == .lock)
        withExtendedLifetime(app) {}
    }

    @Test func anActivationWithABadTokenIsRefusedForItsWindow() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let first = try #require(shell.makeToplevel())
        #expect(first.map(argb: Colour.red))
        let second = try #require(shell.makeToplevel())
        #expect(second.map(argb: Colour.green))
        let activation = try client.bind(xdg_activation_v1_interface_ptr())
        let posted = Posted(server)
        xdg_activation_v1_activate(activation, "made-up", first.surface)
        #expect(client.roundtrip())
        #expect(posted.all.map(\.name) == ["keyRequestWasRefused"])
        let cause = try #require(posted.all.first?.cause)
        #expect(cause.kind == .activationToken && cause.request == "xdg_activation_v1.activate")
        #expect(cause.requester == Self.me)
        withExtendedLifetime((first, second)) {}
    }
}
