import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `record-video`: bad input, a missing ffmpeg, and a stalled one (docs/experiments.md, "Video").
@Suite struct VideoTests {
    /// An executable script in the harness's folder.
    func script(_ harness: ControlHarness, _ name: String, _ body: String) throws -> String {
        let path = harness.directory + "/" + name
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// `record-video start`, again while the fresh script is "text file busy" (a fork of another
    /// test's thread may hold it open for writing until its exec: late under load), for 10 s at
    /// most, stepping the server between tries.
    func start(_ client: RawControlClient, _ path: String) throws -> JSONValue {
        var reply = try client.request(["command": "record-video", "action": "start", "path": .string(path)])
        let deadline = Date().addingTimeInterval(10)
        while reply["error"]?["message"]?.stringValue?.contains("busy") == true, Date() < deadline {
            client.harness.server.step(timeout: 0.01)
            reply = try client.request(["command": "record-video", "action": "start", "path": .string(path)])
        }
        return reply
    }

    @Test func badArgumentsGetClearErrorsAndNothingStarts() throws {
        let harness = try ControlHarness()
        harness.control.videoEncoder = try script(harness, "ffmpeg", "exit 0")
        let client = try harness.connect()
        let base = harness.directory
        // The control server's own listener (focus metrics) stays; the video's must not.
        let listeners = harness.server.compositor.scene.framePresented.count
        #expect(
            try client.request([
                "command": "record-video", "action": "start", "path": .string(base + "/a.mp4"), "screen": 99,
            ]).errorCode == "unknown_screen")
        #expect(
            try client.request([
                "command": "record-video", "action": "start", "path": .string(base + "/a.mp4"), "screen": "NOPE-1",
            ]).errorCode == "unknown_screen")
        #expect(
            try client.request(["command": "record-video", "action": "start", "path": "a.mp4"]).errorCode
                == "invalid_argument")
        #expect(
            try client.request(["command": "record-video", "action": "start", "path": .string(base + "/a.avi")])
                .errorCode == "invalid_argument")
        #expect(
            try client.request(["command": "record-video", "action": "start", "path": .string(base + "/none/a.webm")])
                .errorCode == "invalid_argument")
        try FileManager.default.createDirectory(atPath: base + "/d.mp4", withIntermediateDirectories: false)
        #expect(
            try client.request(["command": "record-video", "action": "start", "path": .string(base + "/d.mp4")])
                .errorCode == "invalid_argument")
        #expect(try client.request(["command": "record-video", "action": "start"]).errorCode == "missing_argument")
        #expect(try client.request(["command": "record-video", "action": "pause"]).errorCode == "invalid_argument")
        #expect(try client.request(["command": "record-video", "action": "stop"]).errorCode == "failed")
        #expect(harness.control.video == nil)
        #expect(harness.server.compositor.scene.framePresented.count == listeners)
    }

    @Test func withoutFFmpegRecordVideoIsUnsupportedAndSaysWhy() throws {
        let harness = try ControlHarness()
        harness.control.videoEncoder = harness.directory + "/no-such-ffmpeg"
        let reply = try harness.request([
            "command": "record-video", "action": "start", "path": .string(harness.directory + "/a.mp4"),
        ])
        #expect(reply.errorCode == "unsupported")
        #expect(reply["error"]?["message"]?.stringValue?.contains("ffmpeg") == true)
        #expect(harness.control.video == nil)
    }

    @Test func anEncoderThatNeverReadsDoesNotFreezeStrataAndItsDroppedFramesAreCounted() throws {
        let harness = try ControlHarness(clock: .manual)
        harness.control.videoEncoder = try script(harness, "ffmpeg", "exec sleep 600")
        harness.control.videoStopGrace = 0.2
        let client = try harness.connect()
        let listeners = harness.server.compositor.scene.framePresented.count
        let started = try start(client, harness.directory + "/a.mp4")
        #expect(started.isOK, "\(started)")
        #expect(started["width"]?.intValue == 640 && started["height"]?.intValue == 480)
        let output = harness.server.compositor.scene.outputs[0]
        // 20 painted frames, each a period apart: 1 first picture + 7 more fill the 8 waiting
        // places (640×480: 1.2 MB each, a pipe takes 64 KiB), the other 13 are dropped.
        for _ in 0..<20 {
            harness.server.compositor.scene.damageAll(output)
            #expect(try client.request(["command": "step"]).isOK)
            #expect(try client.request(["command": "windows"]).isOK, "the control socket still answers")
        }
        let stopped = try client.request(["command": "record-video", "action": "stop"])
        #expect(stopped.isOK)
        #expect(stopped["presented"]?.intValue == 8)
        #expect(stopped["dropped"]?.intValue == 13)
        #expect(stopped["frames"]?.intValue == 0)
        #expect(stopped["exit_status"]?.intValue == 128 + Int(SIGKILL))
        #expect(stopped["error"]?.stringValue?.contains("did not finish") == true)
        #expect(harness.server.compositor.scene.framePresented.count == listeners)
        #expect(try client.request(["command": "record-video", "action": "stop"]).errorCode == "failed")
    }

    @Test func anEncoderThatDiesIsReportedAndStrataCarriesOn() throws {
        let harness = try ControlHarness(clock: .manual)
        harness.control.videoEncoder = try script(harness, "ffmpeg", "exit 3")
        let client = try harness.connect()
        let started = try start(client, harness.directory + "/a.webm")
        #expect(started.isOK, "\(started)")
        let output = harness.server.compositor.scene.outputs[0]
        for _ in 0..<5 {
            harness.server.compositor.scene.damageAll(output)
            #expect(try client.request(["command": "step"]).isOK)
        }
        // The loop hears the pipe's reader go (an error on the pipe) while it runs.
        for _ in 0..<1000 where harness.control.video?.failure == nil { harness.server.step(timeout: 0.01) }
        #expect(harness.control.video?.failure == "ffmpeg stopped reading")
        let stopped = try client.request(["command": "record-video", "action": "stop"])
        #expect(stopped.isOK)
        #expect(stopped["exit_status"]?.intValue == 3)
        #expect(stopped["error"] != nil)
        #expect(harness.logged.contains { $0.hasPrefix("record-video: ffmpeg stopped reading") })
        #expect(try client.request(["command": "windows"]).isOK)
    }

    @Test func aRecordingOfSteppedFramesIsAVideoWithThoseFrames() throws {
        let harness = try ControlHarness(clock: .manual)
        let path = harness.directory + "/a.mp4"
        let client = try harness.connect()
        #expect(try client.request(["command": "record-video", "action": "start", "path": .string(path)]).isOK)
        let output = harness.server.compositor.scene.outputs[0]
        harness.window("a")
        var time = 0
        for _ in 0..<10 {
            harness.server.compositor.scene.damageAll(output)
            let stepped = try client.request(["command": "step", "frames": 3])
            time = try #require(stepped["time_ns"]?.intValue)
        }
        let stopped = try client.request(["command": "record-video", "action": "stop"])
        #expect(stopped.isOK, "\(stopped)")
        #expect(stopped["error"] == nil)
        #expect(stopped["exit_status"]?.intValue == 0)
        // ffmpeg may start too late for the first frames (dropped), but the video's length is the
        // virtual time: one frame a 60 Hz period, each picture repeated until the next.
        #expect(stopped["presented"]?.intValue.map { $0 + (stopped["dropped"]?.intValue ?? 0) } == 11)
        #expect(stopped["frames"]?.intValue == time * 60 / 1_000_000_000)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_size > 0)
    }
}
