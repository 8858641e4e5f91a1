import CStrataClientGlue
import CWaylandClient
import StrataTestSupport
import Testing

/// Colours the xdg tests draw with (opaque, so the canvas keeps them as they are).
enum Colour {
    static let red: UInt32 = 0xffff_0000
    static let green: UInt32 = 0xff00_ff00
    static let blue: UInt32 = 0xff00_00ff
    static let yellow: UInt32 = 0xffff_ff00
    static let background = TestServer.background
}

/// Flushes the client's requests and expects the server to have killed it with `code` on an
/// object of `interface`. Pass nil for `interface` when the error is raised on an object the
/// client's destructor request already destroyed on its side (libwayland then names no interface).
func expectXdgProtocolError(
    _ client: TestClient, code: UInt32, interface: String?,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!client.roundtrip(), "the client should have been disconnected", sourceLocation: sourceLocation)
    #expect(client.protocolError?.code == code, "error code", sourceLocation: sourceLocation)
    if let interface {
        #expect(client.protocolError?.interface == interface, "error interface", sourceLocation: sourceLocation)
    }
}

/// A server with one 640×480 screen and one client with the xdg globals bound.
func makeXdgFixture() throws -> (server: TestServer, shell: TestXdgShell) {
    let server = try TestServer()
    let client = try TestClient(server: server)
    return (server, try TestXdgShell(client: client))
}
