import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// zwp_virtual_keyboard_v1 and zwlr_virtual_pointer_v1: a tool's input reaches the seat as if typed
/// and moved by hand.
@Suite struct VirtualInputTests {
    /// wtype's trick: a keymap whose keycodes 9 and 10 (evdev 1 and 2) are H and !.
    static let keymap = """
        xkb_keymap {
        xkb_keycodes "(unnamed)" { minimum = 8; maximum = 10; <K1> = 9; <K2> = 10; };
        xkb_types "(unnamed)" { include "complete" };
        xkb_compatibility "(unnamed)" { include "complete" };
        xkb_symbols "(unnamed)" { key <K1> {[ H ]}; key <K2> {[ exclam ]}; };
        };
        """

    static func sendKeymap(_ keyboard: OpaquePointer?) {
        let bytes = Array(keymap.utf8) + [0]
        let fd = strata_client_memfd("test-keymap")
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(bytes.count))
        close(fd)
    }

    @Test func keysAreTypedIntoTheKeyWindowByKeysym() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: 0xff00_00ff))
        let seat = try TestSeat(client: client)
        _ = seat.getKeyboard()
        let manager = try client.bind(zwp_virtual_keyboard_manager_v1_interface_ptr())
        let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat.seat)
        Self.sendKeymap(keyboard)
        #expect(client.roundtrip())
        _ = seat.takeEvents()
        // "H" (the seat's Shift + h: evdev 42, 35), then "!" (Shift + 1: 42, 2).
        for key: UInt32 in [1, 2] {
            zwp_virtual_keyboard_v1_key(keyboard, 0, key, 1)
            zwp_virtual_keyboard_v1_key(keyboard, 0, key, 0)
        }
        #expect(client.roundtrip())
        let keys = seat.takeEvents().compactMap { event -> String? in
            if case .key(let key, let pressed) = event { return "\(key)\(pressed ? "+" : "-")" }
            return nil
        }
        #expect(keys == ["42+", "35+", "35-", "42-", "42+", "2+", "2-", "42-"])
        withExtendedLifetime(toplevel) {}
    }

    @Test func aKeyBeforeAKeymapIsANoKeymapError() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let manager = try client.bind(zwp_virtual_keyboard_manager_v1_interface_ptr())
        let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat.seat)
        zwp_virtual_keyboard_v1_key(keyboard, 0, 30, 1)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP.rawValue)
    }

    @Test func pointerMotionAndButtonsReachTheSeat() throws {
        let server = try TestServer(screens: 2, width: 300, height: 200)
        let client = try TestClient(server: server)
        let manager = try client.bind(zwlr_virtual_pointer_manager_v1_interface_ptr(), version: 2)
        let pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil)
        // Absolute over both screens (600×200): the middle of the second one.
        zwlr_virtual_pointer_v1_motion_absolute(pointer, 0, 450, 100, 600, 200)
        zwlr_virtual_pointer_v1_frame(pointer)
        #expect(client.roundtrip())
        var position = try #require(server.compositor.seat.pointerPosition)
        #expect(position.output === server.compositor.scene.outputs[1] && position.x == 150 && position.y == 100)
        // Relative: back across onto the first screen, clamped at its top.
        zwlr_virtual_pointer_v1_motion(pointer, 0, wl_fixed_from_double(-200), wl_fixed_from_double(-500))
        zwlr_virtual_pointer_v1_frame(pointer)
        #expect(client.roundtrip())
        position = try #require(server.compositor.seat.pointerPosition)
        #expect(position.output === server.compositor.scene.outputs[0] && position.x == 250 && position.y == 0)
        zwlr_virtual_pointer_v1_axis(pointer, 0, 7, wl_fixed_from_int(1))
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue)
    }

    /// A receiving client with a 400×400 window at the origin and the pointer over it at (20, 30),
    /// and a tool client with a virtual pointer (WLCS's VirtualPointerV1Test fixture). Torn
    /// down in order: the clients, then the server they step as they disconnect.
    final class PointerFixture {
        private(set) var receiver: TestClient!
        private(set) var seat: TestSeat!
        private(set) var surface: TestSurface!
        private(set) var tool: TestClient!
        private(set) var server: TestServer!
        let pointer: OpaquePointer

        init(seatVersion: UInt32) throws {
            let server = try TestServer()
            let receiver = try TestClient(server: server)
            let seat = try TestSeat(client: receiver, version: seatVersion)
            seat.getPointer()
            let surface = try receiver.makeSurface(width: 400, height: 400)
            receiver.showPlainSurface(surface, x: 0, y: 0)
            server.compositor.seat.pointerMotion(on: server.compositor.scene.outputs[0], x: 20, y: 30, time: 1)
            #expect(receiver.roundtrip())
            _ = seat.takeEvents()
            let tool = try TestClient(server: server)
            let manager = try tool.bind(zwlr_virtual_pointer_manager_v1_interface_ptr(), version: 2)
            pointer = try #require(zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil))
            (self.server, self.receiver, self.seat, self.surface, self.tool) = (server, receiver, seat, surface, tool)
        }

        deinit {
            (seat, surface, receiver, tool) = (nil, nil, nil, nil)
            server = nil
        }
    }

    static func virtualPointerFixture(seatVersion: UInt32 = 8) throws -> PointerFixture {
        try PointerFixture(seatVersion: seatVersion)
    }

    @Test func virtualPointerEventsWaitForFrameAndArriveAsOneGroup() throws {
        let f = try Self.virtualPointerFixture()
        zwlr_virtual_pointer_v1_motion(f.pointer, 0, wl_fixed_from_int(6), wl_fixed_from_int(7))
        zwlr_virtual_pointer_v1_motion(f.pointer, 0, wl_fixed_from_int(1), wl_fixed_from_int(1))
        zwlr_virtual_pointer_v1_button(f.pointer, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED.rawValue)
        zwlr_virtual_pointer_v1_axis(f.pointer, 0, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, wl_fixed_from_int(5))
        zwlr_virtual_pointer_v1_axis_source(f.pointer, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
        #expect(f.tool.roundtrip())
        #expect(f.receiver.roundtrip())
        // No frame yet: the client sees nothing (WLCS if_frame_is_not_sent_client_sees_no_events).
        #expect(f.seat.takeEvents() == [])
        zwlr_virtual_pointer_v1_frame(f.pointer)
        #expect(f.tool.roundtrip())
        #expect(f.receiver.roundtrip())
        #expect(
            f.seat.takeEvents() == [
                .pointerMotion(x: 27, y: 38), .pointerButton(button: BTN_LEFT, pressed: true),
                .pointerAxisSource(WL_POINTER_AXIS_SOURCE_WHEEL.rawValue),
                .pointerAxis(axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value: 5), .pointerFrame,
            ])
        withExtendedLifetime(f) {}
    }

    @Test func axisSourceSentAfterTheAxisStillLeadsTheFrame() throws {
        let f = try Self.virtualPointerFixture()
        for source in [WL_POINTER_AXIS_SOURCE_CONTINUOUS, WL_POINTER_AXIS_SOURCE_WHEEL] {
            zwlr_virtual_pointer_v1_axis(f.pointer, 0, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, wl_fixed_from_int(5))
            zwlr_virtual_pointer_v1_axis_source(f.pointer, source.rawValue)
            zwlr_virtual_pointer_v1_frame(f.pointer)
            #expect(f.tool.roundtrip())
            #expect(f.receiver.roundtrip())
            #expect(
                f.seat.takeEvents() == [
                    .pointerAxisSource(source.rawValue),
                    .pointerAxis(axis: WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, value: 5), .pointerFrame,
                ])
        }
        withExtendedLifetime(f) {}
    }

    @Test func discreteStepsAreAxisDiscreteBeforeVersion8AndValue120From8() throws {
        let horizontal = WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue
        for (version, steps) in [
            (UInt32(7), TestSeat.Event.pointerAxisDiscrete(axis: horizontal, discrete: 4)),
            (8, .pointerAxisValue120(axis: horizontal, value120: 480)),
        ] {
            let f = try Self.virtualPointerFixture(seatVersion: version)
            zwlr_virtual_pointer_v1_axis_discrete(f.pointer, 0, horizontal, wl_fixed_from_int(5), 4)
            zwlr_virtual_pointer_v1_axis_stop(f.pointer, 0, horizontal)
            zwlr_virtual_pointer_v1_frame(f.pointer)
            #expect(f.tool.roundtrip())
            #expect(f.receiver.roundtrip())
            #expect(
                f.seat.takeEvents() == [
                    steps, .pointerAxis(axis: horizontal, value: 5), .pointerAxisStop(axis: horizontal), .pointerFrame,
                ], "wl_pointer v\(version)")
            withExtendedLifetime(f) {}
        }
    }

    @Test func aPointerThatNeverSendsFrameIsFlushedAtTheQueueLimit() throws {
        let f = try Self.virtualPointerFixture()
        for _ in 0..<VirtualPointerManager.maximumPendingEvents {
            zwlr_virtual_pointer_v1_motion(f.pointer, 0, wl_fixed_from_double(0.25), 0)
        }
        #expect(f.tool.roundtrip())
        #expect(f.receiver.roundtrip())
        #expect(
            f.seat.takeEvents() == [
                .pointerMotion(x: 20 + Double(VirtualPointerManager.maximumPendingEvents) / 4, y: 30), .pointerFrame,
            ])
        withExtendedLifetime(f) {}
    }

    @Test func unprivilegedClientsSeeNeitherManager() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        let client = try TestClient(server: server)
        #expect(
            client.globals["zwp_virtual_keyboard_manager_v1"] == nil
                && client.globals["zwlr_virtual_pointer_manager_v1"] == nil)
    }
}
