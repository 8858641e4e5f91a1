import CStrataClientGlue
import CWaylandClient
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A question's times (docs/control.md, "Policy delegate"): `time_ns` when asked and
/// `state.last_key_ns` the last key press, both on the compositor's clock, so a policy can tell
/// whether the user is typing (examples/policies/no_focus_stealing.py).
@Suite struct PolicyQuestionTimeTests {
    @Test func aQuestionCarriesWhenItWasAskedAndTheLastKeyPress() throws {
        let harness = try ControlHarness(clock: .manual)
        let shell = try TestXdgShell(client: try TestClient(server: harness.server))
        var windows: [Window] = []
        for appID in ["a.test", "b.test"] {
            let toplevel = try #require(shell.makeToplevel())
            xdg_toplevel_set_app_id(toplevel.toplevel, appID)
            #expect(toplevel.map(width: 120, height: 90, argb: 0xff80_8080))
            windows.append(try #require(harness.windows.windows.first { $0.appID == appID }))
        }
        let delegate = try DelegatePeer(harness)
        #expect(delegate.request(["command": "delegate", "decisions": ["key"]])?.isOK == true)
        let driver = try DelegatePeer(harness)
        func click(_ window: Window) -> JSONValue? {
            #expect(
                driver.request([
                    "command": "pointer-click", "x": JSONValue(Double(window.frame.x + 3)),
                    "y": JSONValue(Double(window.frame.y + 3)),
                ])?.isOK == true)
            return delegate.nextQuestion()
        }
        #expect(driver.request(["command": "step", "frames": 2])?.isOK == true)

        // No key pressed yet: null (the manual clock's time 0 is a time like any other).
        let first = try #require(click(windows[0]))
        let asked = try #require(first["time_ns"]?.doubleValue)
        #expect(asked == Double(harness.server.compositor.clock.nanoseconds))
        #expect(first["state"]?["last_key_ns"]?.isNull == true)
        #expect(delegate.decide(first, ["key": true])?["applied"] == true)

        #expect(driver.request(["command": "type", "text": "hi"])?.isOK == true)
        let typed = harness.server.compositor.clock.nanoseconds
        #expect(driver.request(["command": "step", "frames": 3])?.isOK == true)
        let second = try #require(click(windows[1]))
        #expect(second["state"]?["last_key_ns"]?.doubleValue == Double(typed))
        let now = try #require(second["time_ns"]?.doubleValue)
        #expect(now > Double(typed))
        #expect(delegate.decide(second, "builtin")?.isOK == true)
    }
}
