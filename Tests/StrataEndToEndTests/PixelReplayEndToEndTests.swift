import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// Replays that wait for the same pixels (docs/experiments.md, "Waiting for the same pixels"):
/// foot with a command typed at its prompt, recorded under the realtime clock, replays as a match
/// every time; the same trace with the typed word changed diverges before the next step, with
/// the recorded picture, the replayed one and their diff kept and shown in the report.
@Suite(.serialized) struct PixelReplayEndToEndTests {
    /// The shell shows its prompt half a second after foot maps: a replay that typed as soon as
    /// the window was there (the model's sequence only, as before the waits) typed into the void
    /// before the prompt, and its last picture differed from the recording's.
    static let experiment = """
        exec -- foot --app-id term sh -c 'sleep 0.5; exec sh'
        wait-window term
        sleep 1
        settle --frames 3 --timeout 20
        input type 'echo hi'
        settle --frames 3 --timeout 20
        input key Return
        settle --frames 3 --timeout 20
        """

    func recordFoot(in folder: ScratchFolder) async throws -> String {
        let ctl = try #require(ControlTests.ctl)
        let experiment = folder.path + "/foot.strata", trace = folder.path + "/foot.trace"
        try Self.experiment.write(toFile: experiment, atomically: true, encoding: .utf8)
        let recorded = try await StrataRun.run(
            ["--size", "640x480", "--record", trace], command: [ctl, "run", experiment],
            environment: ["PATH": ControlTests.path], timeout: 60)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        return trace
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func footWithATypedCommandReplaysAsAMatchEveryTime() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = try await recordFoot(in: folder)
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains(#""shown":[{"hash":"#), "the steps carry what foot showed")
        #expect(text.contains(#""kind":"window""#) && text.contains(#""kind":"thumbnail""#))
        for round in 1...5 {
            let result = try await ReplayEndToEndTests().replay(trace, in: folder, extra: ["--run-commands"])
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            #expect(result.stdout.contains("the replay matches"), "round \(round): \(result.stdout)")
        }
    }

    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed (apt-get install foot)"))
    func aChangedTypedWordIsAPixelDivergenceWithTheDiffKept() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = try await recordFoot(in: folder)
        let edited = folder.path + "/ho.trace", page = folder.path + "/ho.html"
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains(#""text":"echo hi""#))
        try text.replacingOccurrences(of: #""text":"echo hi""#, with: #""text":"echo ho""#).write(
            toFile: edited, atomically: true, encoding: .utf8)
        let result = try await ReplayEndToEndTests().replay(
            edited, in: folder, extra: ["--run-commands", "--image-timeout", "2", "--report", page])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the replay diverged (pixels): window 1 (term, "), "\(result.stderr)")
        #expect(result.stderr.contains("showed other pixels before step #"), "\(result.stderr)")
        #expect(result.stderr.contains("command key key=Return"), "the step after the changed word: \(result.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let diff = try #require(
            kept.first { $0.hasPrefix("ho.trace.replay.step-") && $0.hasSuffix(".diff.png") }, "\(kept)")
        #expect(
            kept.contains { $0.hasSuffix(".recorded.png") } && kept.contains { $0.hasSuffix(".replayed.png") },
            "\(kept)")
        let pixels = try PNGFile.read(path: folder.path + "/" + diff)
        let red = pixels.argb.filter { $0 == 0xffff_0000 }.count
        #expect(red > 0 && red < 1000, "the changed letter is marked, little else: \(red) pixels")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains(#""label":"recorded""#) && html.contains(#""label":"diff""#),
            "the report carries the pictures")

        // With a tolerance the changed letters pass: before the step (39 pixels) and at the end.
        let tolerant = try await ReplayEndToEndTests().replay(
            edited, in: folder, extra: ["--run-commands", "--max-diff", "1%"])
        #expect(tolerant.status == 0, "\(tolerant.stderr)")
        // A tolerance that lets the step pass but not the last picture ("ho" printed too): the
        // final check diverges, with the recorded last picture (a full-size image line) and the diff kept.
        let final = try await ReplayEndToEndTests().replay(
            edited, in: folder, extra: ["--run-commands", "--max-diff", "60", "--keep", folder.path + "/final.trace"])
        #expect(final.status == 1, "\(final.stderr)")
        #expect(final.stderr.contains("the replay diverged (frame-hash): screen 1's last picture"), "\(final.stderr)")
        #expect(
            final.stderr.contains("the recorded last picture: \(folder.path)/final.trace.HEADLESS-1.recorded.png"),
            "\(final.stderr)")
        let lastDiff = try PNGFile.read(path: folder.path + "/final.trace.HEADLESS-1.diff.png")
        #expect(lastDiff.argb.contains(0xffff_0000))

        // Opened in chromium: the divergence shows its three pictures as data: images.
        guard ReportEndToEndTests.chromium != nil else { return }
        let dom = try await ReportEndToEndTests().chromiumRun(["--dump-dom", "file://" + page], in: folder.path)
        #expect(
            dom.stdout.components(separatedBy: #"src="data:image/png;base64,iVBORw0KGgo"#).count - 1 >= 4,
            "three divergence pictures and the thumbnails: \(dom.stdout.suffix(1000))")
        #expect(!dom.stderr.contains("Uncaught") && !dom.stderr.contains("Content Security Policy"), "\(dom.stderr)")
    }
}
