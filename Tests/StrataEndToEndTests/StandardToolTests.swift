import Foundation
import StrataRender
import Testing

/// Debian's wlroots tools (grim, wlr-randr, wtype) against the built binary: they do what they
/// do on sway, and only for clients Strata started unless `--allow-privileged`.
@Suite struct StandardToolTests {
    static func shell(_ script: String) -> [String] { ["/bin/sh", "-c", script] }

    static func colorClient() throws -> String {
        try #require(StrataRun.sibling("strata-color-client"))
    }

    @Test(.enabled(if: StrataRun.isInstalled("grim"), "grim is not installed (apt-get install grim)"))
    func grimStartedByStrataCapturesExactlyStrataScreenshot() async throws {
        let client = try Self.colorClient()
        let out = NSTemporaryDirectory() + "strata-grim-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { unlink(out) }
        // grim and the color client each connect on their own connection to the privileged socket.
        let script =
            "\(client) --size 100x80 --color ff0000 --inner 0000ff --frames 3 --seconds 600 & "
            + "echo 'wait-window org.strata.ColorClient 30' | \"$0\" run - >/dev/null; grim \(out) && echo grim-done || echo grim-failed"
        let run = try StrataRun(
            ["--size", "640x480"], command: ["/bin/sh", "-c", script, try #require(StrataRun.sibling("strata-ctl"))],
            screenshots: true)
        _ = try #require(await run.socketName())
        let finished = await StrataRun.poll(timeout: 20) { run.stdout.contains("grim-") ? true : nil }
        #expect(finished == true && run.stdout.contains("grim-done"), "stdout: \(run.stdout) stderr: \(run.stderr)")
        run.send(SIGTERM)
        let result = await run.finish()
        let strata = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        let grim = try PNGFile.read(path: out)
        #expect(grim.width == 640 && grim.height == 480)
        #expect(grim == strata, "grim's capture differs from Strata's screenshot")
        #expect(grim.at(10, 10) == 0xffff_0000 && grim.at(50, 40) == 0xff00_00ff)
    }

    @Test(.enabled(if: StrataRun.isInstalled("grim"), "grim is not installed (apt-get install grim)"))
    func grimNotStartedByStrataIsRefusedUnlessAllowed() async throws {
        for allowed in [false, true] {
            let run = try StrataRun(["--size", "320x200"] + (allowed ? ["--allow-privileged"] : []))
            let socket = try #require(await run.socketName())
            let out = run.runtimeDirectory + "/grim.png"
            let (status, stderr) = try Self.runTool(["grim", out], socket: socket, runtime: run.runtimeDirectory)
            if allowed {
                #expect(status == 0, "grim exited \(status): \(stderr)")
                let image = try PNGFile.read(path: out)
                #expect(image.width == 320 && image.height == 200)
            } else {
                // Refused because the global is hidden from it, not for any other reason.
                #expect(status == 1, "grim exited \(status): \(stderr)")
                #expect(
                    stderr.contains("compositor doesn't support wlr-screencopy-unstable-v1"), "grim said: \(stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            }
            run.send(SIGTERM)
            _ = await run.finish()
        }
    }

    /// Runs a tool from the test process (not a descendant of Strata) on Strata's socket.
    static func runTool(_ argv: [String], socket: String, runtime: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        var env = StrataRun.childEnvironment
        env["WAYLAND_DISPLAY"] = socket
        env["XDG_RUNTIME_DIR"] = runtime
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test(.enabled(if: StrataRun.isInstalled("wlr-randr"), "wlr-randr is not installed (apt-get install wlr-randr)"))
    func wlrRandrListsTheScreensModesAndSwitchesOne() async throws {
        // Three privileged clients in one script, each on its own connection (no --allow-privileged).
        let script =
            "wlr-randr; echo ---; wlr-randr --output HEADLESS-1 --mode 800x600 && echo mode-set; echo ---; wlr-randr"
        let result = try await StrataRun.run(
            ["--size", "640x480", "--mode", "800x600", "--screens", "2"],
            command: Self.shell(script), screenshots: true)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let parts = result.stdout.components(separatedBy: "---\n")
        try #require(parts.count == 3, "stdout: \(result.stdout)")
        #expect(parts[0].contains("HEADLESS-1") && parts[0].contains("HEADLESS-2"))
        #expect(
            parts[0].contains("640x480 px, 60.000000 Hz (preferred, current)")
                && parts[0].contains("800x600 px, 60.000000 Hz"),
            "wlr-randr: \(parts[0])")
        #expect(parts[1].contains("mode-set"), "stderr: \(result.stderr)")
        // wlr-randr lists the newest head first: HEADLESS-1's part is the one after its name.
        let after = parts[2].components(separatedBy: "HEADLESS-1 \"").last ?? ""
        #expect(
            after.contains("800x600 px, 60.000000 Hz (current)") && !after.contains("HEADLESS-2"),
            "wlr-randr: \(parts[2])")
        #expect(parts[2].components(separatedBy: "(preferred, current)").count == 2, "HEADLESS-2 keeps its mode")
        #expect(result.screenshots["HEADLESS-1.png"].map { $0.width == 800 && $0.height == 600 } == true)
        #expect(result.screenshots["HEADLESS-2.png"].map { $0.width == 640 && $0.height == 480 } == true)
    }

    /// wayvnc (a zwlr_virtual_pointer_v1 client, started by Strata) turns a VNC viewer's wheel step
    /// into axis_discrete + axis + axis_source + frame; weston-eventdemo (wl_pointer before v8) logs the
    /// step and the value inside one frame. Before virtual pointer frames, the step was lost.
    @Test(
        .enabled(
            if: StrataRun.isInstalled("wayvnc") && StrataRun.isInstalled("weston-eventdemo"),
            "wayvnc or weston-eventdemo is not installed (apt-get install wayvnc weston)"))
    func wayvncWheelStepReachesTheWindowAsOneDiscreteScroll() async throws {
        let port = UInt16.random(in: 20000...60000)
        let script = "stdbuf -oL weston-eventdemo --log-axis & wayvnc 127.0.0.1 \(port) & wait"
        let run = try StrataRun(["--size", "640x480"], command: Self.shell(script))
        _ = try #require(await run.socketName())
        let viewer = await StrataRun.poll(timeout: 20) { RFBPointer(port: port) }
        let connected = try #require(viewer, "wayvnc never answered; stderr: \(run.stderr)")
        // eventdemo maps in its own time: a step every poll until one reaches it (the middle of
        // the screen is inside its window).
        let seen = await StrataRun.poll(timeout: 20) { () -> Bool? in
            _ = connected.scrollDown(x: 320, y: 240)
            return run.stdout.contains("axis discrete") ? true : nil
        }
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(seen == true, "stdout: \(result.stdout) stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let step = try #require(lines.firstIndex { $0.contains("axis discrete") }, "stdout: \(result.stdout)")
        #expect(lines[step] == "axis discrete axis: 0 value: 1", "stdout: \(result.stdout)")
        #expect(
            lines.count > step + 2 && lines[step + 1].hasSuffix("axis: vertical, value: 15.000000")
                && lines[step + 2] == "pointer frame",
            "stdout: \(result.stdout)")
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("wtype") && StrataRun.isInstalled("weston-eventdemo"),
            "wtype or weston-eventdemo is not installed (apt-get install wtype weston)"))
    func wtypeTypesIntoTheKeyWindow() async throws {
        // weston-eventdemo logs every key it gets; stdbuf keeps its lines from a SIGTERM'd buffer.
        // wtype runs once eventdemo's window is visible (an experiment's wait-window; it is key from
        // then on, and its keyboard enter is on the socket before any key wtype makes); the test
        // stops Strata once eventdemo logged all five presses, so no sleep decides the outcome.
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let script =
            "stdbuf -oL weston-eventdemo --log-key & "
            + "echo 'wait-window org.freedesktop.weston.eventdemo 30' | \"$0\" run - >/dev/null && wtype 'Hi!' && echo wtype-done; wait"
        let run = try StrataRun(["--size", "640x480"], command: ["/bin/sh", "-c", script, ctl])
        _ = try #require(await run.socketName())
        let presses = { run.stdout.components(separatedBy: "state: pressed").count - 1 }
        _ = await StrataRun.poll(timeout: 30) { run.stdout.contains("wtype-done") && presses() >= 5 ? true : nil }
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.stdout.contains("wtype-done"), "stderr: \(result.stderr)")
        let pressed = result.stdout.split(separator: "\n").filter { $0.contains("state: pressed") }
            .compactMap { $0.components(separatedBy: "unicode: ").last?.split(separator: ",").first }
        // Shift_L (65505) around H and !, as a keyboard would type them.
        #expect(pressed == ["65505", "72", "105", "65505", "33"], "eventdemo: \(result.stdout)")
    }
}
