import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataTrace

/// `strata-ctl replay FILE`: replays a trace against a fresh headless Strata and reports the
/// first divergence (docs/experiments.md, "Replay and diff"). Exit status 0: the replay matches;
/// 1: it diverges, or the replay's Strata failed (crashed, exited non-zero, or printed an error
/// line; its standard error kept as `<kept trace>.strata.err`); 2: bad input (the trace cannot be read, asks for screens past the bounds, or
/// would run programs other than Strata's own clients without `--run-commands`; or Strata cannot
/// be started).
extension ReplayDriver.Kind: ExpressibleByArgument {}

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace (strata --record) against a fresh headless Strata and report the first divergence.",
        discussion: """
            Starts the strata next to strata-ctl (or --strata) headless with the trace's screens, policy \
            and clock, records the replay, issues the recorded control commands (exec starts the same \
            clients) and input at the same points of the model's sequence (before each step that recorded \
            what its windows showed, at least the recorded time after the previous step and once those \
            windows show the same pixels: wait-image, --image-timeout; a window that does not is a \
            divergence, with the recorded picture, the replayed one and their diff kept beside the \
            replay's trace), then compares the two traces: \
            model events by sequence number, and each screen's last picture (with --every-picture, \
            each screen's sequence of distinct pictures). Exit status 0 when they match, 1 at a \
            divergence (printed with the lines around it) or when the replay's Strata failed (it \
            crashed or exited non-zero, or its standard error, where its clients' goes too, has a \
            "strata: error", protocol error, trap or sanitizer line: its standard error is kept as \
            FILE.replay.strata.err), 2 for a trace that cannot be read.

            One thing drives a replay, never both: the recorded command (run again; the requests \
            its process tree sent are not replayed) when it made a client or window of its own, \
            else the recorded requests (the command is not run), from the origin the recorder \
            marked on each request, client and window. A trace that cannot tell (an older \
            Strata's, or a process gone before it was seen) is refused with the line named, \
            unless --driver chooses. Requests from exec'd processes are never replayed (those \
            processes run again and send them).

            A trace is untrusted input: it names the programs the replay starts (the header's \
            command when it drives, and every recorded exec replayed, with their directories). Unless each is one of \
            Strata's own test clients (strata-color-client, strata-x11-color-client, \
            strata-im-client, by that name or as the one beside strata-ctl, which is what runs), \
            replay lists them and exits 2 before starting anything; --run-commands runs them as \
            recorded. The header's screens must be sizes strata --size accepts, at most 16, and \
            together at most 64 Mpx.

            What-if (--policy NAME, --delegate CMD): the same replay under another key-window \
            policy, or with CMD (sh -c, STRATA_SOCKET set) registered as the policy delegate. Each \
            step waits until the replay has opened and shown as many windows as the recording had \
            there (not for the recorded sequence, nor for pictures); then every step where the key \
            window, the stacking (windows matched by the order they opened) or a command's reply \
            differ is listed (--json for machines, --report for both timelines side by side). Exit \
            status 0 when the replay completed, 1 when it could not be, 2 for bad input.
            """)
    @Argument(help: "The trace to replay.") var file: String
    @Option(
        help: ArgumentHelp(
            "The strata to run (default: the one next to strata-ctl, else strata on PATH).", valueName: "path"))
    var strata: String?
    @Option(
        help: ArgumentHelp(
            "Keep the replay's trace here (default: FILE.replay, written only on divergence, with the replay's last picture of each screen as FILE.replay.<screen>.png).",
            valueName: "file"))
    var keep: String?
    @Option(
        help: ArgumentHelp(
            "Seconds to wait for the replay to reach a recorded point of the model's sequence (after one is missed, a divergence, nothing waits).",
            valueName: "seconds"))
    var timeout = 10.0
    @Option(
        help: ArgumentHelp(
            "On a divergence, write the recorded trace's report (strata-ctl report) with the divergence marked here; with --policy or --delegate, both timelines side by side, the differing steps highlighted.",
            valueName: "file.html"))
    var report: String?
    @Option(
        name: .customLong("image-timeout"),
        help: ArgumentHelp(
            "Seconds a window gets to show the picture it showed when a step was recorded, before the step (at most 25).",
            valueName: "seconds"))
    var imageTimeout = 5.0
    @Option(
        help: ArgumentHelp(
            "Per-channel difference (0-255) up to which a window's picture counts as the recorded one.", valueName: "N")
    )
    var threshold = 0
    @Option(
        name: .customLong("max-diff"),
        help: ArgumentHelp(
            "Differing pixels a window's picture may have: a count N, or a share P% (default 0).", valueName: "N|P%"))
    var maxDiff = "0"
    @Option(
        help: ArgumentHelp(
            "A rectangle of the window's picture left out of the check (repeatable).", valueName: "X,Y,WxH"))
    var mask: [String] = []
    @Flag(
        name: .customLong("every-picture"),
        help:
            "Compare each screen's sequence of distinct pictures, not only its last (for clients that draw the same at every step, as Strata's own test clients do; a real client's pictures between two steps depend on when it read its input)."
    )
    var everyPicture = false
    @Flag(help: "Print each replayed command and input.") var verbose = false
    @Flag(
        help:
            "Run the programs the trace names (its header's command and recorded execs) even when they are not Strata's own clients."
    )
    var runCommands = false
    @Option(
        help: ArgumentHelp(
            "What drives the replay when the trace cannot tell: the recorded command (run again; its own requests are not replayed) or the recorded requests (the command is not run).",
            valueName: "command|requests"))
    var driver: ReplayDriver.Kind?
    @Option(
        help: ArgumentHelp(
            "What-if: replay under this key-window policy (uikit, click-to-focus, focus-follows-pointer, explicit) and list every step where key or stacking differ (docs/experiments.md, \"What-if replay\").",
            valueName: "name"))
    var policy: String?
    @Option(
        help: ArgumentHelp(
            "What-if: start this command (sh -c, with STRATA_SOCKET set) once the replay's Strata is up, wait until it registers as the policy delegate, and compare as with --policy.",
            valueName: "command"))
    var delegate: String?
    @Flag(help: "With --policy or --delegate: print the comparison as JSON.") var json = false

    /// Whether this is a what-if replay (`--policy`, `--delegate`).
    var isWhatIf: Bool { policy != nil || delegate != nil }

    /// Pixels of all the replay's screens together (each screen is a buffer of 4 bytes a pixel):
    /// 64 Mpx, 256 MiB.
    static let maxTotalPixels = 64 * 1024 * 1024
    /// Bytes of a width or height, as `strata --size` accepts.
    static let maxScreenSide = 16384
    /// Extra modes of the first screen passed on (`--mode`).
    static let maxModes = 64

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    func validate() throws {
        guard (0...255).contains(threshold) else {
            throw ValidationError("--threshold takes a per-channel difference between 0 and 255")
        }
        guard CompareCommand.parseTolerance(maxDiff) != nil else {
            throw ValidationError("--max-diff takes a count of pixels (like 10) or a share (like 0.5%)")
        }
        for text in mask where CompareCommand.parseMask(text) == nil {
            throw ValidationError("--mask takes X,Y,WxH (like 10,20,100x30), not \"\(text)\"")
        }
        guard imageTimeout.isFinite, imageTimeout > 0 else {
            throw ValidationError("--image-timeout takes a number of seconds above 0")
        }
    }

    func run() throws {
        // The files a divergence writes are checked before the replay runs.
        for (option, path) in [("--keep", keep), ("--report", report)] {
            if let path, let problem = OutputPath.problemWritingFile(Self.absolute(path)) {
                Output.printError("strata-ctl: error: \(option) \(path): \(problem)")
                throw ExitCode(2)
            }
        }
        if let policy, !KeyWindowPolicies.allNames.contains(policy) {
            Output.printError(
                "strata-ctl: error: unknown policy \"\(TraceReportText.plain(policy))\"; use one of \(KeyWindowPolicies.allNames.joined(separator: ", "))"
            )
            throw ExitCode(2)
        }
        if json, !isWhatIf {
            Output.printError("strata-ctl: error: --json goes with --policy or --delegate (a what-if replay)")
            throw ExitCode(2)
        }
        if let delegate, delegate.allSatisfy(\.isWhitespace) {
            Output.printError("strata-ctl: error: --delegate takes a command")
            throw ExitCode(2)
        }
        let trace: TraceFile
        do {
            trace = try TraceFile(path: file)
        } catch {
            Output.printError("strata-ctl: error: \(error.message)")
            throw ExitCode(2)
        }
        var arguments: [String]
        do {
            arguments = try Self.strataArguments(for: trace)
        } catch {
            Output.printError("strata-ctl: error: \(file): \(error)")
            throw ExitCode(2)
        }
        if let policy, let at = arguments.firstIndex(of: "--policy"), at + 1 < arguments.count {
            arguments[at + 1] = policy
        }
        let chosen: ReplayDriver
        do {
            chosen = try ReplayDriver(trace: trace, forced: driver)
        } catch {
            Output.printError("strata-ctl: error: \(file): \(error)")
            throw ExitCode(2)
        }
        Output.printError(
            "\(file): driven by the recorded \(chosen.kind == .command ? "command" : "requests"): \(chosen.reason)")
        if verbose { for line in chosen.details { Output.printError("replay: \(line)") } }
        let programs = ReplayPrograms(
            trace: trace, driver: chosen, toolDirectory: Self.toolDirectory(),
            currentDirectory: FileManager.default.currentDirectoryPath)
        if !runCommands, !programs.onlyOwnClients {
            Output.printError(
                (["strata-ctl: error: \(file) would run programs that are not Strata's own clients:"] + programs.listing
                    + ["pass --run-commands to replay it with them, if you trust the trace"]).joined(separator: "\n"))
            throw ExitCode(2)
        }
        if !trace.isComplete {
            Output.printError(
                "strata-ctl: warning: \(file) has no end line (Strata was stopped without finishing it); replaying what it has"
            )
        }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let replayPath = keep.map(Self.absolute) ?? directory + "/replay.trace"
        let session: ReplaySession
        let runsAsRecorded = runCommands
        let program: ([String]) -> [String] = { argv in runsAsRecorded ? argv : programs.resolved(argv) }
        do {
            session = try ReplaySession(
                strata: strata ?? Self.defaultStrata(), arguments: arguments + ["--record", replayPath],
                directory: directory, timeout: timeout, verbose: verbose,
                program: program)
        } catch {
            Output.printError("strata-ctl: error: cannot start Strata for the replay: \(error)")
            throw ExitCode(2)
        }
        session.pictures.timeout = min(25, max(0.1, imageTimeout.isFinite ? imageTimeout : 5))
        session.pictures.threshold = threshold
        session.pictures.masks = mask.compactMap(CompareCommand.parseMask)
        session.pictures.maximumDiffering = maxDiff
        if isWhatIf {
            try runWhatIf(trace: trace, session: session, driver: chosen, replayPath: replayPath, directory: directory)
            return
        }
        let failure = session.drive(trace, driver: chosen)
        let pictures = session.saveLastPictures()
        let ending = session.finish()
        let kept = keptPath
        if let problem = ending.problem {
            reportStrataFailure(problem, stoppedBy: failure, session: session, replayPath: replayPath, kept: kept)
            throw ExitCode(1)
        }
        // The replay's last pictures, kept beside its trace: `<kept>.<screen>.png`.
        func keepPictures() -> [String] {
            pictures.compactMap { path in
                let name = path.split(separator: "/").last.map { String($0.dropFirst("last-".count)) } ?? "screen.png"
                let destination = kept + "." + name
                try? FileManager.default.removeItem(atPath: destination)
                return (try? FileManager.default.copyItem(atPath: path, toPath: destination)) == nil ? nil : destination
            }
        }
        if let failure {
            Output.printError("\(file): the replay diverged: \(failure)")
            for picture in keepPictures() { Output.printError("the replay's last picture: \(picture)") }
            throw ExitCode(1)
        }
        let replay = try Self.readReplay(replayPath)
        let pictureOptions = session.pictures
        let firstDivergence = TraceDiff.firstDivergence(recorded: trace, replay: replay, everyPicture: everyPicture) {
            screen, recorded, _ in
            Self.lastPicturesMatch(
                screen: screen, recordedFrame: recorded, trace: trace, pictures: pictureOptions, directory: directory)
        }
        if let pixels = session.pictures.divergence, pixels.lineIndex < firstDivergence?.recordedIndex ?? Int.max {
            reportPixels(pixels, trace: trace, replayPath: replayPath, kept: kept, lastPictures: keepPictures())
            throw ExitCode(1)
        }
        guard let divergence = firstDivergence else {
            if let missed = session.missedPoint {
                Output.printError("\(file): the replay diverged: \(missed)")
                throw ExitCode(1)
            }
            let events = trace.lines(ofType: .event).count, frames = trace.lines(ofType: .frame).count
            print("\(file): the replay matches (\(events) events, \(frames) frames recorded; \(trace.clock) clock)")
            return
        }
        var report = [
            "\(file): the replay diverged (\(divergence.kind)): \(divergence.message)", "recorded (\(file)):",
        ]
        report += TraceDiff.context(of: trace, around: divergence.recordedIndex)
        if let missed = session.missedPoint { report.insert("the replay stopped early: \(missed)", at: 1) }
        keepReplay(replayPath, as: kept)
        report.append("replayed (\(kept)):")
        report += TraceDiff.context(of: replay, around: divergence.replayIndex)
        for picture in keepPictures() { report.append("the replay's last picture: \(picture)") }
        let lastDiff = Self.keepLastPictureDiff(
            divergence, trace: trace, pictures: session.pictures, directory: directory, kept: kept)
        report += lastDiff.lines
        if let page = self.report {
            if let problem = OutputPath.write(
                TraceReport.html(for: trace, divergence: divergence, pictures: lastDiff.pictures), to: page)
            {
                report.append("strata-ctl: error: cannot write the report: \(problem)")
            } else {
                report.append("report: \(page)")
            }
        }
        Output.printError(report.joined(separator: "\n"))
        throw ExitCode(1)
    }

    /// A replay whose Strata failed (crashed, exited non-zero, printed an error): said with its
    /// standard error kept beside the replay's trace as `<kept>.strata.err`.
    func reportStrataFailure(
        _ problem: String, stoppedBy failure: String?, session: ReplaySession, replayPath: String, kept: String
    ) {
        var report = ["\(file): the replay's Strata failed: \(problem)"]
        if let failure { report.append("the replay stopped at: \(failure)") }
        keepReplay(replayPath, as: kept)
        if FileManager.default.fileExists(atPath: kept) { report.append("the replay's trace: \(kept)") }
        let errors = kept + ".strata.err"
        try? FileManager.default.removeItem(atPath: errors)
        if (try? FileManager.default.copyItem(atPath: session.errorPath, toPath: errors)) != nil {
            report.append("its standard error: \(errors)")
        }
        Output.printError(report.joined(separator: "\n"))
    }

    /// Where the replay's trace is kept when it diverged or was compared: `--keep`, else beside
    /// the recording as `<trace>.replay`.
    var keptPath: String { keep.map(Self.absolute) ?? Self.absolute(file) + ".replay" }

    /// The replay's trace, read back; exit status 1 when it cannot be.
    static func readReplay(_ path: String) throws -> TraceFile {
        do {
            return try TraceFile(path: path)
        } catch {
            Output.printError("strata-ctl: error: the replay's trace: \(error.message)")
            throw ExitCode(1)
        }
    }

    /// The replay's trace copied to `kept` (beside the recording) when `--keep` did not already
    /// write it there.
    func keepReplay(_ replayPath: String, as kept: String) {
        guard keep == nil, FileManager.default.fileExists(atPath: replayPath) else { return }
        try? FileManager.default.removeItem(atPath: kept)
        try? FileManager.default.copyItem(atPath: replayPath, toPath: kept)
    }

    struct BadTrace: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// strata's command line for a trace: headless, its screens, policy and clock.
    static func strataArguments(for trace: TraceFile) throws -> [String] {
        let header = trace.header
        let screens = header["screens"]?.arrayValue ?? []
        guard (1...16).contains(screens.count) else {
            throw BadTrace("the header names \(screens.count) screens (1...16 replay)")
        }
        var arguments = ["--backend", "headless", "--screens", String(screens.count)]
        // strata's default size when the header names none.
        var size = (width: 1280, height: 720)
        if let current = screens[0]["current"]?.stringValue {
            guard let mode = ModeText(current) else {
                throw BadTrace("the first screen's mode \(current) is not WxH@Hz")
            }
            try checkSide(mode, current)
            guard mode.hz.isFinite, mode.hz > 0, mode.hz <= 1000 else {
                throw BadTrace("the first screen's refresh rate in \(current) is not 1...1000 Hz")
            }
            size = (mode.width, mode.height)
            arguments += ["--size", "\(mode.width)x\(mode.height)", "--refresh", String(mode.hz)]
            var seen: Set<String> = ["\(mode.width)x\(mode.height)"]
            for other in screens[0]["modes"]?.arrayValue ?? [] {
                guard let text = other.stringValue, let extra = ModeText(text),
                    seen.insert("\(extra.width)x\(extra.height)").inserted
                else { continue }
                try checkSide(extra, text)
                guard seen.count <= maxModes + 1 else {
                    throw BadTrace("the first screen names more than \(maxModes) modes")
                }
                arguments += ["--mode", "\(extra.width)x\(extra.height)"]
            }
        }
        let pixels = size.width * size.height * screens.count
        guard pixels <= maxTotalPixels else {
            throw BadTrace(
                "\(screens.count) screens of \(size.width)x\(size.height) are \(pixels / (1024 * 1024)) Mpx, past the replay's cap of "
                    + "\(maxTotalPixels / (1024 * 1024)) Mpx for all screens together")
        }
        if let scale = screens[0]["scale"]?.doubleValue, scale != 1 { arguments += ["--scale", String(scale)] }
        guard let policy = header["policy"]?.stringValue, !policy.isEmpty, !policy.hasPrefix("-") else {
            throw BadTrace("the header has no policy")
        }
        arguments += ["--policy", policy]
        guard ["realtime", "manual"].contains(trace.clock) else { throw BadTrace("unknown clock \(trace.clock)") }
        arguments += ["--clock", trace.clock]
        return arguments
    }

    /// A mode's sides within what `strata --size` accepts.
    static func checkSide(_ mode: ModeText, _ text: String) throws {
        guard mode.width <= maxScreenSide, mode.height <= maxScreenSide else {
            throw BadTrace(
                "the screen mode \(text) is larger than \(maxScreenSide)x\(maxScreenSide) (what strata --size accepts)")
        }
    }

    /// `1280x720@60` (the Hz may have decimals).
    struct ModeText {
        var width: Int
        var height: Int
        var hz: Double
        init?(_ text: String) {
            let parts = text.split(separator: "@")
            let size = parts.first?.split(separator: "x") ?? []
            guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
            width = w
            height = h
            hz = parts.count == 2 ? Double(parts[1]) ?? 60 : 60
        }
    }

    /// The directory of the running strata-ctl.
    static func toolDirectory() -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        return directory.isEmpty ? "." : directory
    }

    static func defaultStrata() -> String {
        let sibling = toolDirectory() + "/strata"
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : "strata"
    }

    static func temporaryDirectory() throws -> String {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((temporary + "/strata-replay-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            Output.printError("strata-ctl: error: cannot make a temporary directory")
            throw ExitCode(2)
        }
        return String(cString: made)
    }
}
