import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Evdev codes used below.
let BTN_LEFT: UInt32 = 0x110
let KEY_A: UInt32 = 30
let KEY_LEFTSHIFT: UInt32 = 42

/// A client with a seat (pointer, keyboard and touch), its setup events already consumed.
func connectWithSeat(_ server: TestServer) throws -> (TestClient, TestSeat) {
    let client = try TestClient(server: server)
    let seat = try TestSeat(client: client)
    seat.getPointer()
    seat.getKeyboard()
    seat.getTouch()
    client.roundtrip()
    _ = seat.takeEvents()
    return (client, seat)
}

/// A popup grab as xdg-shell would hold it.
final class FakePopupGrab: PopupGrab {
    let client: OpaquePointer
    weak var grabSurface: Surface?
    private(set) var ended = 0
    init(client: OpaquePointer, surface: Surface?) {
        self.client = client
        self.grabSurface = surface
    }
    func grabDidEnd() { ended += 1 }
}

@Suite struct SeatTests {
    @Test func seatAnnouncesPointerKeyboardAndTouchAndItsName() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        client.roundtrip()
        #expect(seat.capabilities == 7)
        #expect(seat.name == "seat0")
    }

    // MARK: Keyboard

    @Test func keyboardGetsTheKeymapAsASealedReadableMemfdAndRepeatInfo() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        client.roundtrip()
        let events = seat.takeEvents()
        guard case .keymap(let format, let size)? = events.first else {
            Issue.record("no keymap first: \(events)")
            return
        }
        #expect(format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue)
        #expect(events.contains(.repeatInfo(rate: 25, delay: 600)))
        let fd = seat.keymapFD
        #expect(fd >= 0)
        let F_GET_SEALS: Int32 = 1034, F_SEAL_SHRINK: Int32 = 2, F_SEAL_GROW: Int32 = 4, F_SEAL_WRITE: Int32 = 8
        let seals = fcntl(fd, F_GET_SEALS)
        #expect(seals & (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) == F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)
        // A writable mapping is refused; a private read-only one shows the keymap text.
        #expect(mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED)
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            Issue.record("cannot map the keymap")
            return
        }
        defer { munmap(map, Int(size)) }
        let text = String(cString: map.assumingMemoryBound(to: CChar.self))
        #expect(text.hasPrefix("xkb_keymap"))
        #expect(text.utf8.count + 1 == Int(size))
        #expect(text.contains("xkb_symbols"))
    }

    @Test func keyboardEnterAndLeaveFollowTheKeyWindowWithTheKeysHeld() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let s1 = try client.makeSurface(width: 50, height: 50)
        let s2 = try client.makeSurface(width: 50, height: 50)
        let w1 = try #require(client.showPlainSurface(s1, x: 0, y: 0))
        #expect(
            seat.takeEvents() == [
                .keyboardEnter(surface: s1.id, keys: []), .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
            ])

        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        client.roundtrip()
        #expect(seat.takeEvents() == [.key(key: KEY_A, pressed: true)])

        let w2 = try #require(client.showPlainSurface(s2, x: 100, y: 0, makeKey: false))
        #expect(seat.takeEvents() == [])
        #expect(w2.makeKey())
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .keyboardLeave(surface: s1.id),
                .keyboardEnter(surface: s2.id, keys: [KEY_A]),
                .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
            ])
        #expect(server.compositor.seat.keyboardFocus != nil)

        w1.makeKey()
        server.compositor.seat.key(KEY_A, pressed: false, time: 2)
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .keyboardLeave(surface: s2.id),
                .keyboardEnter(surface: s1.id, keys: [KEY_A]),
                .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
                .key(key: KEY_A, pressed: false),
            ])
    }

    @Test func modifiersCarryARealSerialRightAfterTheEnterOrTheKeyTheyFollow() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(surface, x: 0, y: 0)
        #expect(
            seat.takeEvents() == [
                .keyboardEnter(surface: surface.id, keys: []),
                .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
            ])
        #expect(seat.keyboardEnterSerial != 0)
        #expect(seat.modifiersSerial == seat.keyboardEnterSerial &+ 1)

        server.compositor.seat.key(KEY_LEFTSHIFT, pressed: true, time: 1)
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .key(key: KEY_LEFTSHIFT, pressed: true), .modifiers(depressed: 1, latched: 0, locked: 0, group: 0),
            ])
        #expect(seat.lastPressSerial != 0)
        #expect(seat.modifiersSerial == seat.lastPressSerial &+ 1)

        // A wl_keyboard made while its client has the focus is entered at once, and its
        // modifiers follow with the next serial too.
        let late = try TestSeat(client: client)
        late.getKeyboard()
        client.roundtrip()
        #expect(late.keyboardEnterSerial > seat.modifiersSerial)
        #expect(late.modifiersSerial == late.keyboardEnterSerial &+ 1)
    }

    @Test func keyEventsAndModifiersReachOnlyTheFocusedClient() throws {
        let server = try TestServer()
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let sb = try b.makeSurface(width: 40, height: 40)
        b.showPlainSurface(sb, x: 200, y: 0)
        let sa = try a.makeSurface(width: 40, height: 40)
        a.showPlainSurface(sa, x: 0, y: 0)
        b.roundtrip()
        #expect(
            seatB.takeEvents() == [
                .keyboardEnter(surface: sb.id, keys: []), .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
                .keyboardLeave(surface: sb.id),
            ])
        _ = seatA.takeEvents()

        server.compositor.seat.key(KEY_LEFTSHIFT, pressed: true, time: 5)
        server.compositor.seat.key(KEY_A, pressed: true, time: 6)
        a.roundtrip()
        b.roundtrip()
        #expect(
            seatA.takeEvents() == [
                .key(key: KEY_LEFTSHIFT, pressed: true),
                .modifiers(depressed: 1, latched: 0, locked: 0, group: 0),
                .key(key: KEY_A, pressed: true),
            ])
        #expect(seatB.takeEvents() == [])
    }

    @Test func aKeyWindowClientThatBindsItsKeyboardLaterIsEnteredAtOnce() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let surface = try client.makeSurface(width: 30, height: 30)
        client.showPlainSurface(surface, x: 0, y: 0)
        let seat = try TestSeat(client: client)
        seat.getKeyboard()
        client.roundtrip()
        let events = seat.takeEvents().filter {
            if case .keymap = $0 { return false }
            if case .repeatInfo = $0 { return false }
            return true
        }
        #expect(
            events == [
                .keyboardEnter(surface: surface.id, keys: []),
                .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
            ])
    }

    // MARK: Pointer

    @Test func pointerGetsEnterMotionButtonAndLeaveEachEndedByAFrame() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(surface, x: 100, y: 100)
        _ = seat.takeEvents()
        let input: Seat = server.compositor.seat
        let output = server.compositor.scene.outputs[0]

        input.pointerMotion(on: output, x: 110, y: 120, time: 1)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerEnter(surface: surface.id, x: 10, y: 20), .pointerFrame])

        input.pointerMotion(on: output, x: 111.5, y: 121, time: 2)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerMotion(x: 11.5, y: 21), .pointerFrame])

        input.pointerButton(BTN_LEFT, pressed: true, time: 3)
        input.pointerButton(BTN_LEFT, pressed: false, time: 4)
        input.pointerAxis(vertical: 10, horizontal: 0, time: 5)
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerButton(button: BTN_LEFT, pressed: true), .pointerFrame,
                .pointerButton(button: BTN_LEFT, pressed: false), .pointerFrame,
                .pointerAxis(axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value: 10), .pointerFrame,
            ])

        input.pointerMotion(on: output, x: 10, y: 10, time: 6)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerLeave(surface: surface.id), .pointerFrame])
    }

    @Test func pointerFocusMovesWhenAWindowIsRaisedUnderAStillPointer() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let s1 = try client.makeSurface(width: 100, height: 100)
        let s2 = try client.makeSurface(width: 100, height: 100)
        let w1 = try #require(client.showPlainSurface(s1, x: 0, y: 0))
        client.showPlainSurface(s2, x: 50, y: 50)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 75, y: 75, time: 1)
        client.roundtrip()
        _ = seat.takeEvents()

        w1.orderFront()
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerLeave(surface: s2.id), .pointerEnter(surface: s1.id, x: 75, y: 75), .pointerFrame,
            ])
    }

    @Test func pointerIgnoresSurfacesOutsideTheirInputRegion() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let below = try client.makeSurface(width: 200, height: 200)
        let above = try client.makeSurface(width: 100, height: 100, inputRegion: (0, 0, 50, 50))
        client.showPlainSurface(below, x: 0, y: 0)
        client.showPlainSurface(above, x: 0, y: 0)
        _ = seat.takeEvents()
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]

        input.pointerMotion(on: output, x: 75, y: 75, time: 1)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerEnter(surface: below.id, x: 75, y: 75), .pointerFrame])

        input.pointerMotion(on: output, x: 25, y: 25, time: 2)
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerLeave(surface: below.id), .pointerEnter(surface: above.id, x: 25, y: 25), .pointerFrame,
            ])
    }

    @Test func aSurfaceGrowingUnderAStillPointerGetsTheEnter() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 30, y: 30, time: 1)
        client.roundtrip()
        _ = seat.takeEvents()
        let shm = try client.bind(wl_shm_interface_ptr())
        let bigger = try #require(TestBuffer(shm: shm, width: 50, height: 50, argb: 0xff00_ff00))
        wl_surface_attach(surface.surface, bigger.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, 50, 50)
        wl_surface_commit(surface.surface)
        client.roundtrip()
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerEnter(surface: surface.id, x: 30, y: 30), .pointerFrame])
    }

    @Test func implicitGrabKeepsEventsWithThePressedSurfaceDuringADrag() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let s1 = try client.makeSurface(width: 50, height: 50)
        let s2 = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(s1, x: 0, y: 0)
        client.showPlainSurface(s2, x: 100, y: 0)
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 10, y: 10, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        client.roundtrip()
        _ = seat.takeEvents()

        input.pointerMotion(on: output, x: 120, y: 10, time: 3)
        client.roundtrip()
        #expect(seat.takeEvents() == [.pointerMotion(x: 120, y: 10), .pointerFrame])

        input.pointerButton(BTN_LEFT, pressed: false, time: 4)
        client.roundtrip()
        #expect(
            seat.takeEvents() == [
                .pointerButton(button: BTN_LEFT, pressed: false),
                .pointerLeave(surface: s1.id), .pointerEnter(surface: s2.id, x: 20, y: 10), .pointerFrame,
            ])
    }

    @Test func aClickOffersTheWindowToThePolicyWhichMakesItKeyBeforeTheButtonArrives() throws {
        let server = try TestServer()  // uikit policy: a click makes key
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let sa = try a.makeSurface(width: 50, height: 50)
        let wa = try #require(a.showPlainSurface(sa, x: 0, y: 0))
        let sb = try b.makeSurface(width: 50, height: 50)
        let wb = try #require(b.showPlainSurface(sb, x: 100, y: 0))
        #expect(wb.isKeyWindow)
        let input: Seat = server.compositor.seat
        input.pointerMotion(on: server.compositor.scene.outputs[0], x: 10, y: 10, time: 1)
        a.roundtrip()
        _ = seatA.takeEvents()

        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        a.roundtrip()
        b.roundtrip()
        #expect(wa.isKeyWindow)
        #expect(
            seatA.takeEvents() == [
                .keyboardEnter(surface: sa.id, keys: []), .modifiers(depressed: 0, latched: 0, locked: 0, group: 0),
                .pointerButton(button: BTN_LEFT, pressed: true), .pointerFrame,
            ])
        #expect(seatB.takeEvents().last == .keyboardLeave(surface: sb.id))
    }

    @Test func pointerFocusPassesToTheSurfaceBelowWhenTheFocusedSurfaceDies() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let below = try client.makeSurface(width: 100, height: 100)
        let above = try client.makeSurface(width: 100, height: 100)
        client.showPlainSurface(below, x: 0, y: 0)
        client.showPlainSurface(above, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 5, y: 5, time: 1)
        client.roundtrip()
        _ = seat.takeEvents()

        // The id is read before the proxy is freed (reading it after is a use after free).
        let aboveID = above.id
        wl_surface_destroy(above.surface)
        client.roundtrip()
        client.roundtrip()
        let events = seat.takeEvents()
        #expect(events.contains(.pointerEnter(surface: below.id, x: 5, y: 5)))
        #expect(!events.contains(.pointerLeave(surface: aboveID)))
    }

    @Test func setCursorWithASurfaceOfAnotherRoleIsARoleError() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 5, y: 5, time: 1)
        client.roundtrip()
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, surface.surface, 0, 0)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WL_POINTER_ERROR_ROLE.rawValue)
        #expect(client.protocolError?.interface == "wl_pointer")
    }

    @Test func setCursorWithAFreshSurfaceIsKeptForTheFocusedClient() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let window = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(window, x: 0, y: 0)
        let cursor = try client.makeSurface(width: 8, height: 8)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 5, y: 5, time: 1)
        client.roundtrip()
        wl_pointer_set_cursor(seat.pointer, seat.pointerEnterSerial, cursor.surface, 3, 4)
        #expect(client.roundtrip())
        let kept = try #require(server.compositor.seat.cursor)
        #expect(kept.surface?.roleName == "wl_pointer-cursor")
        #expect(kept.hotspotX == 3 && kept.hotspotY == 4)
    }

    @Test func severalSeatBindingsOfOneClientAllGetEvents() throws {
        let server = try TestServer()
        let (client, first) = try connectWithSeat(server)
        let second = try TestSeat(client: client)
        second.getPointer()
        client.roundtrip()
        let surface = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 5, y: 5, time: 1)
        client.roundtrip()
        #expect(first.takeEvents().contains(.pointerEnter(surface: surface.id, x: 5, y: 5)))
        #expect(second.takeEvents() == [.pointerEnter(surface: surface.id, x: 5, y: 5), .pointerFrame])
    }

    // MARK: Grabs

    @Test func interactiveMoveFollowsThePointerUntilTheButtonIsReleased() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 50, height: 50)
        let window = try #require(client.showPlainSurface(surface, x: 100, y: 100))
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 110, y: 110, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        client.roundtrip()
        let serial = seat.lastPressSerial
        #expect(!input.beginInteractiveMove(window, serial: serial &+ 1000, client: client.serverClient))
        #expect(input.beginInteractiveMove(window, serial: serial, client: client.serverClient))
        input.pointerMotion(on: output, x: 140, y: 150, time: 3)
        #expect(window.frame == Rect(x: 130, y: 140, width: 50, height: 50))
        input.pointerButton(BTN_LEFT, pressed: false, time: 4)
        input.pointerMotion(on: output, x: 160, y: 160, time: 5)
        #expect(window.frame == Rect(x: 130, y: 140, width: 50, height: 50))
        client.roundtrip()
        #expect(seat.takeEvents().contains(.pointerMotion(x: 30, y: 20)))
    }

    @Test func interactiveResizeReportsTheDraggedSizeAndNeedsTheHeldPress() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 50, height: 50)
        let window = try #require(client.showPlainSurface(surface, x: 100, y: 100))
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 140, y: 140, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        input.pointerButton(BTN_LEFT, pressed: false, time: 3)
        client.roundtrip()
        let released = seat.lastPressSerial
        input.pointerButton(BTN_LEFT, pressed: true, time: 4)
        client.roundtrip()
        var sizes: [String] = []
        let record = { (w: Int32, h: Int32) in sizes.append("\(w)x\(h)") }
        #expect(
            !input.beginInteractiveResize(
                window, edges: 10, serial: released, client: client.serverClient, resize: record))
        #expect(
            input.beginInteractiveResize(
                window, edges: 10, serial: seat.lastPressSerial, client: client.serverClient, resize: record))
        input.pointerMotion(on: output, x: 160, y: 170, time: 5)
        input.pointerButton(BTN_LEFT, pressed: false, time: 6)
        input.pointerMotion(on: output, x: 170, y: 170, time: 7)
        // The release ends the resize, told as a 0×0 size; later motion resizes nothing.
        #expect(sizes == ["70x80", "0x0"])
    }

    @Test func nestedPopupGrabsStackAndEndingThemReturnsKeyboardFocusToTheKeyWindow() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let main = try client.makeSurface(width: 100, height: 100)
        client.showPlainSurface(main, x: 0, y: 0)
        let menu = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(menu, x: 10, y: 10, makeKey: false)
        let submenu = try client.makeSurface(width: 20, height: 20)
        client.showPlainSurface(submenu, x: 30, y: 10, makeKey: false)
        let input: Seat = server.compositor.seat
        input.key(KEY_A, pressed: true, time: 1)
        input.key(KEY_A, pressed: false, time: 2)
        client.roundtrip()
        let serial = seat.lastPressSerial
        _ = seat.takeEvents()
        let surfaces = [main, menu, submenu].map { server.compositor.surface(of: client.serverClient, id: $0.id) }
        let outer = FakePopupGrab(client: client.serverClient, surface: surfaces[1])
        let inner = FakePopupGrab(client: client.serverClient, surface: surfaces[2])
        #expect(input.beginPopupGrab(outer, serial: serial))
        #expect(input.beginPopupGrab(inner, serial: serial))
        #expect(input.keyboardFocus === surfaces[2])
        input.endPopupGrab(inner)
        #expect(input.keyboardFocus === surfaces[1])
        input.endPopupGrab(outer)
        #expect(input.keyboardFocus === surfaces[0])
        client.roundtrip()
        let focus = seat.takeEvents().filter {
            if case .keyboardEnter = $0 { return true }
            if case .keyboardLeave = $0 { return true }
            return false
        }
        #expect(
            focus == [
                .keyboardLeave(surface: main.id), .keyboardEnter(surface: menu.id, keys: []),
                .keyboardLeave(surface: menu.id), .keyboardEnter(surface: submenu.id, keys: []),
                .keyboardLeave(surface: submenu.id), .keyboardEnter(surface: menu.id, keys: []),
                .keyboardLeave(surface: menu.id), .keyboardEnter(surface: main.id, keys: []),
            ])
        #expect(outer.ended == 0 && inner.ended == 0)
    }

    @Test func aPopupGrabNestedInTheClientsOwnGrabNeedsNoNewPressSerialButAFirstOneDoes() throws {
        let server = try TestServer()
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let parent = try a.makeSurface(width: 100, height: 100)
        a.showPlainSurface(parent, x: 0, y: 0)
        let menu = try a.makeSurface(width: 20, height: 20)
        a.showPlainSurface(menu, x: 10, y: 10, makeKey: false)
        let submenu = try a.makeSurface(width: 20, height: 20)
        a.showPlainSurface(submenu, x: 30, y: 10, makeKey: false)
        let other = try b.makeSurface(width: 20, height: 20)
        b.showPlainSurface(other, x: 300, y: 10, makeKey: false)
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 50, y: 50, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        input.pointerButton(BTN_LEFT, pressed: false, time: 3)
        a.roundtrip()
        b.roundtrip()
        let surfaces = [menu, submenu].map { server.compositor.surface(of: a.serverClient, id: $0.id) }
        let outer = FakePopupGrab(client: a.serverClient, surface: surfaces[0])
        let inner = FakePopupGrab(client: a.serverClient, surface: surfaces[1])
        // A first grab with an enter serial is refused; with the press serial it starts.
        #expect(!input.beginPopupGrab(outer, serial: seatA.pointerEnterSerial))
        #expect(input.beginPopupGrab(outer, serial: seatA.lastPressSerial))
        // The nested grab quotes another serial (here the pointer enter's; WLCS quotes the
        // keyboard enter the outer grab caused): it continues the grab.
        #expect(input.beginPopupGrab(inner, serial: seatA.pointerEnterSerial))
        #expect(input.keyboardFocus === surfaces[1])
        // Another client cannot take over with a serial that is not its press.
        let foreign = FakePopupGrab(
            client: b.serverClient, surface: server.compositor.surface(of: b.serverClient, id: other.id))
        #expect(!input.beginPopupGrab(foreign, serial: seatB.pointerEnterSerial))
        #expect(outer.ended == 0 && inner.ended == 0)
        #expect(input.keyboardFocus === surfaces[1])
    }

    @Test func popupGrabNeedsAPressSerialAndKeepsPointerAndKeyboardWithItsClient() throws {
        let server = try TestServer()
        let (a, seatA) = try connectWithSeat(server)
        let (b, seatB) = try connectWithSeat(server)
        let sb = try b.makeSurface(width: 100, height: 100)
        b.showPlainSurface(sb, x: 200, y: 0)
        let parent = try a.makeSurface(width: 100, height: 100)
        a.showPlainSurface(parent, x: 0, y: 0)
        let popup = try a.makeSurface(width: 20, height: 20)
        a.showPlainSurface(popup, x: 20, y: 20, makeKey: false)
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 50, y: 50, time: 1)
        input.pointerButton(BTN_LEFT, pressed: true, time: 2)
        input.pointerButton(BTN_LEFT, pressed: false, time: 3)
        a.roundtrip()
        b.roundtrip()
        let popupSurface = try #require(server.compositor.surface(of: a.serverClient, id: popup.id))
        let grab = FakePopupGrab(client: a.serverClient, surface: popupSurface)
        #expect(!input.beginPopupGrab(grab, serial: seatA.pointerEnterSerial))
        #expect(input.beginPopupGrab(grab, serial: seatA.lastPressSerial))
        a.roundtrip()
        _ = seatA.takeEvents()
        _ = seatB.takeEvents()
        #expect(input.keyboardFocus === popupSurface)

        // The other client's window gets no pointer events during the grab.
        input.pointerMotion(on: output, x: 250, y: 50, time: 4)
        a.roundtrip()
        b.roundtrip()
        #expect(seatB.takeEvents() == [])
        #expect(seatA.takeEvents() == [.pointerLeave(surface: parent.id), .pointerFrame])

        // A press outside the client's surfaces dismisses the grab and is not delivered.
        input.pointerButton(BTN_LEFT, pressed: true, time: 5)
        #expect(grab.ended == 1)
        input.pointerButton(BTN_LEFT, pressed: false, time: 6)
        b.roundtrip()
        #expect(seatB.takeEvents() == [.pointerEnter(surface: sb.id, x: 50, y: 50), .pointerFrame])
        #expect(input.keyboardFocus === server.compositor.surface(of: a.serverClient, id: parent.id))
    }

    // MARK: Touch

    @Test func touchDownMotionAndUpGoToTheSurfaceUnderTheFirstTouch() throws {
        let server = try TestServer()
        let (client, seat) = try connectWithSeat(server)
        let surface = try client.makeSurface(width: 50, height: 50)
        let window = try #require(client.showPlainSurface(surface, x: 100, y: 100, makeKey: false))
        #expect(!window.isKeyWindow)
        let input: Seat = server.compositor.seat, output = server.compositor.scene.outputs[0]
        input.touchDown(id: 7, on: output, x: 110, y: 105, time: 1)
        input.touchMotion(id: 7, x: 200, y: 200, time: 2)
        input.touchUp(id: 7, time: 3)
        input.touchUp(id: 7, time: 4)
        client.roundtrip()
        let events = seat.takeEvents().filter {
            if case .keyboardEnter = $0 { return false }
            if case .modifiers = $0 { return false }
            return true
        }
        #expect(
            events == [
                .touchDown(surface: surface.id, id: 7, x: 10, y: 5), .touchFrame,
                .touchMotion(id: 7, x: 100, y: 100), .touchFrame,
                .touchUp(id: 7), .touchFrame,
            ])
        #expect(window.isKeyWindow)  // a touch down is a click for the policy
    }

    // MARK: Outputs

    @Test func shownSurfacesEnterTheClientsOutputs() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let output = try client.bind(wl_output_interface_ptr())
        let recorder = SurfaceOutputRecorder()
        let surface = try client.makeSurface(width: 20, height: 20)
        recorder.listen(to: surface.surface)
        client.showPlainSurface(surface, x: 0, y: 0)
        #expect(recorder.entered == [wl_proxy_get_id(output)])
        let later = try client.bind(wl_output_interface_ptr())
        client.roundtrip()
        #expect(recorder.entered == [wl_proxy_get_id(output), wl_proxy_get_id(later)])
    }
}

/// Records wl_surface.enter events (output ids).
final class SurfaceOutputRecorder {
    var entered: [UInt32] = []
    var left: [UInt32] = []
    func listen(to surface: OpaquePointer) {
        wl_surface_add_listener(surface, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }
    private static var listener = wl_surface_listener(
        enter: { data, _, output in
            guard let data, let output else { return }
            Unmanaged<SurfaceOutputRecorder>.fromOpaque(data).takeUnretainedValue().entered.append(
                wl_proxy_get_id(output))
        },
        leave: { data, _, output in
            guard let data, let output else { return }
            Unmanaged<SurfaceOutputRecorder>.fromOpaque(data).takeUnretainedValue().left.append(wl_proxy_get_id(output))
        })
}

/// The seat's keymap can be replaced (a nested backend hands over its parent's).
@Suite struct KeymapReplacementTests {
    @Test func aNewKeymapReachesEveryKeyboardAndBadTextIsRefused() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        _ = seat.getKeyboard()
        #expect(client.roundtrip())
        let keymapsBefore = seat.events.filter { if case .keymap = $0 { return true } else { return false } }.count
        #expect(keymapsBefore == 1)
        #expect(!server.compositor.seat.useKeymap(text: "this is not a keymap"))
        // A keymap compiled from names, written out as text, is valid input.
        let layout =
            "xkb_keymap { xkb_keycodes { include \"evdev\" }; xkb_types { include \"complete\" }; xkb_compatibility { include \"complete\" }; xkb_symbols { include \"pc+de\" }; };"
        #expect(server.compositor.seat.useKeymap(text: layout))
        #expect(client.roundtrip())
        let keymaps = seat.events.compactMap { event -> UInt32? in
            if case .keymap(_, let size) = event { return size } else { return nil }
        }
        #expect(keymaps.count == 2)
        // The German layout puts z where the US one has y: the seat now types z with that key.
        #expect(server.compositor.seat.keyStroke(forKeysymNamed: "z")?.keycode == 21)
    }

    /// strata's --keyboard-* options chose the keymap: a nested backend's parent keymap does not
    /// replace it.
    @Test func aKeymapChosenByOptionsIsNotReplacedByTheParents() throws {
        let server = try TestServer(keymapNames: KeymapNames(layout: "de"))
        #expect(server.compositor.seat.keyStroke(forKeysymNamed: "z")?.keycode == 21)
        server.compositor.seat.followsParentKeymap = false
        let us =
            "xkb_keymap { xkb_keycodes { include \"evdev\" }; xkb_types { include \"complete\" }; xkb_compatibility { include \"complete\" }; xkb_symbols { include \"pc+us\" }; };"
        #expect(!server.compositor.seat.useKeymap(text: us))
        #expect(server.compositor.seat.keyStroke(forKeysymNamed: "z")?.keycode == 21)
    }

    /// A parent's keymap with keycodes only above X's range, or below 8: typing works or
    /// fails in words, never traps.
    @Test(arguments: [(300, 310), (1, 12)])
    func typingOnAKeymapWithOddKeycodesDoesNotTrap(low: Int, high: Int) throws {
        let server = try TestServer()
        let text =
            "xkb_keymap { xkb_keycodes { minimum = \(low); maximum = \(high); <KA> = \(low); <KB> = \(low + 1); <KC> = \(high); }; xkb_types { include \"complete\" }; xkb_compatibility { include \"complete\" }; xkb_symbols { key <KA> { [ a, A ] }; key <KB> { [ Shift_L ] }; modifier_map Shift { <KB> }; }; };"
        try #require(server.compositor.seat.useKeymap(text: text))
        let typed = server.compositor.seat.type(keysyms: [0x61, 0x41, 0x20ac, 0x1001f600], time: 0)
        if case .failure(let failure) = typed { #expect(failure != .noKeymap) }
        _ = server.compositor.seat.chord(modifiers: [29, 42], keysym: 0x61, time: 0)
    }

    /// Names that do not compile leave the seat without a keymap, and say why in words.
    @Test func unknownNamesGiveNoKeymapAndAProblemInWords() throws {
        let server = try TestServer(keymapNames: KeymapNames(layout: "nosuchlayout"))
        #expect(!server.compositor.seat.hasKeymap)
        #expect(
            KeymapNames(layout: "nosuchlayout").compileProblem?.contains("unknown keyboard layout 'nosuchlayout'")
                == true)
        #expect(
            KeymapNames(layout: "de", variant: "nosuch").compileProblem?.contains("unknown variant 'nosuch'") == true)
        #expect(KeymapNames(layout: "de", variant: "nodeadkeys").compileProblem == nil)
        #expect(KeymapNames(layout: "").problem != nil)
        #expect(KeymapNames(layout: "us\"").problem != nil)
    }
}
