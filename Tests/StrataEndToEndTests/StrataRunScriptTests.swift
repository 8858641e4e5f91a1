import Foundation
import Glibc
import StrataTestSupport
import Testing

/// `strata-run` (scripts/strata-run, installed beside strata): xvfb-run's options, a headless
/// Strata with Wayland and X11, the command's status passed through; and `strata --ready-fd`.
@Suite struct StrataRunScriptTests {
    static let script: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/strata-run").path
    }()

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `sh -c line` (with `$STRATA` and `$STRATA_RUN` set, a private XDG_RUNTIME_DIR and
    /// strata-ctl on PATH) under `timeout`, so a hang is a failure and not a stuck suite.
    static func shell(_ line: String, in folder: ScratchFolder) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", "90", "sh", "-c", line]
        var env = StrataRun.childEnvironment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "STRATA_SOCKET", "XAUTHORITY"] { env[name] = nil }
        let runtime = folder.path + "/runtime"
        mkdir(runtime, 0o700)
        env["XDG_RUNTIME_DIR"] = runtime
        env["STRATA"] = StrataRun.binaryPath
        env["STRATA_BINARY"] = StrataRun.binaryPath
        env["STRATA_RUN"] = script
        env["PATH"] =
            (StrataRun.binaryPath as NSString).deletingLastPathComponent + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let out = folder.path + "/stdout", err = folder.path + "/stderr"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    static let xReady = ["xdpyinfo", "wayland-info", "Xwayland"].allSatisfy(StrataRun.isInstalled)

    @Test func theCommandsStatusAndOutputPassThroughAndStrataKeepsItsOwnOutputApart() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        let outcome = try Self.shell("\"$STRATA_RUN\" sh -c 'echo out; echo err >&2; exit 7'", in: folder)
        #expect(outcome.status == 7, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout == "out\n", "stdout: \(outcome.stdout)")
        #expect(outcome.stderr == "err\n", "stderr: \(outcome.stderr)")
    }

    @Test(.enabled(if: xReady, "xdpyinfo (x11-utils), wayland-info or Xwayland is missing"))
    func xvfbRunsScreenOptionSizesTheScreenForX11AndWayland() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        let line =
            "\"$STRATA_RUN\" -a -s '-screen 0 800x600x24 -dpi 96 -nolisten tcp' sh -c "
            + "'xdpyinfo | grep dimensions; wayland-info | grep -c zwlr_screencopy_manager_v1; strata-ctl screens --json'"
        let outcome = try Self.shell(line, in: folder)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("dimensions:    800x600 pixels"), "stdout: \(outcome.stdout)")
        // The command's Wayland clients are privileged, as under `strata --`.
        #expect(outcome.stdout.contains("\n1\n"), "stdout: \(outcome.stdout)")
        #expect(
            outcome.stdout.contains("\"width\":800") || outcome.stdout.contains("\"width\" : 800"),
            "stdout: \(outcome.stdout)")
        #expect(outcome.stderr.isEmpty, "stderr: \(outcome.stderr)")
    }

    @Test(.enabled(if: xReady, "xdpyinfo (x11-utils), wayland-info or Xwayland is missing"))
    func serverNumErrorFileAndAuthFileMapToStrata() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        // A display number of its own per run (tests run in parallel).
        let number = 200 + Int(getpid() % 500)
        let line =
            "\"$STRATA_RUN\" -n \(number) -e errors.txt -f auth -w 5 sh -c 'echo \"$DISPLAY $XAUTHORITY\"; xdpyinfo >/dev/null && echo x-ok'"
        let outcome = try Self.shell(line, in: folder)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout == ":\(number) auth\nx-ok\n", "stdout: \(outcome.stdout)")
        let errors = (try? String(contentsOfFile: folder.path + "/errors.txt", encoding: .utf8)) ?? ""
        #expect(errors.contains("WAYLAND_DISPLAY=") && errors.contains("DISPLAY=:\(number)"), "errors.txt: \(errors)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/auth"))
    }

    @Test func aStrataThatCannotStartIsReportedWithItsMessages() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        let outcome = try Self.shell("\"$STRATA_RUN\" --strata-arg=--size=1x1x1 true", in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("strata-run: error: Strata did not start"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("size"), "Strata's own message is shown: \(outcome.stderr)")
    }

    @Test func badOptionsSayWhat() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        let cases: [(String, Int32, String)] = [
            ("-l true", 1, "not supported"),
            ("--no-such-option true", 2, "unknown option --no-such-option"),
            ("", 2, "no command to run"),
            ("-n x true", 2, "display number"),
            ("-s '-screen 0 big' true", 2, "WIDTHxHEIGHTxDEPTH"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try Self.shell("\"$STRATA_RUN\" \(arguments)", in: folder)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func helpListsXvfbRunsOptions() throws {
        let folder = try ScratchFolder(prefix: "strata-run")
        let outcome = try Self.shell("\"$STRATA_RUN\" --help", in: folder)
        #expect(outcome.status == 0)
        for option in [
            "--auto-servernum", "--server-num", "--server-args", "--error-file", "--auth-file", "--wait",
            "--listen-tcp",
        ] {
            #expect(outcome.stdout.contains(option), "help: \(outcome.stdout)")
        }
    }

    /// `strata --ready-fd N`: the public socket's name and the X display, one line each, written
    /// before the command starts (so the command can read them), then closed.
    @Test func readyFDNamesTheSocketAndTheXDisplay() throws {
        let folder = try ScratchFolder(prefix: "strata-ready")
        let outcome = try Self.shell(
            "\"$STRATA\" --backend headless --ready-fd 5 -- sh -c 'cat ready; echo \"$WAYLAND_DISPLAY\"' 5>ready",
            in: folder)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let socket = try #require(lines.first { $0.hasPrefix("WAYLAND_DISPLAY=") }?.dropFirst("WAYLAND_DISPLAY=".count))
        let display = try #require(lines.first { $0.hasPrefix("DISPLAY=") }?.dropFirst("DISPLAY=".count))
        try #require(lines.count >= 3, "stdout: \(outcome.stdout)")
        #expect(Array(lines.suffix(3).prefix(2)) == [String(socket), String(display)], "stdout: \(outcome.stdout)")
        #expect(lines.last?.hasPrefix(socket + "-") == true, "the command's WAYLAND_DISPLAY is the privileged socket")
    }

    @Test func readyFDThatIsNotOpenIsAnError() throws {
        let folder = try ScratchFolder(prefix: "strata-ready")
        // Closed first: the test process may hold a descriptor 9 that the shell inherited.
        let outcome = try Self.shell("exec 9>&-; \"$STRATA\" --backend headless --ready-fd 9 -- true", in: folder)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--ready-fd 9: descriptor 9 is not open"), "stderr: \(outcome.stderr)")
        #expect(!outcome.stdout.contains("WAYLAND_DISPLAY="), "nothing started")
    }
}
