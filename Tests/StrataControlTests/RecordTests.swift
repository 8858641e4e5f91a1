import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataRecording
import StrataServer
import StrataTestSupport
import StrataTrace
import Testing

/// `record start|stop` and the trace it writes (docs/experiments.md, "Traces").
@Suite struct RecordTests {
    func traceLines(_ path: String) throws -> [JSONValue] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
    }

    @Test func aRecordingHoldsTheHeaderCommandsEventsFramesAndAnEndLine() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/session.trace"
        let client = try harness.connect()
        #expect(
            try client.request(["command": "record", "action": "start", "path": .string(path)])["path"]?.stringValue
                == path)
        harness.window("a")
        harness.server.compositor.scene.damageAll(harness.server.compositor.scene.outputs[0])
        harness.server.repaint()
        #expect(try client.request(["command": "hide", "window": "a"]).isOK)
        let stopped = try client.request(["command": "record", "action": "stop"])
        #expect(stopped["path"]?.stringValue == path)
        let lines = try traceLines(path)
        #expect(stopped["lines"]?.intValue == lines.count)
        #expect(lines.first?["type"] == "header")
        #expect(lines.first?["version"]?.intValue == TraceFormat.version)
        #expect(lines.first?["clock"] == "realtime")
        #expect(lines.first?["policy"] == "uikit")
        #expect(lines.first?["screens"]?.arrayValue?.count == 1)
        #expect(lines.last?["type"] == "end")
        #expect(lines.last?["reason"] == "stopped")
        let events = lines.filter { $0["type"] == "event" }.compactMap { $0["name"]?.stringValue }
        #expect(
            events == [
                "windowDidOpen", "windowDidChangeFrame", "windowDidBecomeVisible", "windowDidBecomeKey",
                "windowDidResignKey", "windowDidBecomeHidden",
            ])
        let snapshots = lines.filter { $0["type"] == "windows" }
        #expect(snapshots.count == 3, "after the open, the show (visible and key: one line) and the hide")
        #expect(snapshots.last?["windows"]?.arrayValue?.first?["hidden"] == true)
        #expect(snapshots.last?["windows"]?.arrayValue?.first?["app_id"] == "a")
        let commands = lines.filter { $0["type"] == "command" }
        #expect(commands.count == 1, "the record commands themselves are not in the trace")
        #expect(commands.first?["request"]?["command"] == "hide")
        #expect(commands.first?["reply"]?["ok"] == true)
        #expect(
            commands.first?["sequence"]?.intValue == 5, "the model's sequence before the command ran (1: the screen)")
        let frames = lines.filter { $0["type"] == "frame" && $0["final"] == nil }
        #expect(frames.count == 1)
        let final = lines.filter { $0["type"] == "frame" && $0["final"] == true }
        #expect(final.count == 1, "each screen's picture at the end")
        #expect(final.first?["hash"] == frames.first?["hash"], "nothing was painted since")
        #expect(lines[lines.count - 2]["final"] == true)
        #expect(frames.first?["hash"]?.stringValue?.count == 16)
        #expect(frames.first?["damage"]?.arrayValue?.first == [0, 0, 640, 480])
    }

    /// Event lines are written by hand for the notifications of one window or one screen and
    /// through the JSON coder for the others: each must read back as the notification posted.
    @Test func everyEventLineReadsBackAsTheNotificationTheModelPosted() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/events.trace"
        var posted: [PostedNotification] = []
        let token = harness.windows.notifications.addObserver(phase: .recording) { posted.append($0) }
        defer { harness.windows.notifications.removeObserver(token) }
        let client = try harness.connect()
        #expect(try client.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        let window = harness.window("a")
        harness.windows.setLevel(window, .alert)
        harness.windows.setFrame(window, Rect(x: -20, y: 30, width: 200, height: 100))
        let screen = try #require(harness.windows.screens.first)
        harness.windows.setBrightness(0.5, for: screen)
        harness.windows.setMirroring(true, for: screen)
        harness.windows.lock()
        harness.windows.unlock()
        // With a cause: the cause's fields are in the line (written through the coder).
        let click = ChangeCause(.click, request: "pointer-button 272", requester: "user", requestedAt: 5)
        harness.windows.withCause(click) {
            let other = harness.windows.createWindow(appID: "b")
            harness.windows.show(other)
            harness.windows.refuseKey(window)
        }
        harness.windows.hide(window)
        #expect(try client.request(["command": "record", "action": "stop"]).isOK)
        let lines = try traceLines(path).filter { $0["type"] == "event" }
        let recorded = try lines.map { line in
            try JSONDecoder().decode(PostedNotification.self, from: Data(line.encodedLine()))
        }
        #expect(posted.count >= 10)
        #expect(recorded == posted)
        #expect(posted.contains { $0.cause?.decidedBy == "uikit" && $0.name == "windowDidBecomeKey" })
        let refusal = try #require(lines.first { $0["name"] == "keyRequestWasRefused" })
        #expect(refusal["cause"] == "click" && refusal["requester"] == "user" && refusal["requested_ns"] == 5)
        #expect(lines.first { $0["name"] == "windowDidOpen" && $0["cause"] != nil }?["origin"] != nil)
    }

    @Test func inputInjectedByACommandIsRecordedWithItsTarget() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/input.trace"
        let client = try harness.connect()
        #expect(try client.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        #expect(try client.request(["command": "pointer-move", "x": 20, "y": 30]).isOK)
        #expect(try client.request(["command": "key", "key": 30, "state": "down"]).isOK)
        #expect(try client.request(["command": "record", "action": "stop"]).isOK)
        let inputs = try traceLines(path).filter { $0["type"] == "input" }
        #expect(inputs.map { $0["input"]?.stringValue ?? "" } == ["pointer-motion", "key"])
        #expect(
            inputs.first?["x"]?.intValue == 20 && inputs.first?["y"]?.intValue == 30
                && inputs.first?["screen"]?.intValue == 1)
        #expect(inputs.last?["keycode"]?.intValue == 30 && inputs.last?["state"] == "down")
        #expect(inputs.allSatisfy { $0["during_command"] == true })
    }

    @Test func recordRefusesBadArgumentsWithClearErrors() throws {
        let harness = try ControlHarness()
        #expect(try harness.request(["command": "record", "action": "start"]).errorCode == "missing_argument")
        #expect(
            try harness.request(["command": "record", "action": "start", "path": "relative.trace"]).errorCode
                == "invalid_argument")
        #expect(try harness.request(["command": "record", "action": "pause"]).errorCode == "invalid_argument")
        #expect(try harness.request(["command": "record", "action": 3]).errorCode == "invalid_argument")
        #expect(try harness.request(["command": "record", "action": "stop"]).errorCode == "failed")
        #expect(
            try harness.request(["command": "record", "action": "start", "path": "/nonexistent-dir/x.trace"]).errorCode
                == "failed")
        let path = harness.directory + "/one.trace"
        #expect(try harness.request(["command": "record", "action": "start", "path": .string(path)]).isOK)
        let twice = try harness.request(["command": "record", "action": "start", "path": .string(path + "2")])
        #expect(twice.errorCode == "failed")
        #expect(twice["error"]?["message"]?.stringValue?.contains("already recording") == true)
        #expect(try harness.request(["command": "record", "action": "stop"]).isOK)
    }

    @Test func recordRefusesAFIFOWithoutBlocking() throws {
        let harness = try ControlHarness()
        let fifo = harness.directory + "/trace.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reply = try harness.request(["command": "record", "action": "start", "path": .string(fifo)])
        #expect(reply.errorCode == "failed")
        #expect(reply["error"]?["message"]?.stringValue?.contains("not a regular file") == true)
    }

    @Test func aTraceAtItsSizeLimitStopsWithTheReasonInItsLastLine() throws {
        let harness = try ControlHarness()
        let path = harness.directory + "/small.trace"
        var failures: [String] = []
        let recorder = try TraceRecorder(compositor: harness.server.compositor, path: path, maximumBytes: 4096)
        recorder.onFailure = { failures.append($0) }
        for index in 0..<100 { harness.window("window-\(index)") }
        #expect(recorder.isStopped)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("size limit of 4096 bytes") == true)
        let lines = try traceLines(path)
        #expect(lines.last?["type"] == "end")
        #expect(lines.last?["reason"] == "size_limit")
        // The limit counts the lines after the header, which is always written whole.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first).utf8.count + 1
        #expect(lines.first?["type"] == "header")
        #expect(text.utf8.count - header <= 4096)
        #expect(text.utf8.count > 4096 - 1024, "the recording ran up to its limit")
    }
}
