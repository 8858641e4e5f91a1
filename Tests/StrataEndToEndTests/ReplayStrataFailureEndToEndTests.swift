import Foundation
import StrataTestSupport
import Testing

/// A replay whose own Strata failed cannot match: `strata-ctl replay` with a `--strata` wrapper
/// around the built `strata` that ends with status 3, or prints an error line, reports it, exits
/// 1 and keeps Strata's standard error beside the replay's trace. The same wrapper passing the
/// status on unchanged replays as a match (the wrapper alone changes nothing).
@Suite(.serialized) struct ReplayStrataFailureEndToEndTests {
    /// A shell wrapper around the built strata: `before` runs first, `ending` is its exit status
    /// once strata has ended (strata's own status is `$status`). SIGTERM (how the replay stops
    /// its Strata) is passed on to strata.
    static func wrapper(at path: String, before: String = "", ending: String = "$status") throws {
        try writeExecutable(
            path,
            """
            #!/bin/sh
            trap 'kill -TERM $pid; wait $pid; status=$?; exit \(ending)' TERM
            \(before)
            "\(StrataRun.binaryPath)" "$@" &
            pid=$!
            wait $pid
            status=$?
            exit \(ending)

            """)
    }

    func replay(_ trace: String, strata: String, in folder: ScratchFolder) async throws -> ProcessResult {
        let ctl = try #require(ControlTests.ctl)
        return try await ProcessResult.run(
            [ctl, "replay", trace, "--strata", strata],
            environment: ["PATH": ControlTests.path], directory: folder.path, timeout: 90)
    }

    @Test func aReplayWhoseStrataExitedThreeOrPrintedAnErrorSaysSoAndKeepsItsStandardError() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/alert.trace"
        let recorded = try await ReplayEndToEndTests().record(
            ControlTests.examples + "/alert-above-key-window.strata", into: trace)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")

        let transparent = folder.path + "/strata-as-is"
        try Self.wrapper(at: transparent)
        let matched = try await replay(trace, strata: transparent, in: folder)
        #expect(matched.status == 0, "\(matched.stderr)")
        #expect(matched.stdout.contains("the replay matches"), "\(matched.stdout)")

        let exitsThree = folder.path + "/strata-exits-3"
        try Self.wrapper(at: exitsThree, ending: "3")
        let three = try await replay(trace, strata: exitsThree, in: folder)
        #expect(three.status == 1, "\(three.stdout) \(three.stderr)")
        #expect(
            three.stderr.contains("the replay's Strata failed: it exited with status 3 when the replay stopped it"),
            "\(three.stderr)")
        #expect(!three.stdout.contains("the replay matches"), "\(three.stdout)")
        #expect(three.stderr.contains("its standard error: \(trace).replay.strata.err"), "\(three.stderr)")
        #expect(FileManager.default.fileExists(atPath: trace + ".replay.strata.err"))
        #expect(FileManager.default.fileExists(atPath: trace + ".replay"), "the replay's trace is kept")

        let complains = folder.path + "/strata-complains"
        try Self.wrapper(at: complains, before: "echo 'strata: error: the wrapper says something broke' >&2")
        let error = try await replay(trace, strata: complains, in: folder)
        #expect(error.status == 1, "\(error.stdout) \(error.stderr)")
        #expect(
            error.stderr.contains(
                "its standard error has 1 error line, the first: strata: error: the wrapper says something broke"),
            "\(error.stderr)")
        let kept = try String(contentsOfFile: trace + ".replay.strata.err", encoding: .utf8)
        #expect(kept.contains("strata: error: the wrapper says something broke"), "\(kept)")
    }

    @Test func aReplayWhoseStrataIsKilledMidReplaySaysItEndedEarly() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/alert.trace"
        let recorded = try await ReplayEndToEndTests().record(
            ControlTests.examples + "/alert-above-key-window.strata", into: trace)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        // SIGKILL once the replay's first client has a window (the wrapper's standard output is
        // strata's, the file where strata names its control socket).
        let killed = folder.path + "/strata-killed"
        try Self.wrapper(
            at: killed,
            before: """
                out=$(readlink /proc/$$/fd/1)
                (until socket=$(sed -n 's/^STRATA_SOCKET=//p' "$out"); [ -n "$socket" ] && STRATA_SOCKET=$socket strata-ctl windows 2>/dev/null | grep -q example.document
                 do sleep 0.05; done
                 kill -9 $(cat "$out.pid")) &
                """ + "\n", ending: "$status")
        // The watcher reads strata's pid from a file the wrapper writes once it has started it.
        var text = try String(contentsOfFile: killed, encoding: .utf8)
        text = text.replacingOccurrences(of: "pid=$!\n", with: "pid=$!\necho $pid > \"$out.pid\"\n")
        try writeExecutable(killed, text)
        let result = try await replay(trace, strata: killed, in: folder)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stderr.contains(
                "the replay's Strata failed: it ended before the replay finished (status 137, signal 9)"),
            "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: trace + ".replay.strata.err"))
    }
}
