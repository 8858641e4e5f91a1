import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// Traces end to end (docs/experiments.md): each example experiment recorded by the built
/// `strata --record` and replayed by `strata-ctl replay`; the manual clock's identical runs; a
/// divergence found and shown; bad traces refused with status 2.
@Suite(.serialized) struct ReplayEndToEndTests {
    /// A folder of the test's own for traces (a StrataRun's folder goes with the run).
    static func folder() throws -> ScratchFolder { try ScratchFolder(prefix: "strata-replay-e2e") }

    /// Records `experiment` run as Strata's command into `trace`.
    func record(
        _ experiment: String, into trace: String, arguments: [String] = ["--size", "1280x720"],
        screenshots: Bool = false
    ) async throws -> StrataResult {
        let ctl = try #require(ControlTests.ctl)
        _ = try #require(ControlTests.colorClient)
        return try await StrataRun.run(
            arguments + ["--record", trace], command: [ctl, "run", experiment], screenshots: screenshots,
            environment: ["PATH": ControlTests.path], timeout: 60)
    }

    func replay(_ trace: String, in folder: ScratchFolder, extra: [String] = [], pythonPath: String? = nil)
        async throws -> ProcessResult
    {
        let ctl = try #require(ControlTests.ctl)
        var environment = ["PATH": ControlTests.path]
        if let pythonPath { environment["PYTHONPATH"] = pythonPath }
        return try await ProcessResult.run(
            [ctl, "replay", trace, "--strata", StrataRun.binaryPath] + extra,
            environment: environment, directory: folder.path, timeout: 90)
    }

    @Test(arguments: ControlTests.exampleFiles)
    func eachExampleExperimentRecordedReplaysWithoutDivergence(_ file: String) async throws {
        let folder = try Self.folder()
        let trace = folder.path + "/\(file).trace"
        let experiment = ControlTests.examples + "/" + file
        // A policy example starts its python delegate (`exec -- python3 -m
        // strata_testing.delegate examples/policies/….py`): recorded from the repository's top
        // folder with the package importable, replayed with --run-commands, which runs that
        // delegate again, as recorded.
        let delegate = ((try? String(contentsOfFile: experiment, encoding: .utf8)) ?? "").contains("wait-delegate")
        let recorded: StrataResult
        if delegate {
            let ctl = try #require(ControlTests.ctl)
            let top = (ControlTests.examples as NSString).deletingLastPathComponent
            recorded = try await StrataRun.run(
                ["--size", "1280x720", "--record", trace],
                command: ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", top, ctl, "run", "examples/" + file],
                screenshots: true, environment: ["PATH": ControlTests.path, "PYTHONPATH": top + "/python/src"],
                timeout: 60)
        } else {
            recorded = try await record(experiment, into: trace, screenshots: true)
        }
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        let result = try await replay(
            trace, in: folder, extra: delegate ? ["--run-commands"] : [],
            pythonPath: delegate ? (ControlTests.examples as NSString).deletingLastPathComponent + "/python/src" : nil)
        #expect(result.status == 0, "\(file): \(result.stderr)\n\(Self.pictureDifferences(recorded, replayOf: trace))")
        #expect(result.stdout.contains("the replay matches"), "\(result.stdout)")
    }

    /// For a diverged replay: where each screen's last picture in the replay (kept beside the
    /// replay's trace) differs from the recording's (its exit screenshot), and both pictures
    /// copied to a folder that outlives the test.
    static func pictureDifferences(_ recorded: StrataResult, replayOf trace: String) -> String {
        let name = trace.split(separator: "/").last.map(String.init) ?? "trace"
        let keep = "/tmp/strata-replay-divergence-\(getpid())"
        _ = mkdir(keep, 0o755)
        var lines: [String] = []
        for (file, mine) in recorded.screenshots.sorted(by: { $0.key < $1.key }) {
            let replayed = trace + ".replay." + file
            guard let theirs = try? PNGFile.read(path: replayed) else {
                lines.append("\(file): the replay kept no last picture (\(replayed))")
                continue
            }
            try? FileManager.default.copyItem(atPath: replayed, toPath: "\(keep)/\(name).replay.\(file)")
            let recordedCopy = "\(keep)/\(name).recorded.\(file)"
            mine.argb.withUnsafeBufferPointer { pixels in
                guard let base = pixels.baseAddress else { return }
                try? PNGFile.write(
                    path: recordedCopy, pixels: base, width: Int32(mine.width), height: Int32(mine.height),
                    stride: Int32(mine.width * 4))
            }
            guard mine.width == theirs.width, mine.height == theirs.height else {
                lines.append(
                    "\(file): recorded \(mine.width)×\(mine.height), replayed \(theirs.width)×\(theirs.height)")
                continue
            }
            var count = 0, minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            var samples: [String] = []
            for y in 0..<mine.height {
                for x in 0..<mine.width where mine.at(x, y) != theirs.at(x, y) {
                    count += 1
                    minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
                    if samples.count < 4 { samples.append("(\(x),\(y)) \(hex(mine.at(x, y)))→\(hex(theirs.at(x, y)))") }
                }
            }
            lines.append(
                count == 0
                    ? "\(file): the last pictures are the same"
                    : "\(file): \(count) pixels differ within x \(minX)…\(maxX), y \(minY)…\(maxY), e.g. \(samples.joined(separator: ", ")); both in \(keep)"
            )
        }
        return lines.joined(separator: "\n")
    }

    private static func hex(_ pixel: UInt32) -> String { String(pixel, radix: 16) }

    static let manualExperiment = """
        exec -- strata-color-client --app-id m.first --size 200x150 --color c08030 --frames 3 --seconds 60
        wait-window m.first
        step 2
        exec -- strata-color-client --app-id m.second --size 200x150 --color 3080c0 --frames 3 --seconds 60
        wait-window m.second
        step 3
        raise m.first
        step 2
        expect stacking m.first m.second
        """

    @Test func twoManualClockRunsGiveIdenticalScreenshotsAndTheirTraceReplays() async throws {
        let folder = try Self.folder()
        let experiment = folder.path + "/manual.strata"
        try Self.manualExperiment.write(toFile: experiment, atomically: true, encoding: .utf8)
        var pictures: [Data] = []
        for run in 1...2 {
            let trace = folder.path + "/manual-\(run).trace"
            let ctl = try #require(ControlTests.ctl)
            let strata = try StrataRun(
                ["--size", "640x480", "--clock", "manual", "--hide-cursor", "--record", trace],
                command: [ctl, "run", experiment], screenshots: true, environment: ["PATH": ControlTests.path])
            let result = await strata.finish(timeout: 60)
            #expect(result.stdout.contains("passed"), "\(result.stderr)")
            pictures.append(try Data(contentsOf: URL(fileURLWithPath: strata.screenshotDirectory + "/HEADLESS-1.png")))
            let text = try String(contentsOfFile: trace, encoding: .utf8)
            #expect(text.contains("\"clock\":\"manual\""))
            #expect(text.contains("\"type\":\"frame\""))
        }
        #expect(pictures[0] == pictures[1], "byte-identical screenshots")
        // Strata's own clients draw the same at every step: every picture is compared.
        let result = try await replay(folder.path + "/manual-1.trace", in: folder, extra: ["--every-picture"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("manual clock"), "\(result.stdout)")
    }

    @Test func aReplayUnderAnotherPolicyReportsTheKeyWindowThatDiverged() async throws {
        let folder = try Self.folder()
        let trace = folder.path + "/alert.trace"
        _ = try await record(ControlTests.examples + "/alert-above-key-window.strata", into: trace)
        // The same session under the explicit policy: hiding the key alert leaves no key window.
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let changed = folder.path + "/explicit.trace"
        try text.replacingOccurrences(of: "\"policy\":\"uikit\"", with: "\"policy\":\"explicit\"")
            .write(toFile: changed, atomically: true, encoding: .utf8)
        let page = folder.path + "/divergence.html"
        let result = try await replay(changed, in: folder, extra: ["--timeout", "2", "--report", page])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the replay diverged (key): event #13: recorded #13 windowDidBecomeKey window=1 cause=successor"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("replayed #13 windowDidChangeLevel from=normal to=alert window=2 cause=command"),
            "\(result.stderr)")
        #expect(result.stderr.contains("> #13 windowDidBecomeKey window=1"), "the recorded events around it")
        #expect(FileManager.default.fileExists(atPath: changed + ".replay"), "the replay's trace is kept")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains(#"<script id="divergence-data" type="application/json">{"kind":"key","line":"#),
            "the report marks the divergence")
    }

    @Test func badTracesAreRefusedWithStatusTwoAndAClearError() async throws {
        let folder = try Self.folder()
        let header =
            #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[{"current":"640x480@60"}],"sequence":0,"time_ns":0}"#
        let cases: [(name: String, text: String?, message: String)] = [
            ("missing.trace", nil, "cannot read"),
            ("empty.trace", "", "is empty: not a Strata trace"),
            ("garbage.trace", "hello\n", "garbage.trace:1: not a JSON line"),
            (
                "headless.trace", #"{"type":"event","name":"windowDidOpen"}"# + "\n",
                "a trace starts with its header line"
            ),
            (
                "future.trace", header.replacingOccurrences(of: "\"version\":1", with: "\"version\":99") + "\n",
                "trace version 99; this strata-ctl reads version 1"
            ),
            (
                "truncated.trace", header + "\n" + #"{"type":"event","na"#,
                "truncated.trace:2: not a JSON line (the trace is truncated)"
            ),
            (
                "noscreens.trace", header.replacingOccurrences(of: #"[{"current":"640x480@60"}]"#, with: "[]") + "\n",
                "the header names 0 screens"
            ),
        ]
        for entry in cases {
            let path = folder.path + "/" + entry.name
            if let text = entry.text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
            let result = try await replay(path, in: folder)
            #expect(result.status == 2, "\(entry.name): \(result.stderr)")
            #expect(result.stderr.contains(entry.message), "\(entry.name): \(result.stderr)")
        }
    }

    @Test func recordingToAFIFOIsRefusedAtStart() async throws {
        let folder = try Self.folder()
        let fifo = folder.path + "/trace.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try await StrataRun.run(["--record", fifo], expecting: .failure)
        #expect(result.stderr.contains("--record \(fifo): "), "\(result.stderr)")
        #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
    }
}
