import Foundation
import Glibc
import StrataTestSupport
import Testing

/// What-if replay end to end (docs/experiments.md, "What-if replay"): a session recorded under
/// uikit with Strata's own color clients (two windows, a click on the back one, make-key,
/// closing the key window) replayed by the built `strata-ctl replay --policy` under other
/// policies, the differences checked step by step; the same policy differs nowhere; bad input
/// exits 2, and a delegate that never registers 1 (its process group stopped).
@Suite(.serialized) struct WhatIfReplayEndToEndTests {
    static let experiment = """
        exec -- strata-color-client --app-id w.first --size 200x150 --color c08030 --seconds 60
        wait-window w.first
        move w.first --to 0,0
        exec -- strata-color-client --app-id w.second --size 200x150 --color 3080c0 --seconds 60
        wait-window w.second
        move w.second --to 300,0
        input click 50 50
        expect key w.first
        make-key w.second
        expect key w.second
        close w.second
        expect closed w.second
        expect key w.first
        """

    /// Records the experiment under uikit; the folder and the trace's path.
    func recorded() async throws -> (ScratchFolder, String) {
        let folder = try ScratchFolder(prefix: "strata-whatif-e2e")
        let script = folder.path + "/session.strata"
        try Self.experiment.write(toFile: script, atomically: true, encoding: .utf8)
        let trace = folder.path + "/session.trace"
        let ctl = try #require(ControlTests.ctl)
        let result = try await StrataRun.run(
            ["--size", "640x480", "--policy", "uikit", "--record", trace], command: [ctl, "run", script],
            environment: ["PATH": ControlTests.path], timeout: 60)
        #expect(result.stdout.contains("passed"), "\(result.stderr)")
        return (folder, trace)
    }

    func replay(_ trace: String, in folder: ScratchFolder, _ extra: [String]) async throws -> ProcessResult {
        let ctl = try #require(ControlTests.ctl)
        return try await ProcessResult.run(
            [ctl, "replay", trace, "--strata", StrataRun.binaryPath] + extra,
            environment: ["PATH": ControlTests.path], directory: folder.path, timeout: 90)
    }

    /// The differing steps of a `--json` comparison: (step text's input or command, differences,
    /// recorded key, replayed key, recorded stacking, replayed stacking).
    static func differing(_ stdout: String) throws -> [String] {
        let data = Data(stdout.utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["completed"] as? Bool == true, "\(stdout)")
        let steps = try #require(json["steps"] as? [[String: Any]])
        return steps.compactMap { step in
            let differences = step["differences"] as? [String] ?? []
            guard !differences.isEmpty else { return nil }
            let text = (step["text"] as? String ?? "").split(separator: " ").dropFirst().prefix(2).joined(
                separator: " ")
            func side(_ name: String) -> String {
                let side = step[name] as? [String: Any] ?? [:]
                let key = (side["key"] as? Int).map(String.init) ?? "none"
                let stacking = (side["stacking"] as? [Int] ?? []).map(String.init).joined(separator: ",")
                return "key \(key) [\(stacking)]"
            }
            return "\(text): \(differences.joined(separator: ",")): \(side("recorded")) / \(side("replayed"))"
        }
    }

    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func explicitAndClickToFocusDifferWhereTheirRulesDo() async throws {
        let (folder, trace) = try await recorded()
        // explicit: the click makes nothing key, and closing the key window leaves none.
        let explicit = try await replay(trace, in: folder, ["--policy", "explicit", "--json"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(
            try Self.differing(explicit.stdout) == [
                "input pointer-button: key: key 1 [2,1] / key 2 [2,1]",
                "command close: key: key 1 [1] / key none [1]",
            ], "\(explicit.stdout)")
        // click-to-focus: the click also orders the first window front, until the second closes.
        let page = folder.path + "/click.html"
        let click = try await replay(trace, in: folder, ["--policy", "click-to-focus", "--json", "--report", page])
        #expect(click.status == 0, "\(click.stderr)")
        #expect(
            try Self.differing(click.stdout) == [
                "input pointer-button: stacking: key 1 [2,1] / key 1 [1,2]",
                "command make-key: stacking: key 2 [2,1] / key 2 [1,2]",
            ], "\(click.stdout)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<tr class=\"differs\">"), "the page highlights the differing steps")
        #expect(html.contains("w.first"))
        // focus-follows-pointer: the pointer's motion onto the first window already makes it key.
        let pointer = try await replay(trace, in: folder, ["--policy", "focus-follows-pointer", "--json"])
        #expect(pointer.status == 0, "\(pointer.stderr)")
        #expect(
            try Self.differing(pointer.stdout) == ["input pointer-motion: key: key 2 [2,1] / key 1 [2,1]"],
            "\(pointer.stdout)")
        // The readable list names the windows and the steps.
        let text = try await replay(trace, in: folder, ["--policy", "explicit"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("under policy explicit (recorded under uikit):"), "\(text.stdout)")
        #expect(text.stdout.contains("  key:      recorded 1 (w.first), replayed none"), "\(text.stdout)")
    }

    /// Under the manual clock each step waits for the windows as on the realtime one, and
    /// the recorded `step`s let the clients draw.
    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func aManualClockRecordingReplaysUnderExplicit() async throws {
        let folder = try ScratchFolder(prefix: "strata-whatif-e2e")
        let script = folder.path + "/manual.strata"
        try """
        exec -- strata-color-client --app-id m.first --size 200x150 --color c08030 --frames 3 --seconds 60
        wait-window m.first
        step 2
        move m.first --to 0,0
        exec -- strata-color-client --app-id m.second --size 200x150 --color 3080c0 --frames 3 --seconds 60
        wait-window m.second
        step 3
        move m.second --to 300,0
        input click 50 50
        step 2
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let trace = folder.path + "/manual.trace"
        let ctl = try #require(ControlTests.ctl)
        let recorded = try await StrataRun.run(
            ["--size", "640x480", "--clock", "manual", "--record", trace], command: [ctl, "run", script],
            environment: ["PATH": ControlTests.path], timeout: 60)
        #expect(recorded.stdout.contains("passed"), "\(recorded.stderr)")
        let explicit = try await replay(trace, in: folder, ["--policy", "explicit", "--json"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(
            try Self.differing(explicit.stdout) == ["input pointer-button: key: key 1 [2,1] / key 2 [2,1]"],
            "\(explicit.stdout)")
    }

    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func theRecordedPolicyDiffersNowhere() async throws {
        let (folder, trace) = try await recorded()
        let same = try await replay(trace, in: folder, ["--policy", "uikit", "--json"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(try Self.differing(same.stdout) == [], "\(same.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
        #expect((json["compared"] as? Int ?? 0) >= 8, "every step compared: \(same.stdout)")
        // The report of the recording against the replay's trace (kept as TRACE.replay).
        let ctl = try #require(ControlTests.ctl)
        let page = folder.path + "/same.html"
        let report = try await ProcessResult.run(
            [ctl, "report", trace, "--compare", trace + ".replay", "-o", page],
            environment: ["PATH": ControlTests.path], directory: folder.path, timeout: 30)
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<tr class=\"differs\">"))
    }

    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func badInputExitsTwoAndADelegateThatNeverRegistersOne() async throws {
        let folder = try ScratchFolder(prefix: "strata-whatif-e2e")
        let garbage = folder.path + "/garbage.trace"
        try "hello\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        let bad = try await replay(garbage, in: folder, ["--policy", "explicit"])
        #expect(bad.status == 2, "\(bad.stderr)")
        #expect(bad.stderr.contains("garbage.trace:1: not a JSON line"), "\(bad.stderr)")
        let header =
            #"{"type":"header","version":1,"clock":"realtime","policy":"uikit","screens":[{"current":"640x480@60"}],"sequence":0,"time_ns":0}"#
        let empty = folder.path + "/empty.trace"
        try (header + "\n").write(toFile: empty, atomically: true, encoding: .utf8)
        let policy = try await replay(empty, in: folder, ["--policy", "nonsense"])
        #expect(policy.status == 2, "\(policy.stderr)")
        #expect(policy.stderr.contains("unknown policy \"nonsense\"; use one of uikit,"), "\(policy.stderr)")
        let plain = try await replay(empty, in: folder, ["--json"])
        #expect(
            plain.status == 2 && plain.stderr.contains("--json goes with --policy or --delegate"), "\(plain.stderr)")
        // A trace naming a program that is not Strata's own client is refused as by plain replay.
        let program = folder.path + "/program.trace"
        try
            (header + "\n"
            + #"{"type":"command","sequence":0,"origin":"outside","request":{"command":"exec","argv":["touch","/tmp/x"]},"reply":{"ok":true}}"#
            + "\n").write(toFile: program, atomically: true, encoding: .utf8)
        let refused = try await replay(program, in: folder, ["--policy", "explicit", "--driver", "requests"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("pass --run-commands"), "\(refused.stderr)")
        let gone = try await replay(empty, in: folder, ["--delegate", "exit 3", "--timeout", "5"])
        #expect(gone.status == 1, "\(gone.stderr)")
        #expect(gone.stderr.contains("the delegate exit 3 ended (status 3) before it registered"), "\(gone.stderr)")
        // A delegate that never registers is given --timeout seconds, then its process group is
        // ended: its background child does not live to leave its file (30 s later).
        let survived = folder.path + "/survived"
        let silent = try await replay(
            empty, in: folder, ["--delegate", "(sleep 30; touch \(survived)) & wait", "--timeout", "1"])
        #expect(silent.status == 1, "\(silent.stderr)")
        #expect(silent.stderr.contains("did not register within 1.0 s"), "\(silent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: survived), "the delegate's child was stopped with its group")
    }
}
