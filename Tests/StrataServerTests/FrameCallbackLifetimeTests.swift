import CWaylandClient
import StrataTestSupport
import Testing

/// Frame callbacks of a surface destroyed before its frame: they go with the surface, not with
/// the client (Xwayland is one long-lived client whose X windows' surfaces come and go; the soak
/// with X programs found its callbacks piling up).
@Suite("Frame callbacks outlive no surface")
struct FrameCallbackLifetimeTests {
    @Test func aDestroyedSurfacesPendingFrameCallbacksAreDestroyedWithIt() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        #expect(client.roundtrip())
        let baseline = server.liveCounts
        // 100 surfaces, each with a frame callback applied by a commit (never shown: no role, so
        // no frame), then destroyed.
        for _ in 0..<100 {
            let surface = try #require(shell.makeSurface())
            let callback = try #require(wl_surface_frame(surface))
            wl_surface_commit(surface)
            wl_surface_destroy(surface)
            wl_callback_destroy(callback)
        }
        #expect(client.roundtrip())
        server.step()
        #expect(server.liveCounts == baseline, "\(server.liveCounts)")
    }
}
