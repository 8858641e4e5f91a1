import Foundation
import Glibc
import Testing

/// Traces end to end (docs/experiments.md): each example experiment recorded by the built
/// `strata --record` and replayed by `strata-ctl replay`; the manual clock's identical runs; a
/// divergence found and shown; bad traces refused with status 2.
@Suite(.serialized) struct ReplayEndToEndTests {
    /// A folder of the test's own for traces (a StrataRun's folder goes with the run).
    final class Folder {
        let path: String
        init() throws {
            var template = Array("/tmp/strata-replay-e2e-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw StrataRun.Failure("mkdtemp failed") }
            path = String(cString: made)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Records `experiment` run as Strata's command into `trace`.
    func record(_ experiment: String, into trace: String, arguments: [String] = ["--size", "1280x720"],
                screenshots: Bool = false) async throws -> StrataResult {
        let ctl = try #require(ControlTests.ctl)
        _ = try #require(ControlTests.colorClient)
        return try await StrataRun.run(arguments + ["--record", trace], command: [ctl, "run", experiment], screenshots: screenshots,
                                       environment: ["PATH": ControlTests.path], timeout: 60)
    }

    func replay(_ trace: String, in folder: Folder, extra: [String] = []) async throws -> ProcessResult {
        let ctl = try #require(ControlTests.ctl)
        return try await ProcessResult.run([ctl, "replay", trace, "--strata", StrataRun.binaryPath] + extra,
                                           environment: ["PATH": ControlTests.path], directory: folder.path, timeout: 90)
    }

    /// The experiments whose replay matches: all but those with X clients. The X11 example's
    /// last picture diverged in 2 of 7 runs of the whole suite (never alone or beside the other
    /// end-to-end suites): issue 21's open item, docs/experiments.md, "Replaying X clients".
    static let replayedExamples = ControlTests.exampleFiles.filter { !$0.hasPrefix("x11-") }

    @Test(arguments: replayedExamples)
    func eachExampleExperimentRecordedReplaysWithoutDivergence(_ file: String) async throws {
        let folder = try Folder()
        let trace = folder.path + "/\(file).trace"
        let recorded = try await record(ControlTests.examples + "/" + file, into: trace)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        let result = try await replay(trace, in: folder)
        #expect(result.status == 0, "\(file): \(result.stderr)")
        #expect(result.stdout.contains("the replay matches"), "\(result.stdout)")
    }

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
        let folder = try Folder()
        let experiment = folder.path + "/manual.strata"
        try Self.manualExperiment.write(toFile: experiment, atomically: true, encoding: .utf8)
        var pictures: [Data] = []
        for run in 1...2 {
            let trace = folder.path + "/manual-\(run).trace"
            let ctl = try #require(ControlTests.ctl)
            let strata = try StrataRun(["--size", "640x480", "--clock", "manual", "--hide-cursor", "--record", trace],
                                       command: [ctl, "run", experiment], screenshots: true, environment: ["PATH": ControlTests.path])
            let result = await strata.finish(timeout: 60)
            #expect(result.stdout.contains("passed"), "\(result.stderr)")
            pictures.append(try Data(contentsOf: URL(fileURLWithPath: strata.screenshotDirectory + "/HEADLESS-1.png")))
            let text = try String(contentsOfFile: trace, encoding: .utf8)
            #expect(text.contains("\"clock\":\"manual\""))
            #expect(text.contains("\"type\":\"frame\""))
        }
        #expect(pictures[0] == pictures[1], "byte-identical screenshots")
        let result = try await replay(folder.path + "/manual-1.trace", in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("manual clock"), "\(result.stdout)")
    }

    @Test func aReplayUnderAnotherPolicyReportsTheKeyWindowThatDiverged() async throws {
        let folder = try Folder()
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
        #expect(result.stderr.contains("the replay diverged (key): event #13: recorded #13 windowDidBecomeKey window=1, replayed #13 windowDidChangeLevel"),
                "\(result.stderr)")
        #expect(result.stderr.contains("> #13 windowDidBecomeKey window=1"), "the recorded events around it")
        #expect(FileManager.default.fileExists(atPath: changed + ".replay"), "the replay's trace is kept")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#"<script id="divergence-data" type="application/json">{"kind":"key","line":"#), "the report marks the divergence")
    }

    @Test func badTracesAreRefusedWithStatusTwoAndAClearError() async throws {
        let folder = try Folder()
        let header = #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[{"current":"640x480@60"}],"sequence":0,"time_ns":0}"#
        let cases: [(name: String, text: String?, message: String)] = [
            ("missing.trace", nil, "cannot read"),
            ("empty.trace", "", "is empty: not a Strata trace"),
            ("garbage.trace", "hello\n", "garbage.trace:1: not a JSON line"),
            ("headless.trace", #"{"type":"event","name":"windowDidOpen"}"# + "\n", "a trace starts with its header line"),
            ("future.trace", header.replacingOccurrences(of: "\"version\":1", with: "\"version\":99") + "\n", "trace version 99; this strata-ctl reads version 1"),
            ("truncated.trace", header + "\n" + #"{"type":"event","na"#, "truncated.trace:2: not a JSON line (the trace is truncated)"),
            ("noscreens.trace", header.replacingOccurrences(of: #"[{"current":"640x480@60"}]"#, with: "[]") + "\n", "the header names 0 screens"),
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
        let folder = try Folder()
        let fifo = folder.path + "/trace.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try await StrataRun.run(["--record", fifo], expecting: .failure)
        #expect(result.stderr.contains("cannot record to \(fifo): "), "\(result.stderr)")
        #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
    }
}
