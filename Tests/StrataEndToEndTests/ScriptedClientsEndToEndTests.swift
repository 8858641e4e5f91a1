import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// The everyday scripts: many real clients from one `sh -c`, a test runner whose tests start
/// clients, the same through `strata-ctl exec`. Each client connects on its own connection to the
/// privileged socket the command's WAYLAND_DISPLAY names (docs/reliability.md, "Trust model").
@Suite struct ScriptedClientsEndToEndTests {
    /// Ten windows of real clients: weston's demos, foot, GTK 3 and 4, and two X11 clients.
    static let tenClients = [
        "weston-simple-shm", "weston-flower", "weston-simple-damage", "weston-clickdot", "weston-eventdemo",
        "foot", "gtk3-demo", "gtk4-demo", "xterm", "xclock",
    ]
    static let ready =
        tenClients.allSatisfy(StrataRun.isInstalled)
        && ["grim", "wl-copy", "wl-paste", "dbus-run-session"]
            .allSatisfy(StrataRun.isInstalled)
        && StrataRun.sibling("strata-ctl") != nil

    /// What a failed run left: strata's stderr, for the messages of clients that shared a
    /// connection (`not a valid new object id`) or hit a protocol error.
    static func expectNoProtocolErrors(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["not a valid new object id", "invalid object", "protocol error", "error 1: invalid arguments"] {
            #expect(!stderr.contains(marker), "strata's stderr: \(stderr.suffix(3000))", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: ready, "a client of the ten, grim, wl-clipboard, dbus or strata-ctl is missing"))
    func tenRealClientsGrimAndTheClipboardFromOneShellScript() async throws {
        let folder = try ScratchFolder(prefix: "strata-ten")
        let d = folder.path
        // Started as a user would write it: `&` after each, no environment tricks.
        let script = """
            d=$1
            weston-simple-shm & weston-flower & weston-simple-damage & weston-clickdot & weston-eventdemo &
            foot sleep 600 &
            dbus-run-session -- gtk3-demo &
            GSK_RENDERER=cairo dbus-run-session -- gtk4-demo &
            xterm & xclock &
            i=0; while [ ! -e "$d/go" ]; do sleep 0.05; i=$((i + 1)); [ $i -lt 2400 ] || exit 3; done
            grim "$d/shot.png" || exit 4
            printf 'from the script' | wl-copy || exit 5
            wl-paste -n > "$d/paste" || exit 6
            """
        let run = try StrataRun(
            ["--size", "1280x720", "--hide-cursor"], command: ["sh", "-c", script, "sh", d],
            environment: ["NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "GDK_BACKEND": "wayland"])
        let came = await run.waitForVisibleWindows(10, timeout: 120)
        let listing = try PrimarySelectionEndToEndTests.ctl(run, ["windows", "--json"]).output
        FileManager.default.createFile(atPath: d + "/go", contents: nil)
        // The script leaves its clients running, as a user's would: they end once Strata has gone.
        let result = await run.finish(
            timeout: 60, mayOutlive: Set(Self.tenClients + ["dbus-run-session", "dbus-daemon"]).union(StrataRun.wlCopy))
        #expect(came, "windows: \(listing)")
        #expect(result.status == 0, "stderr: \(result.stderr.suffix(3000))")
        Self.expectNoProtocolErrors(result.stderr)
        // Every window's pid is its own process, not Strata's (whose clients' connections it made once).
        let object = (try? JSONSerialization.jsonObject(with: Data(listing.utf8))) as? [String: Any]
        let windows = object?["windows"] as? [[String: Any]] ?? []
        let pids = Set(windows.compactMap { $0["pid"] as? Int })
        #expect(windows.count >= 10 && pids.count >= 9, "windows: \(listing)")
        let kinds = Set(windows.compactMap { $0["kind"] as? String })
        #expect(kinds == ["wayland", "x11"], "windows: \(listing)")
        let shot = try PNGFile.read(path: d + "/shot.png")
        #expect(shot.width == 1280 && shot.height == 720)
        #expect(Set(shot.argb).count > 50, "grim's picture shows the windows' contents")
        #expect((try? String(contentsOfFile: d + "/paste", encoding: .utf8)) == "from the script")
    }

    /// A test runner under Strata: `strata -- python3 -m pytest` on three tests that each start two
    /// clients (one of them grim, a privileged tool) and wait for their windows.
    static let pytestSuite = #"""
        import json, os, subprocess, time

        def windows():
            out = subprocess.run(["strata-ctl", "windows", "--json"], capture_output=True, text=True, check=True).stdout
            return json.loads(out)["windows"]

        def wait_for(pids, timeout=60):
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                shown = {w["pid"] for w in windows() if not w["hidden"]}
                if set(pids) <= shown:
                    return
                time.sleep(0.05)
            raise AssertionError(f"no windows of {pids}: {windows()}")

        def two_clients(tmp_path, first, second):
            a = subprocess.Popen(first)
            b = subprocess.Popen(second)
            try:
                wait_for([a.pid, b.pid])
                subprocess.run(["grim", str(tmp_path / "shot.png")], check=True)
                assert (tmp_path / "shot.png").stat().st_size > 1000
            finally:
                for p in (a, b):
                    p.terminate()
                    p.wait()

        def test_shm_and_flower(tmp_path):
            two_clients(tmp_path, ["weston-simple-shm"], ["weston-flower"])

        def test_foot_and_damage(tmp_path):
            two_clients(tmp_path, ["foot", "sleep", "600"], ["weston-simple-damage"])

        def test_x11_and_wayland(tmp_path):
            two_clients(tmp_path, ["xterm"], ["weston-clickdot"])
        """#

    static let pytestReady =
        ["python3", "foot", "xterm", "grim", "weston-simple-shm", "weston-flower"].allSatisfy(StrataRun.isInstalled)
        && StrataRun.sibling("strata-ctl") != nil

    /// The environment a script under Strata needs to find strata-ctl (beside strata).
    static var pathWithStrataCtl: [String: String?] {
        let directory = (StrataRun.binaryPath as NSString).deletingLastPathComponent
        return ["PATH": directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    static func writeSuite(in folder: ScratchFolder) throws {
        try pytestSuite.write(toFile: folder.path + "/test_two_clients.py", atomically: true, encoding: .utf8)
    }

    @Test(.enabled(if: pytestReady, "python3 with pytest, foot, xterm, grim, weston's demos or strata-ctl is missing"))
    func pytestUnderStrataStartsTwoClientsPerTest() async throws {
        let folder = try ScratchFolder(prefix: "strata-pytest")
        try Self.writeSuite(in: folder)
        var environment = Self.pathWithStrataCtl
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let result = try await StrataRun.run(
            ["--hide-cursor"],
            command: [
                "python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", folder.path + "/tmp",
                folder.path,
            ],
            environment: environment, timeout: 180)
        #expect(result.status == 0, "stdout: \(result.stdout.suffix(3000)) stderr: \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("3 passed"), "stdout: \(result.stdout.suffix(3000))")
        Self.expectNoProtocolErrors(result.stderr)
    }

    @Test(.enabled(if: pytestReady, "python3 with pytest, foot, xterm, grim, weston's demos or strata-ctl is missing"))
    func pytestThroughStrataCtlExecStartsTwoClientsPerTest() async throws {
        let folder = try ScratchFolder(prefix: "strata-pytest-exec")
        try Self.writeSuite(in: folder)
        let d = folder.path
        let run = try StrataRun(["--hide-cursor"], environment: Self.pathWithStrataCtl)
        _ = await run.socketName()
        // The exec'd shell runs pytest and leaves its output and status, the last one by a rename.
        let script =
            "python3 -m pytest -q -p no:cacheprovider --basetemp \"$0/tmp\" \"$0\" > \"$0/out\" 2>&1; echo $? > \"$0/status.tmp\"; mv \"$0/status.tmp\" \"$0/status\""
        let exec = try PrimarySelectionEndToEndTests.ctl(
            run, ["exec", "--", "env", "PYTHONDONTWRITEBYTECODE=1", "sh", "-c", script, d])
        let finished =
            await StrataRun.poll(timeout: 180) { FileManager.default.fileExists(atPath: d + "/status") ? true : nil }
            ?? false
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(exec.status == 0, "exec: \(exec.output)")
        let output = (try? String(contentsOfFile: d + "/out", encoding: .utf8)) ?? ""
        #expect(finished, "pytest's output: \(output.suffix(3000))")
        #expect(
            (try? String(contentsOfFile: d + "/status", encoding: .utf8)) == "0\n",
            "pytest's output: \(output.suffix(3000))")
        #expect(output.contains("3 passed"), "pytest's output: \(output.suffix(3000))")
        Self.expectNoProtocolErrors(result.stderr)
    }
}
