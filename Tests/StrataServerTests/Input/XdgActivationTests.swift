import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// xdg_activation_v1: a window becomes key by token only when the token came from the user's
/// interaction with the key window.
@Suite struct XdgActivationTests {
    final class TokenRecord { var token: String? }
    static var tokenListener = xdg_activation_token_v1_listener(done: { data, _, token in
        Unmanaged<TokenRecord>.fromOpaque(data!).takeUnretainedValue().token = String(cString: token!)
    })

    static func token(
        _ activation: OpaquePointer, client: TestClient, serial: UInt32?, seat: OpaquePointer, surface: OpaquePointer?
    ) -> String? {
        let object = xdg_activation_v1_get_activation_token(activation)
        let record = TokenRecord()
        xdg_activation_token_v1_add_listener(object, &tokenListener, Unmanaged.passUnretained(record).toOpaque())
        if let serial { xdg_activation_token_v1_set_serial(object, serial, seat) }
        if let surface { xdg_activation_token_v1_set_surface(object, surface) }
        xdg_activation_token_v1_commit(object)
        _ = client.roundtrip()
        xdg_activation_token_v1_destroy(object)
        return withExtendedLifetime(record) { record.token }
    }

    @Test func onlyATokenFromTheKeyWindowsInputActivatesAnotherWindow() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let seat = try TestSeat(client: client)
        _ = seat.getKeyboard()
        let first = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(first.toplevel, "first")
        #expect(first.map(argb: 0xffff_0000))
        let second = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(second.toplevel, "second")
        #expect(second.map(argb: 0xff00_ff00))
        #expect(server.windows.keyWindow?.title == "second")
        let activation = try client.bind(xdg_activation_v1_interface_ptr())

        // A made-up token, and a token without an input serial, steal nothing.
        xdg_activation_v1_activate(activation, "made-up", first.surface)
        let noSerial = try #require(
            Self.token(activation, client: client, serial: nil, seat: seat.seat, surface: second.surface))
        xdg_activation_v1_activate(activation, noSerial, first.surface)
        #expect(client.roundtrip())
        #expect(server.windows.keyWindow?.title == "second")

        // A key press in the key window gives a serial; its token activates the first window, once.
        server.compositor.seat.key(30, pressed: true, time: 1)
        #expect(client.roundtrip())
        let serial = seat.lastPressSerial
        let granted = try #require(
            Self.token(activation, client: client, serial: serial, seat: seat.seat, surface: second.surface))
        xdg_activation_v1_activate(activation, granted, first.surface)
        #expect(client.roundtrip())
        #expect(server.windows.keyWindow?.title == "first")
        _ = server.windows.makeKey(try #require(server.windows.windows.first { $0.title == "second" }))
        xdg_activation_v1_activate(activation, granted, first.surface)
        #expect(client.roundtrip())
        #expect(server.windows.keyWindow?.title == "second")
        #expect(server.compositor.activation.activations == 1 && server.compositor.activation.refusals == 3)
        withExtendedLifetime((first, second)) {}
    }

    @Test func committingATokenTwiceIsAnAlreadyUsedError() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let activation = try client.bind(xdg_activation_v1_interface_ptr())
        let object = xdg_activation_v1_get_activation_token(activation)
        xdg_activation_token_v1_commit(object)
        xdg_activation_token_v1_commit(object)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue)
    }
}
