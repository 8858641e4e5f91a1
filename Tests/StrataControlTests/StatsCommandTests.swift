import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import StrataTrace
import Testing

/// `stats` in process: real clients map, a client's make_key is refused, a click and another
/// client's make_key switch key, typed keys reach the key window, and the reply counts them (docs/control.md, "Focus metrics").
@Suite struct StatsCommandTests {
    /// A client with one mapped toplevel (app id `appID`) and its strata_window_v1.
    private struct Party {
        let client: TestClient
        let shell: TestXdgShell
        let manager: TestWindowManager
        let toplevel: TestToplevel
        let object: TestStrataWindow
    }

    private static func party(_ server: TestServer, appID: String, origin: ClientOrigin, color: UInt32) throws
        -> Party
    {
        let client = try TestClient(server: server, origin: origin)
        let shell = try TestXdgShell(client: client)
        let manager = try TestWindowManager(client: client)
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_app_id(toplevel.toplevel, appID)
        let object = try #require(manager.window(for: toplevel))
        #expect(toplevel.map(argb: color))
        return Party(client: client, shell: shell, manager: manager, toplevel: toplevel, object: object)
    }

    @Test func aClickAClientsMakeKeyAndTypedKeysAreCounted() throws {
        let harness = try ControlHarness(clock: .manual)
        harness.server.compositor.clientPrivilege = .startedByStrata  // Strata's default trust
        let path = harness.directory + "/stats.trace"
        let recording = try harness.connect()
        #expect(try recording.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        #expect(try harness.request(["command": "step", "frames": 3]).isOK)
        let first = try Self.party(harness.server, appID: "metrics.first", origin: .socket, color: 0xffff0000)
        let second = try Self.party(
            harness.server, appID: "metrics.second", origin: .startedByStrata, color: 0xff00ff00)
        let windows = harness.windows
        let firstWindow = try #require(windows.windows.first { $0.appID == "metrics.first" })
        let secondWindow = try #require(windows.windows.first { $0.appID == "metrics.second" })
        #expect(windows.keyWindow === secondWindow)
        windows.setFrame(secondWindow, Rect(x: 600, y: 400, width: 100, height: 100))

        // The first client asks for key from the background (no press of it yet, not
        // privileged): refused.
        first.object.makeKey()
        #expect(first.client.roundtrip())
        #expect(windows.keyWindow === secondWindow)

        // A click in the first window makes it key; two keys typed at once go to it.
        let click = try harness.request([
            "command": "pointer-click", "x": JSONValue(firstWindow.frame.x + 5),
            "y": JSONValue(firstWindow.frame.y + 5),
        ])
        #expect(click.isOK, "\(click)")
        #expect(windows.keyWindow === firstWindow)
        #expect(try harness.request(["command": "type", "text": "ab"]).isOK)
        // 40 frames later (two thirds of a second), a third key: not within 500 ms of key.
        #expect(try harness.request(["command": "step", "frames": 40]).isOK)
        #expect(try harness.request(["command": "type", "text": "c"]).isOK)

        // The second client asks for key (strata_window_v1.make_key; privileged: granted); a
        // key typed at once goes to it.
        second.object.makeKey()
        #expect(second.client.roundtrip())
        #expect(windows.keyWindow === secondWindow)
        #expect(try harness.request(["command": "type", "text": "d"]).isOK)

        let reply = try harness.request(["command": "stats"])
        #expect(reply.isOK, "\(reply)")
        let run = try #require(reply["run"])
        // Two maps, the click, the make_key.
        #expect(run["key_switches"]?["total"] == 4, "\(run)")
        #expect(run["key_switches"]?["by_cause"] == ["map": 2, "click": 1, "focus-request": 1])
        #expect(run["focus_requests"] == ["made": 2, "granted": 1, "refused": 1])
        #expect(reply["apps"]?["metrics.first"]?["focus_requests"] == ["made": 1, "granted": 0, "refused": 1])
        #expect(reply["apps"]?["metrics.second"]?["focus_requests"] == ["made": 1, "granted": 1, "refused": 0])
        // Under the manual clock each key change came in the same instant as its request (a map's
        // commit, the click, the make_key).
        #expect(run["request_to_key"] == ["count": 4, "mean_ms": 0, "max_ms": 0, "mean_frames": 0, "max_frames": 0])
        // "a", "b" and "d" within 500 ms of their window becoming key; "c" not.
        let firstID = String(firstWindow.id.rawValue), secondID = String(secondWindow.id.rawValue)
        #expect(
            run["keystrokes_after_key"] == [
                "window_ms": 500, "count": 3, "by_window": .object([firstID: 2, secondID: 1]),
            ])
        #expect(reply["apps"]?["metrics.first"]?["keystrokes_after_key"]?["count"] == 2)
        #expect(reply["apps"]?["metrics.first"]?["key_switches"]?["total"] == 2)

        // A wider window takes "c" too; a bad one is refused in words.
        let wide = try harness.request(["command": "stats", "window_ms": 5000])
        #expect(wide["run"]?["keystrokes_after_key"]?["count"] == 4)
        let bad = try harness.request(["command": "stats", "window_ms": 0])
        #expect(bad.errorCode == "invalid_argument")
        #expect(bad["error"]?["message"]?.stringValue == "\"window_ms\" must be between 1 and 10000")

        // The trace of the same run gives the same numbers (the report's Focus panel).
        #expect(try recording.request(["command": "record", "action": "stop"]).isOK)
        let traced = FocusMetrics(trace: try TraceFile(path: path)).json()
        #expect(traced["run"] == reply["run"])
        #expect(traced["apps"] == reply["apps"])
        withExtendedLifetime((first, second)) {}
    }
}
