import Foundation
import Glibc
import StrataTestSupport
import Testing

/// Each client once in a replay (docs/experiments.md, "Replay and diff"): a script whose child
/// `strata-ctl exec`s foot is replayed by its requests (sh is not run), a script that starts foot
/// itself by the command (its own requests are not replayed); either way every window opens as
/// often as it did.
@Suite(.serialized) struct ReplayDriverEndToEndTests {
    /// `wait-window APP` as an experiment file (the scripts' barrier: no fixed wait for a window).
    func waiter(_ appID: String, in folder: ScratchFolder) throws -> String {
        let path = folder.path + "/wait-\(appID).strata"
        try "wait-window \(appID) 30\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func opened(_ trace: String) throws -> Int {
        try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .count { $0.contains(#""name":"windowDidOpen""#) }
    }

    func record(_ script: String, into trace: String) async throws {
        _ = try await StrataRun.run(
            ["--size", "800x600", "--record", trace], command: ["sh", "-c", script],
            environment: ["PATH": ControlTests.path], timeout: 60)
    }

    /// The issue's case: `sh -c 'strata-ctl exec -- foot --app-id one; sleep 1.5'`.
    @Test(
        .enabled(
            if: StrataRun.isInstalled("foot") && ControlTests.ready, "foot is not installed (apt-get install foot)"))
    func aScriptWhoseChildExecsFootIsReplayedByItsRequestsWithFootOnce() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/t.trace", kept = folder.path + "/replay.trace"
        try await record(
            "strata-ctl exec -- foot --app-id one; strata-ctl run \(try waiter("one", in: folder)); sleep 1.5",
            into: trace)
        #expect(try opened(trace) == 1, "foot's window in the recording")
        let recorded = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(recorded.contains(#""name":"windowDidOpen","origin":"exec""#), "foot was exec'd")
        #expect(recorded.contains(#""origin":"command","peer_pid""#), "the exec came from sh's child")
        let result = try await ReplayEndToEndTests().replay(
            trace, in: folder, extra: ["--run-commands", "--keep", kept])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "driven by the recorded requests: the command's tree made no client and no window of its own"),
            "\(result.stderr)")
        #expect(try opened(kept) == 1, "foot once in the replay")
        // Without --run-commands the replay names what it would run: the exec, not sh.
        let refused = try await ReplayEndToEndTests().replay(trace, in: folder)
        #expect(refused.status == 2 && refused.stderr.contains("foot --app-id one"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("the header's command"), "sh does not run: \(refused.stderr)")
    }

    /// A script that starts foot itself, then `strata-ctl exec`s a color client: the command
    /// drives, and its exec is not replayed (the script sends it again): each window once.
    @Test(
        .enabled(
            if: StrataRun.isInstalled("foot") && ControlTests.ready, "foot is not installed (apt-get install foot)"))
    func aScriptThatStartsFootItselfIsReplayedByTheCommandWithEachWindowOnce() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let trace = folder.path + "/t.trace", kept = folder.path + "/replay.trace"
        let script =
            "foot --app-id two & strata-ctl run \(try waiter("two", in: folder)); "
            + "strata-ctl exec -- strata-color-client --app-id three --size 200x150 --seconds 60; "
            + "strata-ctl run \(try waiter("three", in: folder)); sleep 1.5"
        try await record(script, into: trace)
        #expect(try opened(trace) == 2, "foot's and the color client's windows in the recording")
        let recorded = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(recorded.contains(#""name":"windowDidOpen","origin":"command""#), "sh started foot")
        #expect(recorded.contains(#""name":"windowDidOpen","origin":"exec""#), "the color client was exec'd")
        let result = try await ReplayEndToEndTests().replay(
            trace, in: folder, extra: ["--run-commands", "--keep", kept])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "driven by the recorded command: the command's tree made a client or window of its own"),
            "\(result.stderr)")
        #expect(try opened(kept) == 2, "each window once in the replay")
    }
}

extension ReplayDriverEndToEndTests {
    /// A trace whose origins are missing (an older Strata's): refused with the line named, before
    /// anything runs, unless `--driver` chooses.
    @Test func aTraceThatCannotTellIsRefusedUnlessTheUserChooses() async throws {
        let folder = try ReplayEndToEndTests.folder()
        let path = folder.path + "/old.trace"
        try
            ([
                HostileTraceEndToEndTests.header + #","command":["sh","-c","touch header.ran"]}"#,
                #"{"type":"client","event":"connect","client":1,"pid":2,"sequence":0,"time_ns":1}"#,
                #"{"type":"command","request":{"command":"pointer-move","x":1,"y":1},"reply":{"ok":true},"sequence":0,"time_ns":1}"#,
                #"{"type":"end","reason":"stopped","sequence":0,"time_ns":2}"#,
            ].joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try await ReplayEndToEndTests().replay(path, in: folder, extra: ["--run-commands"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "cannot tell whether the command or its requests drive the replay: line 2 (#0 client client=1 "
                    + "event=connect pid=2) has no origin"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass --driver command or --driver requests"))
        let chosen = try await ReplayEndToEndTests().replay(
            path, in: folder, extra: ["--driver", "requests", "--verbose"])
        #expect(chosen.status != 2, "\(chosen.stderr)")
        #expect(
            chosen.stderr.contains("driven by the recorded requests: --driver requests (the user's choice)"),
            "\(chosen.stderr)")
        #expect(
            chosen.stderr.contains("replay: line 3 (#0 command pointer-move x=1 y=1 → ok): no origin"),
            "\(chosen.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/header.ran"), "the command did not run")
    }
}
