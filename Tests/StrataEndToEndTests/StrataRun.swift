import Foundation
import Glibc
import StrataProcess
import StrataRender
import StrataTestSupport
import Testing

/// One run of the built `strata` binary for an end-to-end test: a private XDG_RUNTIME_DIR
/// (fresh, mode 0700), a screenshot folder, standard output and error captured in files, its
/// own process group (so a timeout kills Strata and everything it started), and a hard
/// deadline: no test can hang CI.
///
///     let run = try StrataRun(["--size", "320x200"], command: ["true"])
///     let result = await run.finish()
///
/// Every run must be finished, and `finish` checks how it ended: by default Strata must exit 0,
/// within its deadline, with no sanitizer report or Swift runtime trap on standard error (the
/// ASan build's end-to-end children exit non-zero on a report). A test that expects another
/// ending says so (`finish(expecting: .failure)`). A run released unfinished fails its test: its
/// exit status was never checked. A process of Strata's group still running when Strata has
/// ended fails the test too (listed before the group is killed), unless the test names it
/// (`finish(mayOutlive: ["sleep"])`): Strata stops its command, the clients it started and
/// Xwayland before it exits.
final class StrataRun {
    /// How a test expects Strata to end.
    enum ExpectedExit {
        /// This exact status (0 by default).
        case status(Int32)
        /// A clean failure: a status from 1 to 127 (an error Strata reported), not a signal.
        case failure
    }

    /// The temporary folder holding everything below; removed when the run is released.
    let root: String
    private let folder: ScratchFolder
    let runtimeDirectory: String
    let screenshotDirectory: String
    let pid: pid_t
    private let stdoutPath: String
    private let stderrPath: String
    private var result: StrataResult?
    private let madeAt: SourceLocation

    /// Starts `strata arguments… [--screenshot DIR] [-- command…]`. `environment` overrides the
    /// test's environment (nil removes a variable); XDG_RUNTIME_DIR is the private folder unless
    /// overridden, and the parent's WAYLAND_DISPLAY, WAYLAND_SOCKET and DISPLAY are removed.
    /// `openFileSoftLimit`: strata starts with this soft open-file limit (set by a shell that then
    /// execs strata, so `pid` is strata's), not this process's.
    init(
        _ arguments: [String], command: [String] = [], screenshots: Bool = false,
        environment: [String: String?] = [:], openFileSoftLimit: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        madeAt = sourceLocation
        folder = try ScratchFolder(prefix: "strata-e2e")
        root = folder.path
        runtimeDirectory = root + "/runtime"
        screenshotDirectory = root + "/screenshots"
        stdoutPath = root + "/stdout"
        stderrPath = root + "/stderr"
        guard mkdir(runtimeDirectory, 0o700) == 0 else { throw Failure("cannot create \(runtimeDirectory)") }

        var argv = [StrataRun.binaryPath] + arguments
        if screenshots { argv += ["--screenshot", screenshotDirectory] }
        if !command.isEmpty { argv += ["--"] + command }
        if let openFileSoftLimit {
            argv = ["/bin/sh", "-c", "ulimit -Sn \(openFileSoftLimit) && exec \"$0\" \"$@\""] + argv
        }

        var env = StrataRun.childEnvironment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY"] { env[name] = nil }
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        for (name, value) in environment { env[name] = value }

        // In a process group of its own, standard input from /dev/null, output into files,
        // signals unblocked and at their defaults whatever the test thread's state.
        var launch = ProcessLaunch(argv, environment: env)
        launch.standardInput = .null
        launch.standardOutput = .file(stdoutPath)
        launch.standardError = .file(stderrPath)
        launch.newProcessGroup = true
        do {
            pid = try launch.spawn()
        } catch {
            throw Failure("\(error.description) (run `swift build` first, or set STRATA_BINARY)")
        }
    }

    deinit {
        if result == nil {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            Issue.record(
                "this strata run was never finished, so its exit status was never checked: call finish()",
                sourceLocation: madeAt)
        }
    }

    // MARK: While it runs

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The socket name Strata printed (`WAYLAND_DISPLAY=name`), waiting for it at most `timeout`
    /// seconds; nil if it did not come (or Strata ended first).
    func socketName(timeout: Double = 20) async -> String? {
        await StrataRun.poll(timeout: timeout) {
            if let name = StrataResult.socketName(in: self.stdout) { return name }
            return nil
        }
    }

    /// Whether a file exists in the private runtime folder.
    /// The control socket Strata printed (`STRATA_SOCKET=path`), waiting for it at most `timeout`
    /// seconds; nil if it did not come.
    func controlSocket(timeout: Double = 20) async -> String? {
        await StrataRun.poll(timeout: timeout) { () -> String? in
            self.stdout.split(separator: "\n").first { $0.hasPrefix("STRATA_SOCKET=") }.map {
                String($0.dropFirst("STRATA_SOCKET=".count))
            }
        }
    }

    func runtimeFileExists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: runtimeDirectory + "/" + name)
    }

    func send(_ signal: Int32) { kill(pid, signal) }

    /// The visible windows' app ids, front to back, read through `strata-ctl windows --json`
    /// (nil while the control socket does not answer).
    func visibleWindowAppIDs() -> [String]? {
        windowList().visible
    }

    /// `strata-ctl windows --json`: the visible windows' app ids (nil while the control socket
    /// does not answer), and what strata-ctl said, for a wait's failure message.
    private func windowList() -> (visible: [String]?, said: String) {
        guard let ctl = StrataRun.sibling("strata-ctl") else { return (nil, "no strata-ctl beside strata") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ctl)
        process.arguments = ["windows", "--json"]
        var env = StrataRun.childEnvironment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["STRATA_SOCKET"] = nil
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return (nil, "strata-ctl did not start: \(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let said =
            "strata-ctl windows --json: status \(process.terminationStatus), "
            + "stdout \(String(decoding: data.prefix(2000), as: UTF8.self)), stderr \(errors.suffix(500))"
        guard process.terminationStatus == 0,
            let object = try? JSONSerialization.jsonObject(with: data)
        else { return (nil, said) }
        let windows = (object as? [[String: Any]]) ?? ((object as? [String: Any])?["windows"] as? [[String: Any]]) ?? []
        return (
            windows.filter { ($0["hidden"] as? Bool) == false }.map {
                ($0["appID"] as? String) ?? ($0["app_id"] as? String) ?? ""
            }, said
        )
    }

    /// What the main screen shows now, through `strata-ctl screenshot` (nil while the control
    /// socket does not answer).
    func liveScreenshot() -> PNGFile.Pixels? {
        guard let ctl = StrataRun.sibling("strata-ctl") else { return nil }
        let path = root + "/live-\(UInt32.random(in: 0...UInt32.max)).png"
        defer { unlink(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ctl)
        process.arguments = ["screenshot", "-o", path]
        var env = StrataRun.childEnvironment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["STRATA_SOCKET"] = nil
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? PNGFile.read(path: path)
    }

    /// Waits until what the main screen shows satisfies `condition` (a client has drawn what the
    /// test is about to check), at most `timeout` seconds; whether it did. The readiness wait for
    /// clients that print nothing when they have drawn: no fixed sleep.
    func waitForScreen(timeout: Double = 60, until condition: @escaping (PNGFile.Pixels) -> Bool) async -> Bool {
        await StrataRun.poll(timeout: timeout) { self.liveScreenshot().map(condition) == true ? true : nil } ?? false
    }

    /// Waits until at least `count` windows are visible (each visible window has shown its first
    /// buffer), at most `timeout` seconds; whether they came.
    /// On a timeout the last answer and the end of Strata's standard error are printed.
    func waitForVisibleWindows(_ count: Int = 1, timeout: Double = 60) async -> Bool {
        var last = ""
        let came =
            await StrataRun.poll(timeout: timeout) { () -> Bool? in
                let (visible, said) = self.windowList()
                last = said
                return (visible?.count ?? 0) >= count ? true : nil
            } ?? false
        if !came {
            let stderr = self.stderr
            FileHandle.standardError.write(
                Data(
                    """
                    waitForVisibleWindows(\(count)) timed out after \(timeout) s (\(madeAt.fileID):\(madeAt.line)); \
                    the last answer: \(last)
                    strata's stderr (end): \(stderr.suffix(3000))

                    """.utf8))
        }
        return came
    }

    // MARK: The end

    /// Waits for Strata to exit, at most `timeout` seconds; then kills its whole process
    /// group and reports `timedOut`. Collects output, screenshots and the runtime folder, and
    /// fails the test unless Strata ended as `expecting` says, in time, without a sanitizer
    /// report or a runtime trap, and left no process of its group running but those named in
    /// `mayOutlive` (the test's own background processes, by command name; /proc keeps its
    /// first 15 characters).
    @discardableResult
    func finish(
        timeout: Double = 20, expecting expected: ExpectedExit = .status(0), mayOutlive: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> StrataResult {
        if let result { return result }
        let result = await collect(timeout: timeout, mayOutlive: mayOutlive, sourceLocation: sourceLocation)
        result.check(expected, sourceLocation: sourceLocation)
        return result
    }

    private func collect(timeout: Double, mayOutlive: Set<String>, sourceLocation: SourceLocation) async -> StrataResult
    {
        var rawStatus: Int32 = 0
        let ended: Bool =
            await StrataRun.poll(timeout: timeout) {
                waitpid(self.pid, &rawStatus, WNOHANG) == self.pid ? true : nil
            } ?? false
        // What of Strata's process group outlived it (its command's background children, an
        // Xwayland, a client it did not stop): a failure unless the test named it, recorded
        // before the group is killed.
        var outlived: [String] = []
        if !ended {
            kill(-pid, SIGKILL)
            waitpid(pid, &rawStatus, 0)
        } else {
            outlived = StrataRun.processes(inGroup: pid)
            let unexpected = outlived.filter { entry in
                let command = entry.drop { $0 != " " }.dropFirst()
                return !mayOutlive.contains { $0.prefix(15) == command }
            }
            if !unexpected.isEmpty {
                Issue.record(
                    "processes of Strata's group outlived it (pid command): \(unexpected)",
                    sourceLocation: sourceLocation)
            }
            kill(-pid, SIGKILL)  // anything Strata started and left behind
        }
        let signal = rawStatus & 0x7f
        let status = signal == 0 ? (rawStatus >> 8) & 0xff : 128 + signal
        var screenshots: [String: PNGFile.Pixels] = [:]
        var screenshotErrors: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: screenshotDirectory)) ?? []
        for name in names.sorted() where name.hasSuffix(".png") {
            do {
                screenshots[name] = try PNGFile.read(path: screenshotDirectory + "/" + name)
            } catch {
                screenshotErrors.append("\(error)")
            }
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        let result = StrataResult(
            status: status, timedOut: !ended, stdout: stdout, stderr: stderr, screenshots: screenshots,
            screenshotErrors: screenshotErrors, runtimeDirectoryContents: leftovers.sorted(),
            outlivingProcesses: outlived)
        self.result = result
        return result
    }

    /// wl-copy left serving the selection it set (until another replaces it or its server goes),
    /// and the `rm` it forks to remove its temporary folder as it ends: a test's `mayOutlive`.
    static let wlCopy: Set<String> = ["wl-copy", "rm"]

    /// Runs Strata to its end: `StrataRun(…).finish(timeout:expecting:mayOutlive:)`.
    static func run(
        _ arguments: [String], command: [String] = [], screenshots: Bool = false,
        environment: [String: String?] = [:], timeout: Double = 20, expecting expected: ExpectedExit = .status(0),
        mayOutlive: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> StrataResult {
        let run = try StrataRun(
            arguments, command: command, screenshots: screenshots, environment: environment,
            sourceLocation: sourceLocation)
        return await run.finish(
            timeout: timeout, expecting: expected, mayOutlive: mayOutlive, sourceLocation: sourceLocation)
    }

    /// A GTK client's command on a session bus of its own, in place of `dbus-run-session --`:
    /// `StrataRun.dbusSession + ["gtk3-demo"]` (`dbusSessionWords` in a shell script).
    /// dbus-run-session ended by a signal (what Strata sends its command and the clients it
    /// started when it exits) leaves its dbus-daemon running; this passes the signal to the
    /// client, then stops the bus and waits for it, so nothing of it outlives Strata.
    static let dbusSession = ["/bin/sh", "-c", dbusSessionScript, "strata-dbus-session"]

    /// `dbusSession` quoted for a shell script.
    static var dbusSessionWords: String {
        "/bin/sh -c '" + dbusSessionScript.replacingOccurrences(of: "'", with: #"'\''"#) + "' strata-dbus-session"
    }

    /// `dbusSession` as an executable file in `folder` (for commands a test cannot quote, such
    /// as an experiment's `exec` line); its path.
    static func writeDBusSession(in folder: String) throws -> String {
        let path = folder + "/dbus-session"
        try writeExecutable(path, "#!/bin/sh\n" + dbusSessionScript + "\n")
        return path
    }

    private static let dbusSessionScript = #"""
        set -u
        client= stop=
        trap 'stop=1; [ -z "$client" ] || kill -TERM "$client" 2>/dev/null' TERM INT HUP
        dir=$(mktemp -d /tmp/strata-bus-XXXXXX) || exit 1
        mkfifo "$dir/address" || exit 1
        dbus-daemon --session --nofork --nopidfile --print-address=3 3>"$dir/address" 2>/dev/null &
        bus=$!
        read -r DBUS_SESSION_BUS_ADDRESS < "$dir/address"
        export DBUS_SESSION_BUS_ADDRESS
        status=143
        if [ -z "$stop" ]; then
            "$@" &
            client=$!
            wait "$client"; status=$?
            if [ -n "$stop" ]; then wait "$client"; status=$?; fi
        fi
        kill -TERM "$bus" 2>/dev/null
        wait "$bus"
        rm -rf "$dir"
        exit "$status"
        """#

    // MARK: Helpers

    /// The live processes (not zombies) of process group `group`, as "pid comm", from /proc.
    static func processes(inGroup group: pid_t) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let comm = stat[stat.index(after: open)..<close]
            // After the command name: state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group else { return nil }
            return "\(pid) \(comm)"
        }.sorted()
    }

    /// The environment for the processes a test starts: the test's own, except that
    /// `STRATA_CHILD_ASAN_OPTIONS`, when set, is their `ASAN_OPTIONS` (scripts/sanitize.sh turns
    /// LeakSanitizer on for strata and its clients, not for the test process, whose runtimes
    /// leave allocations of their own at exit).
    static var childEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        if let options = env["STRATA_CHILD_ASAN_OPTIONS"] { env["ASAN_OPTIONS"] = options }
        return env
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The built `strata`: $STRATA_BINARY, else next to the running test executable (swift
    /// test runs `.build/<triple>/debug/StrataPackageTests.xctest`), else `.build/debug/strata`
    /// in the package this file belongs to.
    static let binaryPath: String = {
        if let path = ProcessInfo.processInfo.environment["STRATA_BINARY"], !path.isEmpty { return path }
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((exe as NSString).deletingLastPathComponent + "/strata")
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug/strata").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    /// Another executable of this package built next to `strata` (e.g. strata-color-client).
    static func sibling(_ name: String) -> String? {
        let path = (binaryPath as NSString).deletingLastPathComponent + "/" + name
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Whether a program is on PATH (for tests that need Debian's clients).
    static func isInstalled(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// Calls `body` every 10 ms until it returns a value or `timeout` seconds pass.
    static func poll<T>(timeout: Double, _ body: () -> T?) async -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = body() { return value }
            if Date() >= deadline { return nil }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

/// What a finished run left: its exit status (128 + signal if killed), whether the deadline
/// killed it, its output, the decoded screenshots by file name, and what remained in the
/// private runtime folder.
struct StrataResult {
    var status: Int32
    var timedOut: Bool
    var stdout: String
    var stderr: String
    var screenshots: [String: PNGFile.Pixels]
    var screenshotErrors: [String]
    var runtimeDirectoryContents: [String]
    /// The processes of Strata's process group still running when Strata had ended ("pid comm").
    var outlivingProcesses: [String] = []

    /// The name in the `WAYLAND_DISPLAY=name` line Strata printed.
    var socketName: String? { StrataResult.socketName(in: stdout) }

    /// Lines on standard error that only a sanitizer report or a runtime trap prints.
    static let crashMarkers = [
        "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "SUMMARY: AddressSanitizer",
        "SUMMARY: UndefinedBehaviorSanitizer", "runtime error:", "Fatal error:",
        "Illegal instruction", "Segmentation fault",
    ]

    /// The first line of a sanitizer report or trap on standard error, if any.
    var crashReport: String? {
        stderr.split(separator: "\n").first { line in StrataResult.crashMarkers.contains { line.contains($0) } }.map(
            String.init)
    }

    /// Records a test failure unless the run ended as `expected`.
    func check(_ expected: StrataRun.ExpectedExit, sourceLocation: SourceLocation) {
        let tail = String(stderr.suffix(4000))
        if timedOut {
            Issue.record("strata did not exit before its deadline; stderr: \(tail)", sourceLocation: sourceLocation)
            return
        }
        if let crashReport {
            Issue.record(
                "strata reported a crash or sanitizer error: \(crashReport); stderr: \(tail)",
                sourceLocation: sourceLocation)
        }
        switch expected {
        case .status(let wanted) where status != wanted:
            Issue.record(
                "strata exited with status \(status), expected \(wanted); stderr: \(tail)",
                sourceLocation: sourceLocation)
        case .failure where !(1...127).contains(status):
            Issue.record(
                "strata exited with status \(status), expected a clean failure (1-127); stderr: \(tail)",
                sourceLocation: sourceLocation)
        default:
            break
        }
    }

    static func socketName(in output: String) -> String? {
        for line in output.split(separator: "\n") where line.hasPrefix("WAYLAND_DISPLAY=") {
            return String(line.dropFirst("WAYLAND_DISPLAY=".count))
        }
        return nil
    }
}
