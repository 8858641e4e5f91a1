import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// strata_window_v1.make_key follows `FocusRequestRule`: a background client does not take the
/// keyboard; the key window's client, a privileged client, the client of the user's latest press,
/// and any client while no window is key, do.
@Suite struct FocusRequestTests {
    /// A client with one mapped toplevel (app id `appID`) and its strata_window_v1.
    private struct Party {
        let client: TestClient
        let shell: TestXdgShell
        let manager: TestWindowManager
        let toplevel: TestToplevel
        let object: TestStrataWindow
    }

    private static func party(_ server: TestServer, appID: String, origin: ClientOrigin = .socket, color: UInt32) throws
        -> Party
    {
        let client = try TestClient(server: server, origin: origin)
        let shell = try TestXdgShell(client: client)
        let manager = try TestWindowManager(client: client)
        let (toplevel, object) = try makeExtendedToplevel(shell, manager: manager, appID: appID)
        #expect(toplevel.map(argb: color))
        return Party(client: client, shell: shell, manager: manager, toplevel: toplevel, object: object)
    }

    /// Strata's default trust: only connections Strata made are privileged.
    private static func server(policy: KeyWindowPolicy = UIKitKeyWindowPolicy()) throws -> TestServer {
        let server = try TestServer(policy: policy)
        server.compositor.clientPrivilege = .startedByStrata
        return server
    }

    private static func makeKey(_ party: Party, _ server: TestServer) {
        party.object.makeKey()
        _ = party.client.roundtrip()
    }

    @Test func makeKeyFromABackgroundOrdinaryClientIsRefusedAndLoggedAtMostOnceASecond() throws {
        let server = try Self.server()
        var lines: [String] = []
        server.compositor.log = { lines.append($0) }
        let background = try Self.party(server, appID: "background", color: Colour.red)
        let typing = try Self.party(server, appID: "typing", color: Colour.green)
        #expect(server.windows.keyWindow?.appID == "typing")
        Self.makeKey(background, server)
        #expect(server.windows.keyWindow?.appID == "typing")
        #expect(server.compositor.focusRequests.refused == 1)
        #expect(lines.count == 1 && lines.first?.contains("focus request refused: make_key") == true)
        // A flood: every request refused, no more lines within the second.
        for _ in 0..<1000 { background.object.makeKey() }
        #expect(background.client.roundtrip())
        #expect(server.windows.keyWindow?.appID == "typing")
        #expect(server.compositor.focusRequests.refused == 1001)
        #expect(lines.count == 1)
        withExtendedLifetime((background, typing)) {}
    }

    @Test func makeKeyFromTheKeyWindowsOwnClientIsHonoured() throws {
        let server = try Self.server()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let manager = try TestWindowManager(client: client)
        let (first, firstObject) = try makeExtendedToplevel(shell, manager: manager, appID: "first")
        #expect(first.map(argb: Colour.red))
        let (second, _) = try makeExtendedToplevel(shell, manager: manager, appID: "second")
        #expect(second.map(argb: Colour.green))
        #expect(server.windows.keyWindow?.appID == "second")
        firstObject.makeKey()
        #expect(client.roundtrip())
        #expect(server.windows.keyWindow?.appID == "first")
        #expect(server.compositor.focusRequests.refused == 0)
    }

    @Test func makeKeyFromAPrivilegedClientIsHonoured() throws {
        let server = try Self.server()
        let tool = try Self.party(server, appID: "tool", origin: .startedByStrata, color: Colour.red)
        let typing = try Self.party(server, appID: "typing", color: Colour.green)
        #expect(server.windows.keyWindow?.appID == "typing")
        Self.makeKey(tool, server)
        #expect(server.windows.keyWindow?.appID == "tool")
        withExtendedLifetime(typing) {}
    }

    @Test func makeKeyWhileNoWindowIsKeyIsHonoured() throws {
        let server = try Self.server()
        let background = try Self.party(server, appID: "background", color: Colour.red)
        let typing = try Self.party(server, appID: "typing", color: Colour.green)
        server.windows.resignKey()
        #expect(server.windows.keyWindow == nil)
        Self.makeKey(background, server)
        #expect(server.windows.keyWindow?.appID == "background")
        withExtendedLifetime(typing) {}
    }

    /// Under the explicit policy a click does not make a window key: the clicked client then
    /// has the user's latest press, and its make_key is honoured; a key press in the key window
    /// takes that back.
    @Test func makeKeyFromTheClientOfTheLatestPressIsHonouredUntilTheUserTypesElsewhere() throws {
        let server = try Self.server(policy: ExplicitKeyPolicy())
        let clicked = try Self.party(server, appID: "clicked", color: Colour.red)
        let typing = try Self.party(server, appID: "typing", color: Colour.green)
        let clickedModel = try #require(server.windows.windows.first { $0.appID == "clicked" })
        let typingModel = try #require(server.windows.windows.first { $0.appID == "typing" })
        server.compositor.windows.setFrame(clickedModel, Rect(x: 0, y: 0, width: 100, height: 100))
        server.compositor.windows.setFrame(typingModel, Rect(x: 300, y: 0, width: 100, height: 100))
        #expect(server.windows.keyWindow === typingModel)
        // A key press in the key window, then make_key from the other client: refused.
        server.compositor.seat.key(30, pressed: true, time: 1)
        server.compositor.seat.key(30, pressed: false, time: 2)
        Self.makeKey(clicked, server)
        #expect(server.windows.keyWindow === typingModel)
        // The user clicks the other window (not made key by the policy): its make_key is honoured.
        let output = server.compositor.scene.outputs[0]
        server.compositor.seat.pointerMotion(on: output, x: 50, y: 50, time: 3)
        server.compositor.seat.pointerButton(0x110, pressed: true, time: 4)
        server.compositor.seat.pointerButton(0x110, pressed: false, time: 5)
        #expect(server.windows.keyWindow === typingModel)
        Self.makeKey(clicked, server)
        #expect(server.windows.keyWindow === clickedModel)
        #expect(server.compositor.focusRequests.refused == 1)
        withExtendedLifetime(typing) {}
    }
}
