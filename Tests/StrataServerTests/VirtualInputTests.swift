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
        #expect(position.output === server.compositor.outputs[1] && position.x == 150 && position.y == 100)
        // Relative: back across onto the first screen, clamped at its top.
        zwlr_virtual_pointer_v1_motion(pointer, 0, wl_fixed_from_double(-200), wl_fixed_from_double(-500))
        #expect(client.roundtrip())
        position = try #require(server.compositor.seat.pointerPosition)
        #expect(position.output === server.compositor.outputs[0] && position.x == 250 && position.y == 0)
        zwlr_virtual_pointer_v1_axis(pointer, 0, 7, wl_fixed_from_int(1))
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue)
    }

    @Test func unprivilegedClientsSeeNeitherManager() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        let client = try TestClient(server: server)
        #expect(client.globals["zwp_virtual_keyboard_manager_v1"] == nil && client.globals["zwlr_virtual_pointer_manager_v1"] == nil)
    }
}
