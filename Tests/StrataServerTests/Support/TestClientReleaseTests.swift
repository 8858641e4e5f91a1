import CWaylandClient
import StrataProcess
import StrataTestSupport
import Testing

/// What the suite counts on when a test lets a client go: the server has seen it go by the time
/// the release returns (the release waits for the hang-up, which can come late under load).
@Suite struct TestClientReleaseTests {
    @Test func releasedClientsAreGoneFromTheServerWhenTheirReleaseReturns() throws {
        let server = try TestServer()
        #expect(server.connectedClients == 0)
        var clients = try (0..<3).map { _ in try TestClient(server: server) }
        var raw: RawClient? = try RawClient(server: server)
        #expect(server.connectedClients == 4)
        clients.removeLast()
        #expect(server.connectedClients == 3)
        raw = nil
        #expect(server.connectedClients == 2)
        clients.removeAll()
        #expect(server.connectedClients == 0)
        withExtendedLifetime(raw) {}
    }

    /// The hang-up comes once every copy of the client's socket is closed: here another process
    /// holds a copy for a moment, as the posix_spawn child of another test thread does until its
    /// exec. The release still returns with the client gone.
    @Test func aReleaseWaitsForTheHangUpWhileAnotherProcessHoldsTheSocket() throws {
        let server = try TestServer()
        var client: TestClient? = try TestClient(server: server)
        var launch = ProcessLaunch(["sleep", "0.3"])
        launch.inheritedDescriptors = [wl_display_get_fd(try #require(client).display)]
        let holder = try launch.spawn()
        client = nil
        #expect(server.connectedClients == 0)
        #expect(ExitStatus.wait(holder) == 0)
        withExtendedLifetime(client) {}
    }
}
