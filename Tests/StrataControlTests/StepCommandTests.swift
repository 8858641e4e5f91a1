import StrataControl
import StrataControlProtocol
import StrataServer
import StrataTestSupport
import Testing

/// `step` and `hello`'s `clock`: the manual clock through the socket.
@Suite struct StepCommandTests {
    @Test func helloReportsTheClock() throws {
        #expect(try ControlHarness().request(["command": "hello"])["clock"] == "realtime")
        #expect(try ControlHarness(clock: .manual).request(["command": "hello"])["clock"] == "manual")
    }

    @Test func stepAdvancesTheManualClockByFrames() throws {
        let harness = try ControlHarness(clock: .manual)
        let one = try harness.request(["command": "step"])
        #expect(one.isOK)
        #expect(one["frames"]?.intValue == 1)
        #expect(one["time_ns"]?.intValue == 16_666_667)
        #expect(
            harness.server.compositor.scene.outputs[0].frames == 0, "a headless screen paints when something needs it")
        harness.server.compositor.scene.damageAll(harness.server.compositor.scene.outputs[0])
        _ = try harness.request(["command": "step", "frames": 1])
        #expect(harness.server.compositor.scene.outputs[0].frames == 1)
        let three = try harness.request(["command": "step", "frames": 3])
        #expect(three["frames"]?.intValue == 3)
        let afterThree = 16_666_667 + 1 + 3 * 16_666_667
        #expect(three["time_ns"]?.intValue == afterThree)
    }

    @Test(arguments: [
        JSONValue(0), JSONValue(-1), JSONValue(36_001), "many", JSONValue(1.5), JSONValue(true), ["frames"],
    ])
    func stepWithABadFrameCountIsAnInvalidArgument(frames: JSONValue) throws {
        let harness = try ControlHarness(clock: .manual)
        let reply = try harness.request(["command": "step", "frames": frames])
        #expect(reply.errorCode == "invalid_argument")
        #expect(harness.server.compositor.clock.nanoseconds == 0, "nothing stepped")
    }

    @Test func stepUnderTheRealtimeClockIsRefusedWithAClearError() throws {
        let reply = try ControlHarness().request(["command": "step", "frames": 2])
        #expect(reply.errorCode == "unsupported")
        #expect(reply["error"]?["message"]?.stringValue?.contains("--clock manual") == true)
    }
}
