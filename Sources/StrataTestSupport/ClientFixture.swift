import StrataModel
import StrataServer

/// The in-process suites' one fixture: a server, a client with its xdg shell and seat, and what
/// a test reaches through them. A suite keeps the objects of its own protocol beside it.
/// Released in declaration order: the seat and shell before the connection they live on, the
/// connection before the server it steps.
public final class ClientFixture {
    public let seat: TestSeat
    public let shell: TestXdgShell
    public var client: TestClient { shell.client }
    public var server: TestServer { shell.server }

    /// A new client on `server`.
    public init(server: TestServer) throws {
        shell = try TestXdgShell(client: TestClient(server: server))
        seat = try TestSeat(client: shell.client)
    }

    /// A new server with headless screens of `width`×`height`, and a client on it.
    public convenience init(screens: Int = 1, width: Int = 640, height: Int = 480) throws {
        try self.init(server: TestServer(screens: screens, width: width, height: height))
    }

    /// A new server with headless screens offering `modes`, and a client on it.
    public convenience init(screens: Int = 1, modes: [ScreenMode]) throws {
        try self.init(server: TestServer(screens: screens, modes: modes))
    }

    /// The server's seat (input the test injects).
    public var input: Seat { server.compositor.seat }
    /// The main screen.
    public var output: ScreenOutput { server.compositor.scene.outputs[0] }

    /// A `width`×`height` surface of `argb` shown at (`x`, `y`) without a shell role.
    public func showSurface(width: Int32, height: Int32, argb: UInt32 = 0xff80_8080, x: Int, y: Int) throws
        -> TestSurface
    {
        let surface = try client.makeSurface(width: width, height: height, argb: argb)
        client.showPlainSurface(surface, x: x, y: y)
        return surface
    }

    /// Moves the pointer to (`x`, `y`) of the main screen and lets the client read what followed.
    public func pointAt(_ x: Double, _ y: Double, time: UInt32 = 1) {
        input.pointerMotion(on: output, x: x, y: y, time: time)
        client.roundtrip()
    }
}
