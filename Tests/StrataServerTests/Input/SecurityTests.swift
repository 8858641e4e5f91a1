import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// No client reads another's keystrokes or pixels, and no client takes the key window by any
/// request: focus moves only through the key-window policy (a new window shown, a click or touch
/// offered to the policy, the control socket).
@Suite struct SecurityTests {
    /// A snooping client with several keyboards and pointers but no key window sees the keymap
    /// and nothing else while the key window's client types and clicks.
    @Test func aClientWithoutTheKeyWindowGetsNoKeystrokesWhateverItBinds() throws {
        let server = try TestServer()
        let (snoop, snoopSeat) = try connectWithSeat(server)
        let extraSeat = try TestSeat(client: snoop)
        extraSeat.getKeyboard()
        extraSeat.getKeyboard()
        extraSeat.getPointer()
        let hidden = try snoop.makeSurface(width: 10, height: 10)
        snoop.showPlainSurface(hidden, x: 600, y: 400, makeKey: false)
        let (victim, victimSeat) = try connectWithSeat(server)
        let surface = try victim.makeSurface(width: 100, height: 100)
        victim.showPlainSurface(surface, x: 0, y: 0)
        snoop.roundtrip()
        _ = snoopSeat.takeEvents()
        _ = extraSeat.takeEvents()
        _ = victimSeat.takeEvents()

        let seat = server.compositor.seat!
        for key: UInt32 in [KEY_LEFTSHIFT, KEY_A, 31, 32] {
            seat.key(key, pressed: true, time: 1)
            seat.key(key, pressed: false, time: 2)
        }
        seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 10, y: 10, time: 3)
        seat.pointerButton(BTN_LEFT, pressed: true, time: 4)
        seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        victim.roundtrip()
        snoop.roundtrip()
        #expect(victimSeat.takeEvents().contains(.key(key: KEY_A, pressed: true)))
        let snooped = snoopSeat.takeEvents() + extraSeat.takeEvents()
        #expect(
            snooped.allSatisfy {
                if case .keymap = $0 { return true }; if case .repeatInfo = $0 { return true }; return false
            },
            "the snoop got \(snooped)")
    }

    /// Every xdg_toplevel and xdg_surface request a client can send about its own window, and
    /// grabs, moves and menus with forged serials: none makes it key.
    @Test func aClientCannotMakeItselfKeyByAnyRequest() throws {
        let server = try TestServer()
        let thief = try TestXdgShell(client: TestClient(server: server))
        let thiefSeat = try TestSeat(client: thief.client)
        thiefSeat.getKeyboard()
        let stolen = try #require(thief.makeToplevel())
        #expect(stolen.map(argb: 0xff11_2233))
        let owner = try TestXdgShell(client: TestClient(server: server))
        let keyWindow = try #require(owner.makeToplevel())
        #expect(keyWindow.map(argb: 0xff44_5566))
        let model = server.windows
        let ownersWindow = try #require(model.keyWindow)
        thief.client.roundtrip()
        _ = thiefSeat.takeEvents()

        let forged: [UInt32] = [0, 1, 2, 42, server.compositor.display.nextSerial(), UInt32.max]
        let toplevel = stolen.toplevel
        let attempts: [(String, () -> Void)] =
            [
                ("set_maximized", { xdg_toplevel_set_maximized(toplevel) }),
                ("unset_maximized", { xdg_toplevel_unset_maximized(toplevel) }),
                ("set_fullscreen", { xdg_toplevel_set_fullscreen(toplevel, nil) }),
                ("unset_fullscreen", { xdg_toplevel_unset_fullscreen(toplevel) }),
                ("set_minimized", { xdg_toplevel_set_minimized(toplevel) }),
                ("set_title", { xdg_toplevel_set_title(toplevel, "Owner") }),
                ("set_app_id", { xdg_toplevel_set_app_id(toplevel, "owner") }),
                // (Another client's toplevel cannot even be named: object ids are per connection.)
                ("set_parent none", { xdg_toplevel_set_parent(toplevel, nil) }),
                ("window geometry", { xdg_surface_set_window_geometry(stolen.xdgSurface, 0, 0, 10, 10) }),
                (
                    "size hints",
                    {
                        xdg_toplevel_set_min_size(toplevel, 1, 1); xdg_toplevel_set_max_size(toplevel, 0, 0)
                    }
                ),
                ("redraw", { _ = stolen.ackAndRedraw(argb: 0xff77_8899) }),
            ]
            + forged.flatMap { serial -> [(String, () -> Void)] in
                [
                    ("move with serial \(serial)", { xdg_toplevel_move(toplevel, thiefSeat.seat, serial) }),
                    ("resize with serial \(serial)", { xdg_toplevel_resize(toplevel, thiefSeat.seat, serial, 8) }),
                    (
                        "window menu with serial \(serial)",
                        { xdg_toplevel_show_window_menu(toplevel, thiefSeat.seat, serial, 0, 0) }
                    ),
                ]
            }
        for (name, attempt) in attempts {
            attempt()
            #expect(thief.client.roundtrip(), "\(name) should not be an error")
            stolen.commit()
            thief.client.roundtrip()
            #expect(model.keyWindow === ownersWindow, "\(name) made the thief's window key")
        }
        // A popup grab with a forged serial is refused (the popup is dismissed) and takes no focus.
        let positioner = try #require(thief.makePositioner(width: 10, height: 10, anchorRect: (0, 0, 5, 5)))
        let popup = try #require(thief.makePopup(parent: stolen.xdgSurface, positioner: positioner))
        xdg_popup_grab(popup.popup, thiefSeat.seat, 12345)
        _ = popup.map(argb: 0xffaa_bbcc)
        thief.client.roundtrip()
        #expect(model.keyWindow === ownersWindow)
        #expect(server.compositor.seat.keyboardFocus?.client != thief.client.serverClient)
        #expect(
            !thiefSeat.takeEvents().contains {
                if case .keyboardEnter = $0 { return true }; return false
            })
    }

    /// What the policy allows does move focus: a click on the window.
    @Test func aClickOnTheWindowIsTheWayToBecomeKey() throws {
        let server = try TestServer()
        let (a, seatA) = try connectWithSeat(server)
        let sa = try a.makeSurface(width: 50, height: 50)
        let windowA = try #require(a.showPlainSurface(sa, x: 0, y: 0))
        let (b, seatB) = try connectWithSeat(server)
        let sb = try b.makeSurface(width: 50, height: 50)
        b.showPlainSurface(sb, x: 100, y: 0)
        #expect(server.windows.keyWindow !== windowA)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 10, y: 10, time: 1)
        server.compositor.seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        #expect(server.windows.keyWindow === windowA)
        // The seats' listeners point at them: keep them until the clients are done.
        withExtendedLifetime((seatA, seatB)) {
            a.roundtrip(); b.roundtrip()
        }
    }
}
