import CStrataClientGlue
import CWaylandClient
import StrataControlProtocol
import StrataServer
import StrataTestSupport
import Testing

/// Input injected through the control socket (`strata-ctl input …`) is input for the idle
/// notifications (ext_idle_notifier_v1): it resumes them.
@Suite struct IdleControlTests {
    @Test(
        arguments: [
            ["command": "pointer-move", "x": 5, "y": 5],
            ["command": "pointer-button", "button": "left", "state": "down"],
            ["command": "key", "key": "a"],
            ["command": "touch", "phase": "down", "touch_id": 1, "x": 3, "y": 3],
        ] as [[String: JSONValue]])
    func injectedInputResumesIdleNotifications(_ request: [String: JSONValue]) throws {
        let harness = try ControlHarness()
        let client = try TestClient(server: harness.server)
        let seat = try TestSeat(client: client)
        let notifier = try client.bind(ext_idle_notifier_v1_interface_ptr(), version: 2)
        // A day: only the input can end the idle state within the test.
        harness.server.compositor.seat.idle.clock = { 0 }
        let note = try TestIdleNotification(notifier: notifier, seat: seat.seat, timeoutMilliseconds: 86_400_000)
        client.roundtrip()
        harness.server.compositor.seat.idle.clock = { 86_400_000_000_000 }
        harness.server.compositor.seat.idle.deadlineDidPass()
        client.roundtrip()
        #expect(note.takeEvents() == ["idled"])
        #expect(try harness.request(request).isOK)
        client.roundtrip()
        #expect(note.takeEvents() == ["resumed"])
    }
}
