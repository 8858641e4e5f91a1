import Foundation
import StrataTestSupport
import Testing

/// The policy delegate with the built binaries and real clients (docs/control.md, "Policy
/// delegate"): a small python delegate behind `strata-ctl delegate` keeps the first foot key
/// when a second one maps (uikit alone would make the second key).
@Suite("Policy delegate end to end", .serialized)
struct PolicyDelegateEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"
    static let ready = ["foot", "python3"].allSatisfy(StrataRun.isInstalled)

    /// The first window shown becomes key, later ones never do; everything else is the built-in's.
    static let delegate = """
        #!/usr/bin/env python3
        import json, subprocess, sys
        child = subprocess.Popen(
            [sys.argv[1], "delegate", "key", "--deadline", "5000"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        shown = 0
        for line in child.stdout:
            question = json.loads(line)
            print(question["kind"], question["window"], flush=True)
            answer = "builtin"
            if question["kind"] == "map":
                shown += 1
                answer = {"key": shown == 1}
            child.stdin.write(json.dumps({"question": question["question"], "answer": answer}) + "\\n")
            child.stdin.flush()

        """

    @Test(.enabled(if: ready, "needs foot and python3 (apt-get install foot python3)"))
    func aPythonDelegateKeepsTheFirstFootKey() async throws {
        let folder = try ScratchFolder(prefix: "strata-delegate")
        let script = folder.path + "/first-stays-key.py"
        try writeExecutable(script, Self.delegate)
        let run = try StrataRun(
            ["--backend", "headless", "--size", "800x600"],
            command: [
                "sh", "-c",
                """
                "\(script)" "\(Self.ctl)" > "\(folder.path)/questions" &
                until \(Self.ctl) policy --json | grep -q '"delegate"'; do sleep 0.05; done
                foot --app-id=first --title=first &
                until \(Self.ctl) windows | grep ' first ' | grep -q ' yes '; do sleep 0.05; done
                foot --app-id=second --title=second &
                until [ "$(grep -c '^map ' "\(folder.path)/questions")" -ge 2 ]; do sleep 0.05; done
                \(Self.ctl) sync > /dev/null
                echo AFTER; \(Self.ctl) windows; cat "\(folder.path)/questions"
                """,
            ])
        let result = await run.finish(timeout: 90, mayOutlive: ["foot", "python3", "strata-ctl"])
        let after = result.stdout.split(separator: "AFTER").last.map(String.init) ?? ""
        let lines = after.split(separator: "\n")
        #expect(
            lines.contains { $0.contains(" first ") && $0.contains(" yes ") },
            "\(result.stdout) \(result.stderr.suffix(1000))")
        #expect(lines.contains { $0.contains(" second ") && !$0.contains(" yes ") })
        #expect(lines.filter { $0.hasPrefix("map ") }.count == 2)
    }
}
