import CStrataClientGlue
import CWaylandClient
import StrataControlProtocol
import StrataServer
import StrataTestSupport
import Testing

/// `settle`: the reply waits until the shown windows stop changing, or names them at the timeout.
@Suite struct SettleCommandTests {
    /// A client window that draws a new frame at every frame callback while `animating`.
    final class Animation {
        let toplevel: TestToplevel
        var animating = true
        var frames = 0
        private var callback: TestFrameCallback?

        init(toplevel: TestToplevel) { self.toplevel = toplevel }

        func drawFrame() {
            frames += 1
            callback = TestFrameCallback(surface: toplevel.surface)
            callback?.onDone = { [unowned self] in if animating { drawFrame() } }
            wl_surface_damage_buffer(toplevel.surface, 0, 0, 10, 10)
            toplevel.commit()
        }
    }

    private func mappedWindow(_ harness: ControlHarness, appID: String, title: String) throws -> (TestClient, Animation)
    {
        let client = try TestClient(server: harness.server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, appID)
        xdg_toplevel_set_title(toplevel.toplevel, title)
        #expect(toplevel.map(argb: 0xff11_2233))
        return (client, Animation(toplevel: toplevel))
    }

    /// Sends `settle` and steps the client (and through it the server) until the reply comes.
    private func settle(_ harness: ControlHarness, _ client: TestClient, frames: Int = 2, timeout: Double) throws
        -> JSONValue?
    {
        let raw = try harness.connect()
        raw.send(
            String(
                decoding: JSONValue.object([
                    "id": 1, "command": "settle", "frames": JSONValue(frames), "timeout": JSONValue(timeout),
                ]).encodedLine(), as: UTF8.self) + "\n")
        var reply: JSONValue?
        client.wait(seconds: timeout + 10) {
            reply = raw.pollLine()
            return reply != nil
        }
        return reply
    }

    @Test func aClientThatKeepsDrawingNeverSettlesAndTheTimeoutNamesIt() throws {
        let harness = try ControlHarness()
        let (client, animation) = try mappedWindow(harness, appID: "spinner.test", title: "Spinning")
        animation.drawFrame()
        let reply = try #require(try settle(harness, client, timeout: 0.5))
        #expect(reply.errorCode == "failed")
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("spinner.test"), "\(message)")
        #expect(message.contains("\"Spinning\""), "\(message)")
        #expect(reply["windows"]?.arrayValue?.first?["app_id"]?.stringValue == "spinner.test")
        #expect(animation.frames > 5, "the client kept drawing meanwhile: the loop was not blocked")
    }

    @Test func aClientThatStopsDrawingSettles() throws {
        let harness = try ControlHarness()
        let (client, animation) = try mappedWindow(harness, appID: "calm.test", title: "Calm")
        animation.drawFrame()
        #expect(client.wait { animation.frames >= 5 })
        animation.animating = false
        let reply = try #require(try settle(harness, client, frames: 3, timeout: 5))
        #expect(reply.isOK, "\(reply)")
        #expect(reply["frames"]?.intValue == 3)
    }

    @Test func anEmptyDesktopSettlesAndBadArgumentsAreRefused() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "settle", "timeout": 2]).isOK)
        #expect(try harness.request(["command": "settle", "frames": 0]).errorCode == "invalid_argument")
        #expect(try harness.request(["command": "settle", "timeout": -1]).errorCode == "invalid_argument")
        #expect(try harness.request(["command": "settle", "timeout": "soon"]).errorCode == "invalid_argument")
    }

    @Test func underTheManualClockSettledMeansTheClientAnsweredTheStep() throws {
        let harness = try ControlHarness(clock: .manual)
        let (client, animation) = try mappedWindow(harness, appID: "stepped.test", title: "Stepped")
        animation.drawFrame()
        client.roundtrip()
        // The client draws once per step: it waits for the step's frame callback, and settles.
        for _ in 0..<3 {
            let before = animation.frames
            #expect(try harness.request(["command": "step"]).isOK)
            let reply = try #require(try settle(harness, client, timeout: 5))
            #expect(reply.isOK, "\(reply)")
            #expect(animation.frames == before + 1, "the step's callback was answered before settle replied")
        }
    }
}
