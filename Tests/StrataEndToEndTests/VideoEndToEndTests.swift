import Foundation
import Glibc
import Testing

/// `strata-ctl record-video` against the built `strata`, with Debian's ffmpeg and ffprobe
/// (scripts/install-deps.sh --test) and weston-simple-shm.
@Suite struct VideoEndToEndTests {
    static let hasFFmpeg = StrataRun.isInstalled("ffmpeg") && StrataRun.isInstalled("ffprobe")

    @Test(
        .enabled(
            if: hasFFmpeg && StrataRun.isInstalled("weston-simple-shm"),
            "weston-simple-shm, ffmpeg or ffprobe is not installed"))
    func aHeadlessRecordingOfWestonSimpleShmIsAnMP4OfTheScreenWithFrames() async throws {
        let session = try await ControlTests.Session.start(["--size", "640x480", "--clock", "manual"])
        let video = session.run.root + "/shm.mp4"
        try await session.ctl("exec", "--", "weston-simple-shm")
        _ = try await session.waitForWindow("org.freedesktop.weston.simple-shm")
        let started = try await session.ctl("record-video", "-o", video).stdout
        #expect(started.contains("640x480"), "\(started)")
        // Two seconds of virtual time: 120 frames at 60 Hz, the client drawing each one.
        try await session.ctl("step", "120")
        let stopped = try await session.ctl("record-video", "stop", "--json").stdout
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(stopped.utf8)) as? [String: Any])
        #expect(reply["exit_status"] as? Int == 0, "\(reply)")
        #expect(reply["error"] == nil, "\(reply)")
        let probe = try await ProcessResult.run(
            [
                "/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1",
                video,
            ],
            environment: [:], directory: session.run.root)
        #expect(probe.status == 0, "\(probe.stderr)")
        let fields = Dictionary(
            probe.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        #expect(fields["codec_name"] == "h264")
        #expect(fields["width"] == "640" && fields["height"] == "480")
        let frames = Int(fields["nb_read_frames"] ?? "") ?? 0
        #expect(frames > 0 && frames == reply["frames"] as? Int, "ffprobe: \(probe.stdout); strata: \(reply)")
        session.run.send(SIGTERM)
        await session.run.finish()
    }

    @Test(.enabled(if: hasFFmpeg, "ffmpeg or ffprobe is not installed (apt-get install ffmpeg)"))
    func aRecordingStillRunningWhenStrataExitsIsAFinishedFile() async throws {
        let session = try await ControlTests.Session.start(["--size", "320x240", "--clock", "manual"])
        let video = session.run.root + "/exit.webm"
        try await session.ctl("record-video", "-o", video)
        try await session.ctl("step", "30")
        session.run.send(SIGTERM)
        await session.run.finish()
        let probe = try await ProcessResult.run(
            [
                "/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                "-show_entries", "stream=codec_name,nb_read_frames", "-of", "default=noprint_wrappers=1", video,
            ],
            environment: [:], directory: "/")
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("codec_name=vp8"), "\(probe.stdout)")
        #expect(probe.stdout.contains("nb_read_frames=30"), "30 steps of virtual time: \(probe.stdout)")
    }

    @Test(.enabled(if: hasFFmpeg, "ffmpeg or ffprobe is not installed (apt-get install ffmpeg)"))
    func recordVideoWaitEndsTheRecordingOnCtrlC() async throws {
        let session = try await ControlTests.Session.start(["--size", "320x240", "--clock", "manual"])
        let video = session.run.root + "/wait.mp4", printed = session.run.root + "/wait.out"
        FileManager.default.createFile(atPath: printed, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ControlTests.ctl))
        process.arguments = ["record-video", "-o", video, "--wait"]
        process.environment = ["STRATA_SOCKET": session.socket]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: printed))
        try process.run()
        let started = await StrataRun.poll(timeout: 20) { () -> Bool? in
            ((try? String(contentsOfFile: printed, encoding: .utf8)) ?? "").contains("recording screen") ? true : nil
        }
        #expect(started == true)
        try await session.ctl("step", "12")
        process.interrupt()
        let ended = await StrataRun.poll(timeout: 20) { process.isRunning ? nil : true }
        #expect(ended == true)
        #expect(process.terminationStatus == 0)
        let output = (try? String(contentsOfFile: printed, encoding: .utf8)) ?? ""
        #expect(output.contains("wait.mp4: 12 frames, 0 dropped"), "\(output)")
        session.run.send(SIGTERM)
        await session.run.finish()
    }

    @Test func withoutFFmpegOnPathRecordVideoFailsWithAClearError() async throws {
        let run = try StrataRun(["--size", "320x240"], environment: ["PATH": "/nonexistent", "STRATA_FFMPEG": nil])
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let result = try await ProcessResult.run(
            [try #require(ControlTests.ctl), "record-video", "-o", run.root + "/a.webm"],
            environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(result.status != 0)
        #expect(result.stderr.contains("needs ffmpeg") && result.stderr.contains("(unsupported)"), "\(result.stderr)")
        run.send(SIGTERM)
        await run.finish()
    }
}
