import Foundation
import Glibc
import StrataTestSupport
import Testing

/// Every error path of `strata` and `strata-ctl` a user can reach (bad options, output paths
/// that cannot be written, missing files, bad window names, no Strata running): each exits with
/// its documented status, says what is wrong in words (naming the path or the name), and never
/// prints a raw Swift error description.
@Suite(.serialized) struct ErrorMessageEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl")

    /// What a raw Swift error description looks like (`CocoaError(_nsError: …, rawValue: 516)`,
    /// `POSIXError(_nsError: …)`, `Optional("…")`, a struct's `Failure(description: …)`).
    static let rawPatterns = [
        "Error(", "rawValue:", "CocoaError", "POSIXError(", "Optional(", "_code", "NSCocoaErrorDomain",
    ]

    static func expectInWords(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for pattern in rawPatterns {
            #expect(
                !text.contains(pattern), "\(what) printed a raw Swift error (\(pattern)): \(text)",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: strata

    /// An output path that cannot be written stops Strata before the command runs (the marker
    /// file is never made), with exit status 1 and the path and its problem in words.
    @Test func strataRefusesAnUnwritableOutputPathBeforeTheCommandRuns() async throws {
        let folder = try ScratchFolder()
        let file = folder.path + "/a-file", marker = folder.path + "/ran"
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let cases: [([String], String)] = [
            (["--screenshot", file], "--screenshot \(file): \(file) exists and is a regular file, not a directory"),
            (
                ["--screenshot", file + "/shots"],
                "--screenshot \(file)/shots: \(file) is a regular file, not a directory"
            ),
            (["--record", folder.path], "--record \(folder.path): \(folder.path) is a directory, not a file"),
            (
                ["--record", folder.path + "/missing/x.trace"],
                "--record \(folder.path)/missing/x.trace: the directory \(folder.path)/missing does not exist"
            ),
            (["--record", "/dev/null"], "--record /dev/null: /dev/null is a character device, not a regular file"),
        ]
        for (arguments, message) in cases {
            let result = try await StrataRun.run(
                ["--backend", "headless"] + arguments, command: ["touch", marker], expecting: .status(1))
            #expect(result.stderr.contains("strata: error: \(message)"), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker), "\(arguments): the command ran")
            #expect(!result.stdout.contains("WAYLAND_DISPLAY="), "\(arguments): Strata started")
            Self.expectInWords(result.stderr + result.stdout, "strata \(arguments)")
        }
    }

    /// A screenshot directory that does not exist yet is made, with its parents, at the end.
    @Test func aMissingScreenshotDirectoryIsMadeAtTheEnd() async throws {
        let folder = try ScratchFolder()
        let shots = folder.path + "/deep/er/shots"
        let result = try await StrataRun.run(["--backend", "headless", "--screenshot", shots], command: ["true"])
        #expect(FileManager.default.fileExists(atPath: shots + "/HEADLESS-1.png"), "\(result.stderr)")
    }

    @Test func strataUsageErrorsAreInWords() async throws {
        let cases: [[String]] = [
            ["--no-such-option"], ["--size", "0x0"], ["--screens", "99"], ["--policy", "random"],
            ["--disable-global", "no_such_global"], ["--socket", "a/b"], ["--level", "nolevel"], ["--overscan", "90"],
        ]
        for arguments in cases {
            let result = try await StrataRun.run(
                ["--backend", "headless"] + arguments, command: ["true"], expecting: .failure)
            #expect(result.stderr.contains("rror"), "\(arguments): \(result.stderr)")
            Self.expectInWords(result.stderr + result.stdout, "strata \(arguments)")
        }
    }

    /// A command that cannot start (127) and a parent session that is not there (1).
    @Test func strataStartErrorsAreInWords() async throws {
        let missing = try await StrataRun.run(
            ["--backend", "headless"], command: ["/nonexistent/command"], expecting: .status(127))
        #expect(
            missing.stderr.contains("strata: error: cannot start '/nonexistent/command': No such file or directory"),
            "\(missing.stderr)")
        Self.expectInWords(missing.stderr, "strata -- /nonexistent/command")
        for backend in ["wayland", "x11"] {
            let result = try await StrataRun.run(["--backend", backend], command: ["true"], expecting: .status(1))
            #expect(result.stderr.contains("strata: error: --backend \(backend): "), "\(result.stderr)")
            Self.expectInWords(result.stderr, "strata --backend \(backend)")
        }
    }

    // MARK: strata-ctl without a Strata

    /// No Strata: exit status 1 (not the usage status 64), and how to start one.
    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func strataCtlWithoutAStrataExitsOneAndSaysHowToStartOne() async throws {
        let ctl = try #require(Self.ctl)
        let folder = try ScratchFolder()
        let empty = folder.path + "/runtime"
        mkdir(empty, 0o700)
        let environments: [[String: String]] = [
            ["XDG_RUNTIME_DIR": empty], ["XDG_RUNTIME_DIR": ""], ["STRATA_SOCKET": empty + "/strata-gone.sock"],
        ]
        for environment in environments {
            for arguments in [["windows"], ["close", "foot"], ["run", "-"], ["events"]] {
                let result = try await ProcessResult.run(
                    [ctl] + arguments, environment: environment, directory: folder.path)
                #expect(result.status == 1, "\(environment) \(arguments): \(result.ending): \(result.stderr)")
                #expect(result.stderr.contains("strata -- COMMAND"), "\(environment) \(arguments): \(result.stderr)")
                #expect(result.stderr.contains("STRATA_SOCKET"), "\(result.stderr)")
                Self.expectInWords(result.stderr + result.stdout, "strata-ctl \(arguments) \(environment)")
            }
        }
    }

    /// A subcommand's bad arguments print that subcommand's usage (exit 64), before any
    /// connection.
    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func aSubcommandsValidationErrorPrintsItsOwnUsage() async throws {
        let ctl = try #require(Self.ctl)
        let folder = try ScratchFolder()
        let cases: [([String], String)] = [
            (["move", "1"], "strata-ctl move "), (["step", "0"], "strata-ctl step "),
            (["record-video"], "strata-ctl record-video "), (["resize", "1", "100"], "strata-ctl resize "),
            (["record", "start"], "strata-ctl record "),
            (["screen", "brightness", "1", "7"], "strata-ctl screen brightness "),
            (["input", "touch", "hover", "1"], "strata-ctl input touch "), (["exec"], "strata-ctl exec "),
        ]
        for (arguments, usage) in cases {
            let result = try await ProcessResult.run(
                [ctl] + arguments, environment: ["XDG_RUNTIME_DIR": folder.path], directory: folder.path)
            #expect(result.status == 64, "\(arguments): \(result.ending): \(result.stderr)")
            #expect(result.stderr.contains("Usage: \(usage)"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("strata-ctl <subcommand>"), "\(arguments): \(result.stderr)")
            Self.expectInWords(result.stderr + result.stdout, "strata-ctl \(arguments)")
        }
    }

    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func offlineCommandsSayWhatIsWrongWithTheirFiles() async throws {
        let ctl = try #require(Self.ctl)
        let folder = try ScratchFolder()
        let cases: [([String], Int32, String)] = [
            (["report", "missing.trace", "-o", "/nonexistent/page.html"], 1, "/nonexistent does not exist"),
            (["report", "missing.trace", "-o", folder.path], 1, "is a directory, not a file"),
            (["report", "missing.trace", "-o", "page.html"], 2, "missing.trace"),
            (["replay", "missing.trace", "--report", "/nonexistent/page.html"], 2, "/nonexistent does not exist"),
            (["replay", "missing.trace"], 2, "missing.trace"),
            (["run", "missing.strata"], 1, "cannot read missing.strata"),
        ]
        for (arguments, status, message) in cases {
            let result = try await ProcessResult.run(
                [ctl] + arguments, environment: ["XDG_RUNTIME_DIR": folder.path], directory: folder.path)
            #expect(result.status == status, "\(arguments): \(result.ending): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            Self.expectInWords(result.stderr + result.stdout, "strata-ctl \(arguments)")
        }
    }

    // MARK: strata-ctl with a Strata

    /// Requests a running Strata refuses: each exits 1 with the reason in words.
    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func refusedRequestsAreInWords() async throws {
        let session = try await ControlTests.Session.start()
        let root = session.run.root
        FileManager.default.createFile(atPath: root + "/a-file", contents: Data())
        let experiment = root + "/bad.strata"
        try "close title:no-such-window\n".write(toFile: experiment, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (
                ["close", "title:no-such-window"],
                "no window has title \"no-such-window\"; no window is open (unknown_window)"
            ),
            (["make-key", "pid:abc"], "pid: takes a process id"),
            (["raise", "999"], "no open window has id 999"),
            (["maximize", "nothing"], "no window has app id \"nothing\""),
            (["record", "start", root], "cannot record to \(root): \(root) is a directory, not a file"),
            (["record", "start", "/nonexistent/x.trace"], "the directory /nonexistent does not exist"),
            (
                ["record-video", "-o", "/nonexistent/x.mp4"],
                "cannot record video to /nonexistent/x.mp4: the directory /nonexistent does not exist"
            ),
            (["record-video", "-o", root + "/a-file/x.webm"], "\(root)/a-file is a regular file, not a directory"),
            (["screenshot", "-o", "/nonexistent/x.png"], "cannot write the screenshot to /nonexistent/x.png"),
            (["screenshot", "-o", root], "\(root) is a directory, not a file"),
            (["screen", "mode", "1", "123x456"], "has no mode 123x456"),
            (["screen", "remove", "HDMI-9"], "no connected screen is called"),
            (["exec", "--", "/nonexistent/program"], "cannot start /nonexistent/program"),
            (["step"], "step needs the manual clock"),
            (["run", experiment], "bad.strata:1: close title:no-such-window: no window has title"),
        ]
        for (arguments, message) in cases {
            let result = try await session.ctl(arguments, expectStatus: 1)
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            Self.expectInWords(result.stderr + result.stdout, "strata-ctl \(arguments)")
        }
        #expect(await session.stop().status == 0)
    }
}
