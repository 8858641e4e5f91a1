import Foundation
import Glibc
import StrataRender
import Testing

/// The control socket end to end: the built `strata` and `strata-ctl`, with strata-color-client
/// windows; every strata-ctl command at least once, and the example experiments.
@Suite(.serialized) struct ControlTests {
    static let ctl = StrataRun.sibling("strata-ctl")
    static let colorClient = StrataRun.sibling("strata-color-client")
    static let ready = ctl != nil && colorClient != nil
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples").path

    /// The environment for children: the build folder first on PATH (strata-color-client).
    static var path: String {
        let folder = (StrataRun.binaryPath as NSString).deletingLastPathComponent
        return folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// A running Strata and its control socket.
    struct Session {
        let run: StrataRun
        let socket: String

        static func start(_ arguments: [String] = ["--size", "640x480"]) async throws -> Session {
            let run = try StrataRun(arguments, environment: ["PATH": ControlTests.path])
            let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
            return Session(run: run, socket: socket)
        }

        /// Runs `strata-ctl arguments…` against this Strata.
        @discardableResult
        func ctl(_ arguments: String..., expectStatus: Int32? = 0, sourceLocation: SourceLocation = #_sourceLocation)
            async throws -> ProcessResult
        {
            try await ctl(arguments, expectStatus: expectStatus, sourceLocation: sourceLocation)
        }

        /// Runs `strata-ctl arguments…` against this Strata.
        @discardableResult
        func ctl(_ arguments: [String], expectStatus: Int32? = 0, sourceLocation: SourceLocation = #_sourceLocation)
            async throws -> ProcessResult
        {
            let result = try await ProcessResult.run(
                [try #require(ControlTests.ctl)] + arguments,
                environment: ["STRATA_SOCKET": socket, "PATH": ControlTests.path],
                directory: run.root)
            if let expectStatus {
                #expect(
                    result.status == expectStatus, "strata-ctl \(arguments.joined(separator: " ")): \(result.stderr)",
                    sourceLocation: sourceLocation)
            }
            return result
        }

        /// The windows as JSON objects, front to back.
        func windows() async throws -> [[String: Any]] {
            let output = try await ctl("windows", "--json").stdout
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            return object?["windows"] as? [[String: Any]] ?? []
        }

        func waitForWindow(_ appID: String) async throws -> Int {
            for _ in 0..<200 {
                if let window = try await windows().first(where: {
                    $0["app_id"] as? String == appID && $0["hidden"] as? Bool == false
                }),
                    let id = window["id"] as? Int
                {
                    return id
                }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            throw StrataRun.Failure("no window \(appID) appeared")
        }

        func stop() async -> StrataResult {
            run.send(SIGTERM)
            return await run.finish()
        }

        /// Runs `body`, then stops Strata and expects it to end cleanly; Strata (its clients with
        /// it) is stopped whatever `body` throws.
        func stopping(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
            async throws
        {
            do {
                try await body()
            } catch {
                _ = await stop()
                throw error
            }
            #expect(await stop().status == 0, sourceLocation: sourceLocation)
        }
    }

    @Test func strataPrintsAPrivateControlSocketAndRemovesItAtExit() async throws {
        let session = try await Session.start()
        #expect(
            session.socket == session.run.runtimeDirectory + "/strata-wayland-0.sock"
                || session.socket.hasSuffix(".sock"))
        var info = stat()
        #expect(stat(session.socket, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let result = await session.stop()
        #expect(result.status == 0)
        #expect(
            !result.runtimeDirectoryContents.contains { $0.hasSuffix(".sock") }, "\(result.runtimeDirectoryContents)")
    }

    /// The socket's mode keeps other users out; the uid check (SO_PEERCRED) is the second lock:
    /// with the mode opened up on purpose, a peer with another uid is still refused.
    @Test(
        .enabled(
            if: getuid() == 0 && ctl != nil && StrataRun.isInstalled("setpriv"), "needs root, setpriv and strata-ctl"))
    func peersWithAnotherUidAreRefused() async throws {
        let session = try await Session.start()
        chmod(session.run.root, 0o755)
        chmod(session.run.runtimeDirectory, 0o755)
        chmod(session.socket, 0o666)
        let ctl = try #require(Self.ctl)
        chmod(ctl, 0o755)
        let result = try await ProcessResult.run(
            [
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ctl, "version", "--socket",
                session.socket,
            ],
            environment: [:], directory: "/")
        #expect(result.status != 0)
        #expect(result.stderr.contains("strata-ctl: error:"), "\(result.stderr)")
        #expect(session.run.stderr.contains("refused a connection from another user"))
        #expect(try await session.ctl("version").status == 0)
        _ = await session.stop()
    }

    @Test func theCommandSeesStrataSocket() async throws {
        let result = try await StrataRun.run(
            [], command: ["sh", "-c", "test -S \"$STRATA_SOCKET\" && echo ok:$STRATA_SOCKET"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok:/"))
    }

    @Test func noControlRunsWithoutTheSocket() async throws {
        let result = try await StrataRun.run(["--no-control"], command: ["sh", "-c", "test -z \"$STRATA_SOCKET\""])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("STRATA_SOCKET="))
    }

    @Test func placementIsChosenOnTheCommandLineAndSwitchedFromStrataCtl() async throws {
        let session = try await Session.start(["--size", "640x480", "--placement", "center"])
        #expect(try await session.ctl("placement").stdout == "center\n")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.centred", "--size", "100x80", "--color", "ff0000",
            "--seconds", "600")
        let id = try await session.waitForWindow("e2e.centred")
        let frame = try #require(
            try await session.windows().first { $0["id"] as? Int == id }?["frame"] as? [String: Any])
        let width = try #require(frame["width"] as? Int), height = try #require(frame["height"] as? Int)
        #expect(frame["x"] as? Int == (640 - width) / 2 && frame["y"] as? Int == (480 - height) / 2, "\(frame)")
        try await session.ctl("placement", "top-left")
        #expect(try await session.ctl("placement").stdout == "top-left\n")
        let refused = try await session.ctl("placement", "random", expectStatus: 1)
        #expect(refused.stderr.contains("invalid_argument"), "\(refused.stderr)")
        #expect(try await session.ctl("placement").stdout == "top-left\n")
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ready, "strata-ctl or strata-color-client is not built"))
    func everyWindowCommandWorksFromTheCommandLine() async throws {
        let session = try await Session.start()
        let pidText = try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.first", "--size", "100x80", "--color", "ff0000",
            "--seconds", "600"
        ).stdout
        #expect(Int(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
        let first = try await session.waitForWindow("e2e.first")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "e2e.second", "--size", "100x80", "--color", "00ff00",
            "--seconds", "600")
        let second = try await session.waitForWindow("e2e.second")

        let table = try await session.ctl("windows").stdout
        #expect(table.hasPrefix("ID  APP_ID"))
        #expect(table.contains("e2e.first") && table.contains("e2e.second"))

        try await session.ctl("make-key", "e2e.first")
        #expect(try await session.windows().first { $0["key"] as? Bool == true }?["id"] as? Int == first)
        try await session.ctl("raise", "e2e.first")
        #expect(try await session.windows().first?["id"] as? Int == first)
        try await session.ctl("lower", String(first))
        #expect(try await session.windows().last?["id"] as? Int == first)
        try await session.ctl("set-level", "e2e.first", "alert")
        #expect(try await session.windows().first?["level"] as? String == "alert")
        try await session.ctl("hide", "e2e.first")
        #expect(try await session.windows().first { $0["id"] as? Int == first }?["hidden"] as? Bool == true)
        try await session.ctl("show", "--key", "e2e.first")
        #expect(try await session.windows().first { $0["key"] as? Bool == true }?["id"] as? Int == first)
        // Key switches so far: the two maps, make-key, the successor of the hide, show --key.
        let stats = try await session.ctl("stats").stdout
        #expect(stats.split(separator: " ").prefix(3) == ["APP", "REQUESTS", "GRANTED"], "\(stats)")
        #expect(stats.contains("\ne2e.first ") && stats.contains("\ne2e.second "))
        let statsJSON = try await session.ctl("stats", "--json", "--window-ms", "100").stdout
        let reply = try JSONSerialization.jsonObject(with: Data(statsJSON.utf8)) as? [String: Any]
        let run = reply?["run"] as? [String: Any]
        #expect((run?["key_switches"] as? [String: Any])?["total"] as? Int == 5, "\(statsJSON)")
        #expect((run?["keystrokes_after_key"] as? [String: Any])?["window_ms"] as? Int == 100)
        #expect(try await session.ctl("stats", "--window-ms", "0", expectStatus: 64).stderr.contains("--window-ms"))

        try await session.ctl("screen", "add", "--size", "800x600", "--name", "EXT")
        try await session.ctl("move", "e2e.second", "--screen", "EXT", "--to", "20,30")
        let moved = try await session.windows().first { $0["id"] as? Int == second }
        #expect(moved?["screen"] as? Int == 2)
        #expect((moved?["frame"] as? [String: Any])?["x"] as? Int == 20)
        // Without --screen the window keeps its screen.
        try await session.ctl("move", "e2e.second", "--to", "40,10")
        let movedAgain = try await session.windows().first { $0["id"] as? Int == second }
        #expect(movedAgain?["screen"] as? Int == 2)
        #expect((movedAgain?["frame"] as? [String: Any])?["x"] as? Int == 40)
        // Neither a screen nor a place: refused before connecting (a usage error).
        let refused = try await session.ctl("move", "e2e.second", expectStatus: 64)
        #expect(refused.stderr.contains("move needs --screen, --to, or both"))

        #expect(try await session.ctl("policy").stdout == "uikit\n")
        try await session.ctl("policy", "click-to-focus")
        #expect(try await session.ctl("policy").stdout == "click-to-focus\n")

        try await session.ctl("close", "e2e.first")
        for _ in 0..<100 where try await session.windows().contains(where: { $0["id"] as? Int == first }) {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(try await !session.windows().contains { $0["id"] as? Int == first })

        let failed = try await session.ctl("make-key", "999", expectStatus: 1)
        #expect(failed.stderr.contains("unknown_window"))
        try await session.ctl("sync")
        #expect(try await session.ctl("version").stdout.contains("protocol 1"))
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func everyScreenAndInputCommandWorksFromTheCommandLine() async throws {
        let session = try await Session.start()
        let id = try await session.ctl("screen", "add", "--size", "800x600", "--mode", "1024x768@30", "--name", "EXT")
            .stdout
        #expect(id == "2\n")
        try await session.ctl("screen", "mode", "EXT", "1024x768@30")
        try await session.ctl("screen", "brightness", "EXT", "0.5")
        try await session.ctl("screen", "transform", "2", "flipped-90")
        try await session.ctl("screen", "mirror", "EXT", "off")
        let screens = try await session.ctl("screens").stdout
        #expect(
            screens.contains("EXT") && screens.contains("1024x768@30") && screens.contains("flipped-90")
                && screens.contains("0.5"))
        let json = try await session.ctl("screens", "--json").stdout
        #expect(json.contains("\"mirrors_when_empty\":false"))
        try await session.ctl("screen", "mode", "EXT", "640x480", expectStatus: 1)
        try await session.ctl("screen", "remove", "EXT")
        #expect(try await !session.ctl("screens").stdout.contains("EXT"))

        let shot = session.run.root + "/shot.png"
        #expect(try await session.ctl("screenshot", "-o", "shot.png").stdout == shot + "\n")
        let image = try PNGFile.read(path: shot)
        #expect(image.width == 640 && image.height == 480)
        try await session.ctl("screenshot", "HEADLESS-1", "-o", shot)

        try await session.ctl("input", "pointer", "move", "10", "20")
        try await session.ctl("input", "pointer", "move", "--screen", "1", "30", "40")
        try await session.ctl("input", "pointer", "button", "left", "down")
        try await session.ctl("input", "pointer", "button", "left", "up")
        try await session.ctl("input", "pointer", "click")
        try await session.ctl("input", "pointer", "click", "right")
        try await session.ctl("input", "key", "Return")
        try await session.ctl("input", "key", "30", "down")
        try await session.ctl("input", "key", "code:30", "up")
        try await session.ctl("input", "key", "NoSuchKey", expectStatus: 1)
        try await session.ctl("input", "type", "Hello, Strata!")
        try await session.ctl("input", "touch", "down", "1", "5", "5")
        try await session.ctl("input", "touch", "move", "1", "6", "6")
        try await session.ctl("input", "touch", "up", "1")

        let events = try await session.ctl("events", "--since", "0", "--no-follow").stdout
        #expect(events.contains("screenDidConnect screen=2"))
        #expect(events.contains("screenDidDisconnect screen=2"))
        let marker = session.run.root + "/exec-ran"
        try await session.ctl("exec", "--", "touch", marker)
        #expect(
            await StrataRun.poll(timeout: 20) { FileManager.default.fileExists(atPath: marker) ? true : nil } == true)
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ctl != nil, "strata-ctl is not built"))
    func eventsStreamWhileOtherCommandsChangeTheModel() async throws {
        let session = try await Session.start()
        let ctl = try #require(Self.ctl)
        // `--since 0` replays what happened before the subscription took (events of a fresh
        // Strata start with its control socket), so no wait for the subscriber decides the outcome.
        async let streamed = ProcessResult.run(
            [ctl, "events", "--json", "--since", "0", "--count", "3"],
            environment: ["STRATA_SOCKET": session.socket], directory: session.run.root)
        try await session.ctl("screen", "add", "--name", "LIVE")
        try await session.ctl("screen", "remove", "LIVE")
        let result = try await streamed
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").compactMap { line -> String? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["name"] as? String
        }
        #expect(names == ["screenDidConnect", "screenDidChangeMirroring", "screenDidDisconnect"])
        _ = await session.stop()
    }

    // MARK: Experiments

    static let exampleFiles: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? [])
        .filter { $0.hasSuffix(".strata") }.sorted()

    /// examples/ is in git: an empty listing would make the parameterized test below run nothing.
    @Test func theExampleExperimentsAreFound() {
        #expect(Self.exampleFiles.count >= 3, "no .strata files in \(Self.examples)")
    }

    @Test(.enabled(if: ready, "strata-ctl or strata-color-client is not built"), arguments: exampleFiles)
    func exampleExperimentPasses(_ file: String) async throws {
        let ctl = try #require(Self.ctl)
        // From the repository's top folder, with the python package importable: the policy
        // examples start `python3 -m strata_testing.delegate examples/policies/….py`.
        let top = (Self.examples as NSString).deletingLastPathComponent
        let result = try await StrataRun.run(
            ["--size", "1280x720"],
            command: ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", top, ctl, "run", "examples/" + file],
            environment: ["PATH": Self.path, "PYTHONPATH": top + "/python/src"], timeout: 60)
        #expect(result.status == 0, "\(file): \(result.stderr)")
        #expect(result.stdout.contains("passed"))
    }

    @Test(.enabled(if: ready, "strata-ctl or strata-color-client is not built"))
    func failingExpectationNamesTheLineAndWhatWasExpected() async throws {
        let ctl = try #require(Self.ctl)
        let run = try StrataRun([], environment: ["PATH": Self.path])
        let file = run.root + "/failing.strata"
        try """
        # a window, then a wrong expectation
        exec -- strata-color-client --app-id e2e.only --seconds 600
        wait-window e2e.only

        expect key none
        """.write(toFile: file, atomically: true, encoding: .utf8)
        _ = await run.socketName()
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let result = try await ProcessResult.run(
            [ctl, "run", "--expect-timeout", "0.5", file],
            environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("failing.strata:5: expected no key window, but window"), "\(result.stderr)")
        run.send(SIGTERM)
        _ = await run.finish()
    }

    /// `wait-delegate` with no delegate coming: the line fails at its timeout and says what it
    /// waited for (the examples/ policy experiments are the other half: a delegate that comes).
    @Test(.enabled(if: ready, "strata-ctl or strata-color-client is not built"))
    func waitDelegateWithoutADelegateFailsAtItsTimeout() async throws {
        let ctl = try #require(Self.ctl)
        let run = try StrataRun([], environment: ["PATH": Self.path])
        let file = run.root + "/no-delegate.strata"
        try "# nobody registers\nwait-delegate 0.3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = run.root + "/bad-delegate.strata"
        try "wait-delegate soon\n".write(toFile: bad, atomically: true, encoding: .utf8)
        _ = await run.socketName()
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let result = try await ProcessResult.run(
            [ctl, "run", file], environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("no-delegate.strata:2: no policy delegate registered within 0.3 s"),
            "\(result.stderr)")
        let malformed = try await ProcessResult.run(
            [ctl, "run", bad], environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("bad-delegate.strata:1: wait-delegate takes an optional timeout in seconds"))
        run.send(SIGTERM)
        _ = await run.finish()
    }

    /// weston-terminal dragged by its top-left corner (its own decoration asks for the resize):
    /// the window grows up and left while its right and bottom edges stay where they were, even
    /// though the terminal rounds the size to whole character cells (the origin follows the size
    /// the client commits, not the size the pointer asked for).
    @Test(.enabled(if: ready && StrataRun.isInstalled("weston-terminal"), "strata-ctl or weston-terminal is missing"))
    func aTopLeftResizeOfWestonTerminalKeepsItsBottomRightCorner() async throws {
        let appID = "org.freedesktop.weston.wayland-terminal"
        let session = try await Session.start(["--size", "1280x800"])
        try await session.ctl("exec", "--", "weston-terminal")
        let id = String(try await session.waitForWindow(appID))
        try await session.ctl("move", id, "--screen", "1", "--to", "200,150")
        func frame() async throws -> (x: Int, y: Int, width: Int, height: Int)? {
            guard let window = try await session.windows().first(where: { $0["app_id"] as? String == appID }),
                let f = window["frame"] as? [String: Int], let x = f["x"], let y = f["y"], let w = f["width"],
                let h = f["height"]
            else { return nil }
            return (x, y, w, h)
        }
        let before = try #require(try await frame())
        #expect(before.x == 200 && before.y == 150)
        try await session.ctl("input", "pointer", "move", "201", "151")
        try await session.ctl("input", "pointer", "button", "left", "down")
        // The terminal answers the press with xdg_toplevel.resize in its own time: move until the
        // frame changes (each motion of the grab sends a configure).
        var during: (x: Int, y: Int, width: Int, height: Int)?
        for _ in 0..<100 where during == nil {
            try await session.ctl("input", "pointer", "move", "161", "121")
            if let now = try await frame(), now.width != before.width || now.height != before.height {
                during = now
            } else {
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        try await session.ctl("input", "pointer", "button", "left", "up")
        let resized = try #require(during, "the terminal never resized: \(session.run.stderr)")
        #expect(resized.width > before.width && resized.height > before.height)
        #expect(
            resized.x + resized.width == before.x + before.width
                && resized.y + resized.height == before.y + before.height,
            "before \(before), after \(resized)")
        #expect(resized.x < before.x && resized.y < before.y)
        _ = await session.stop()
    }
}

/// A finished process: status, standard output and error.
struct ProcessResult {
    /// The exit status, or the number of the signal that killed it (`killedBySignal`), or 124
    /// when it was killed at the deadline.
    var status: Int32
    var stdout: String
    var stderr: String
    var killedBySignal = false

    /// "exited with status N", "was killed by signal N (NAME)".
    var ending: String {
        guard killedBySignal else { return "exited with status \(status)" }
        return "was killed by signal \(status) (\(String(cString: strsignal(status))))"
    }

    /// Runs `argv` with `environment` added to the test's, in `directory`, killed after `timeout`.
    /// Whether process `pid` has exited and waits to be reaped (state Z in /proc/PID/stat).
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst().drop(while: { $0 == " " }).first == "Z"
    }

    static func run(_ argv: [String], environment: [String: String], directory: String, timeout: Double = 30)
        async throws -> ProcessResult
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        var env = StrataRun.childEnvironment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "STRATA_SOCKET"] { env[name] = nil }
        for (name, value) in environment { env[name] = value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let token = UUID().uuidString
        let out = directory + "/.out-" + token, err = directory + "/.err-" + token
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let outHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Foundation learns of the exit on a thread of its own, which a loaded machine can hold
        // back for many seconds after the process ended: a zombie counts as ended too, and its
        // status is then waited for.
        let pid = process.processIdentifier
        let ended =
            await StrataRun.poll(timeout: timeout) { !process.isRunning || Self.isZombie(pid) ? true : nil } ?? false
        if !ended {
            process.terminate()
        }
        // Foundation's own wait, bounded: its monitor thread once missed an exit for good (the
        // child stayed a zombie and waitUntilExit spun for 15 minutes in CI). Past 10 s the
        // status is read from the zombie without reaping it (WNOWAIT), so Foundation may still.
        var status: Int32 = 1, killed = false
        if await StrataRun.poll(timeout: 10, { process.isRunning ? nil : true }) == nil {
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 else {
                throw StrataRun.Failure("\(argv[0]) (pid \(pid)) cannot be waited for")
            }
            status = info._sifields._sigchld.si_status
            killed = info.si_code != CLD_EXITED
        } else {
            status = process.terminationStatus
            killed = process.terminationReason == .uncaughtSignal
        }
        try? outHandle.close()
        try? errHandle.close()
        let result = ProcessResult(
            status: ended ? status : 124,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
            killedBySignal: ended && killed)
        try? FileManager.default.removeItem(atPath: out)
        try? FileManager.default.removeItem(atPath: err)
        return result
    }
}
