import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A headless screen paints its first frame when something needs it, not as it connects
/// (`Backend.showsFrames`; docs/performance.md, "Start-up").
@Suite struct FirstFrameTests {
    @Test func aHeadlessScreenPaintsNothingUntilAClientCommitsAndThenPaintsItAll() throws {
        let server = try TestServer(width: 200, height: 100)
        let output = server.compositor.scene.outputs[0]
        for _ in 0..<5 { server.step(timeout: 0.02) }
        #expect(output.paintedFrames == 0)
        #expect(!output.isFrameScheduled)
        #expect(!output.damage.isEmpty)

        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 20, height: 20, argb: 0xffff_0000))
        #expect(output.isFrameScheduled)
        server.repaint()
        #expect(output.paintedFrames == 1)
        // The whole screen: the background the start did not paint, and the window.
        let window = try #require(server.windows.windows.last)
        let origin = window.frame.origin
        #expect(output.canvas.pixel(x: 199, y: 99) == TestServer.background)
        #expect(output.canvas.pixel(x: Int32(origin.x) + 5, y: Int32(origin.y) + 5) == 0xffff_0000)
    }

    @Test func aScreenshotOfAnUntouchedHeadlessScreenShowsTheBackground() throws {
        let server = try TestServer(width: 64, height: 48)
        let output = server.compositor.scene.outputs[0]
        server.step(timeout: 0.02)
        #expect(output.paintedFrames == 0)
        // What a screenshot, `strata-ctl screenshot` and a screencopy do first.
        server.compositor.scene.repaintDamagedScreens()
        #expect(output.paintedFrames == 1)
        #expect(output.canvas.pixel(x: 0, y: 0) == TestServer.background)
        #expect(output.canvas.pixel(x: 63, y: 47) == TestServer.background)
        #expect(output.damage.isEmpty)
    }

    @Test func aScreenAddedLaterWaitsToo() throws {
        let server = try TestServer(width: 64, height: 48)
        let added = try #require(
            server.backend.addScreen(to: server.compositor, modes: [ScreenMode(width: 32, height: 32)]))
        server.step(timeout: 0.02)
        #expect(added.paintedFrames == 0)
        #expect(server.compositor.scene.outputs[0].paintedFrames == 0)
        // Painted when read: an empty external screen mirrors the main one, letterboxed.
        #expect(server.pixel(x: 16, y: 16, screen: 1) == TestServer.background)
        #expect(server.pixel(x: 16, y: 31, screen: 1) == 0xff00_0000)
        #expect(added.paintedFrames == 1)
    }
}
