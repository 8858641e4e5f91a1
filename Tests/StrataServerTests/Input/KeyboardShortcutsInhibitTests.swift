import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// zwp_keyboard_shortcuts_inhibit_manager_v1 (`KeyboardShortcutsInhibitManager`): active while
/// the surface has the keyboard focus.
@Suite struct KeyboardShortcutsInhibitTests {
    /// A client with a shown, key surface, a seat and the manager.
    final class Inhibiting {
        let surface: TestSurface
        let seat: TestSeat
        let manager: OpaquePointer
        let client: TestClient

        init(_ server: TestServer, x: Int = 0) throws {
            let client = try TestClient(server: server)
            seat = try TestSeat(client: client)
            manager = try client.bind(zwp_keyboard_shortcuts_inhibit_manager_v1_interface_ptr(), version: 1)
            surface = try client.makeSurface(width: 50, height: 50)
            client.showPlainSurface(surface, x: x, y: 0)
            self.client = client
        }

        func inhibit() throws -> TestShortcutsInhibitor {
            let inhibitor = try #require(
                TestShortcutsInhibitor(manager: manager, surface: surface.surface, seat: seat.seat))
            client.roundtrip()
            return inhibitor
        }
    }

    @Test func anInhibitorIsActiveWhileItsSurfaceHasTheKeyboardFocus() throws {
        let server = try TestServer()
        let first = try Inhibiting(server)
        let window = try #require(server.windows.keyWindow)
        let inhibitor = try first.inhibit()
        #expect(inhibitor.takeEvents() == ["active"], "its surface is focused already")
        let second = try Inhibiting(server, x: 100)
        first.client.roundtrip()
        #expect(inhibitor.takeEvents() == ["inactive"])
        #expect(server.windows.makeKey(window))
        first.client.roundtrip()
        #expect(inhibitor.takeEvents() == ["active"])
        server.windows.resignKey()
        first.client.roundtrip()
        #expect(inhibitor.takeEvents() == ["inactive"])
        withExtendedLifetime(second) {}
    }

    @Test func anInhibitorOnAnUnfocusedSurfaceWaitsForTheFocus() throws {
        let server = try TestServer()
        let first = try Inhibiting(server)
        let window = try #require(server.windows.keyWindow)
        let second = try Inhibiting(server, x: 100)
        let inhibitor = try first.inhibit()
        #expect(inhibitor.takeEvents() == [])
        #expect(server.windows.makeKey(window))
        first.client.roundtrip()
        #expect(inhibitor.takeEvents() == ["active"])
        withExtendedLifetime(second) {}
    }

    @Test func theSessionLockTakesTheFocusAndSoTheInhibition() throws {
        let server = try TestServer()
        let app = try Inhibiting(server)
        let inhibitor = try app.inhibit()
        #expect(inhibitor.takeEvents() == ["active"])
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        app.client.roundtrip()
        #expect(inhibitor.takeEvents() == ["inactive"])
    }

    @Test func aSecondInhibitorOnOneSurfaceIsAlreadyInhibited() throws {
        let server = try TestServer()
        let app = try Inhibiting(server)
        let first = try app.inhibit()
        zwp_keyboard_shortcuts_inhibitor_v1_destroy(first.inhibitor)
        let again = try app.inhibit()  // after a destroy, allowed
        #expect(app.client.roundtrip())
        _ = TestShortcutsInhibitor(manager: app.manager, surface: app.surface.surface, seat: app.seat.seat)
        #expect(!app.client.roundtrip())
        #expect(
            app.client.protocolError?.code == ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue
        )
        #expect(app.client.protocolError?.interface == "zwp_keyboard_shortcuts_inhibit_manager_v1")
        withExtendedLifetime(again) {}
    }

    @Test func inhibitorsOutlivingTheirSurfacesAreInertAndLeaveNothingBehind() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let app = try Inhibiting(server)
            let inhibitor = try app.inhibit()
            var others: [TestShortcutsInhibitor] = []
            for _ in 0..<100 {
                let surface = try app.client.makeSurface(width: 1, height: 1)
                if let made = TestShortcutsInhibitor(
                    manager: app.manager, surface: surface.surface, seat: app.seat.seat)
                {
                    others.append(made)
                }
                wl_surface_destroy(surface.surface)
            }
            wl_surface_destroy(app.surface.surface)
            #expect(app.client.roundtrip())
            server.compositor.seat.key(30, pressed: true, time: 1)
            server.compositor.seat.key(30, pressed: false, time: 2)
            #expect(app.client.roundtrip())
            #expect(inhibitor.takeEvents() == ["active", "inactive"])
            for made in others { zwp_keyboard_shortcuts_inhibitor_v1_destroy(made.inhibitor) }
            zwp_keyboard_shortcuts_inhibitor_v1_destroy(inhibitor.inhibitor)
            #expect(app.client.roundtrip())
        }
        server.expectLiveCounts(backAt: baseline)
    }
}
