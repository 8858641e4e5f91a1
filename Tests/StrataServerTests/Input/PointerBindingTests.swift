import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The seat's pointer bindings: with the modifier held (Super by default), a left drag moves the
/// window under the pointer and a right drag resizes it from the nearest corner or edge, through
/// the seat's interactive move and resize; the press that starts one never reaches the client.
@Suite struct PointerBindingTests {
    static let keyLeftMeta: UInt32 = 125
    static let keyLeftAlt: UInt32 = 56
    static let buttonRight: UInt32 = 0x111

    /// An xdg toplevel of 200×200 at (100, 100) on the 640×480 screen, its client with a pointer
    /// and a keyboard, the pointer over the window at (150, 150). (The server is the last
    /// property: a struct's properties are released in order, and the clients need it.)
    struct Fixture {
        let toplevel: TestToplevel
        let seat: TestSeat
        let shell: TestXdgShell
        let window: Window
        let input: Seat
        let output: ScreenOutput
        let server: TestServer

        init() throws {
            let (server, shell) = try makeXdgFixture()
            self.server = server
            self.shell = shell
            toplevel = try #require(shell.makeToplevel())
            #expect(toplevel.map(width: 200, height: 200, argb: Colour.red))
            window = try #require(server.windows.windows.first)
            server.windows.setFrame(window, Rect(x: 100, y: 100, width: 200, height: 200))
            seat = try TestSeat(client: shell.client)
            seat.getPointer()
            seat.getKeyboard()
            input = server.compositor.seat
            output = server.compositor.scene.outputs[0]
            input.pointerMotion(on: output, x: 150, y: 150, time: 1)
            #expect(shell.client.roundtrip())
            _ = seat.takeEvents()
        }

        func pointer(_ x: Double, _ y: Double) { input.pointerMotion(on: output, x: x, y: y, time: 10) }
        func key(_ key: UInt32, _ pressed: Bool) { input.key(key, pressed: pressed, time: 10) }
        func button(_ button: UInt32, _ pressed: Bool) { input.pointerButton(button, pressed: pressed, time: 10) }

        /// The pointer events the client got since the last call.
        func buttonsSeen() -> [TestSeat.Event] {
            #expect(shell.client.roundtrip())
            return seat.takeEvents().filter { if case .pointerButton = $0 { return true } else { return false } }
        }
    }

    @Test func superAndALeftDragMovesTheWindowAndTheClientNeverGetsTheButton() throws {
        let f = try Fixture()
        f.key(Self.keyLeftMeta, true)
        f.button(BTN_LEFT, true)
        f.pointer(190, 170)
        #expect(f.window.frame == Rect(x: 140, y: 120, width: 200, height: 200))
        f.button(BTN_LEFT, false)
        f.pointer(250, 250)
        #expect(f.window.frame == Rect(x: 140, y: 120, width: 200, height: 200), "the release ended the move")
        f.key(Self.keyLeftMeta, false)
        #expect(f.buttonsSeen().isEmpty)
        // The pointer is the client's again after the release.
        #expect(f.input.pointerFocus != nil)
    }

    @Test func superAndARightDragResizesFromTheCornerNearestThePointer() throws {
        let f = try Fixture()
        f.pointer(110, 110)
        f.key(Self.keyLeftMeta, true)
        f.button(Self.buttonRight, true)
        f.pointer(80, 90)
        #expect(f.shell.client.roundtrip())
        let resizing = try #require(f.toplevel.lastConfigure)
        #expect(resizing.has(XDG_TOPLEVEL_STATE_RESIZING) && resizing.width == 230 && resizing.height == 220)
        #expect(f.toplevel.ackAndRedraw(argb: Colour.green))
        // From the top-left corner: the bottom-right corner stays.
        #expect(f.window.frame == Rect(x: 70, y: 80, width: 230, height: 220))
        f.button(Self.buttonRight, false)
        #expect(f.shell.client.roundtrip())
        #expect(f.toplevel.lastConfigure.map { !$0.has(XDG_TOPLEVEL_STATE_RESIZING) } == true)
        #expect(f.buttonsSeen().isEmpty)
    }

    @Test func fromTheMiddleOfAnEdgeOnlyThatEdgeMoves() throws {
        let f = try Fixture()
        // The right edge's middle third.
        f.pointer(290, 200)
        f.key(Self.keyLeftMeta, true)
        f.button(Self.buttonRight, true)
        f.pointer(320, 260)
        #expect(f.shell.client.roundtrip())
        #expect(f.toplevel.lastConfigure.map { ($0.width, $0.height) == (230, 200) } == true)
        f.button(Self.buttonRight, false)
    }

    @Test func withoutTheModifierThePressGoesToTheClientAndNothingMoves() throws {
        let f = try Fixture()
        f.button(BTN_LEFT, true)
        f.pointer(190, 170)
        f.button(BTN_LEFT, false)
        #expect(f.window.frame == Rect(x: 100, y: 100, width: 200, height: 200))
        #expect(
            f.buttonsSeen() == [
                .pointerButton(button: BTN_LEFT, pressed: true), .pointerButton(button: BTN_LEFT, pressed: false),
            ])
    }

    @Test func noPointerBindingsDeliverTheModifiedPressToTheClient() throws {
        let f = try Fixture()
        f.input.pointerBindingModifier = nil
        f.key(Self.keyLeftMeta, true)
        f.button(BTN_LEFT, true)
        f.pointer(190, 170)
        f.button(BTN_LEFT, false)
        #expect(f.window.frame == Rect(x: 100, y: 100, width: 200, height: 200))
        #expect(
            f.buttonsSeen() == [
                .pointerButton(button: BTN_LEFT, pressed: true), .pointerButton(button: BTN_LEFT, pressed: false),
            ])
    }

    @Test func theModifierIsConfigurable() throws {
        let f = try Fixture()
        f.input.pointerBindingModifier = .alt
        // Super is an ordinary key now.
        f.key(Self.keyLeftMeta, true)
        f.button(BTN_LEFT, true)
        f.button(BTN_LEFT, false)
        f.key(Self.keyLeftMeta, false)
        #expect(f.buttonsSeen().count == 2)
        f.key(Self.keyLeftAlt, true)
        f.button(BTN_LEFT, true)
        f.pointer(160, 150)
        f.button(BTN_LEFT, false)
        #expect(f.window.frame == Rect(x: 110, y: 100, width: 200, height: 200))
        #expect(f.buttonsSeen().isEmpty)
    }

    @Test func aMaximizedWindowIsNotMovedAndGetsThePress() throws {
        let f = try Fixture()
        xdg_toplevel_set_maximized(f.toplevel.toplevel)
        #expect(f.shell.client.roundtrip())
        #expect(f.toplevel.ackAndRedraw(argb: Colour.red))
        let maximized = f.window.frame
        f.key(Self.keyLeftMeta, true)
        f.button(BTN_LEFT, true)
        f.pointer(190, 170)
        f.button(BTN_LEFT, false)
        #expect(f.window.frame == maximized)
        #expect(f.buttonsSeen().count == 2)
    }

    @Test func theBindingClickMakesTheWindowKey() throws {
        let f = try Fixture()
        let other = try #require(f.shell.makeToplevel())
        #expect(other.map(width: 50, height: 50, argb: Colour.blue))
        #expect(f.server.windows.keyWindow !== f.window)
        f.key(Self.keyLeftMeta, true)
        f.button(BTN_LEFT, true)
        f.button(BTN_LEFT, false)
        #expect(f.server.windows.keyWindow === f.window)
    }
}
