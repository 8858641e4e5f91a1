import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataTrace

/// A headless Strata started for a replay, and the driving of a trace through its control
/// socket: each recorded command (of `TraceFormat.replayedCommands`) and input is issued once
/// the replay's model has reached the sequence number it was recorded at (in a what-if replay,
/// once it has opened and shown the recorded windows: `WhatIfSync`).
final class ReplaySession {
    let process: SpawnedProcess
    let client: ControlClient
    /// The replay's control socket (`STRATA_SOCKET` of a `--delegate` command).
    let socketPath: String
    let directory: String
    /// Strata's standard error (its clients' too), read when it ends (`finish`).
    let errorPath: String
    let timeout: Double
    let verbose: Bool
    /// How the replay runs each program the trace names (`ReplayPrograms.resolved`, or as
    /// recorded with `--run-commands`).
    let program: ([String]) -> [String]
    private var screenshots = 0
    static let endingGrace = 10.0
    /// The first recorded point the replay did not reach: from there on nothing waits, and the
    /// replay is reported as diverged (at the traces' first difference, else at this point).
    var missedPoint: String?
    /// Pictures: the options of the checks before each step, the recorded images, the first
    /// step before which a window showed other pixels (`ReplaySession+Images.swift`).
    var pictures = ReplayPictures(trace: nil)
    /// Set for a what-if replay (`--policy`, `--delegate`): steps wait for the recorded windows
    /// to open and show, not for the recorded sequence, nothing waits for pictures, and a
    /// command's failure is a result, not a divergence (`ReplaySession+WhatIf.swift`).
    var whatIf: WhatIfSync?

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(
        strata: String, arguments: [String], directory: String, timeout: Double, verbose: Bool,
        program: @escaping ([String]) -> [String]
    ) throws {
        self.program = program
        self.directory = directory
        self.timeout = timeout
        self.verbose = verbose
        var environment = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", ControlProtocol.environmentVariable] {
            environment[name] = nil
        }
        if (environment["XDG_RUNTIME_DIR"] ?? "").isEmpty { environment["XDG_RUNTIME_DIR"] = directory }
        // strata's standard output and error go to files in the replay's directory (nothing it
        // or its clients print can block them on a full pipe); the output names the control socket.
        let outputPath = directory + "/strata.out"
        errorPath = directory + "/strata.err"
        do {
            process = try SpawnedProcess(
                path: strata.contains("/") ? strata : Self.which(strata) ?? strata,
                arguments: arguments + ["--socket", "strata-replay-\(getpid())"],
                environment: environment, standardOutput: outputPath,
                standardError: errorPath)
        } catch {
            throw StartFailure(description: Output.words(for: error))
        }
        var socket: String?
        let deadline = ControlClient.now() + timeout
        while socket == nil, process.isRunning, ControlClient.now() < deadline {
            let text = FileContents.text(outputPath) ?? ""
            socket = text.split(separator: "\n").first { $0.hasPrefix("\(ControlProtocol.environmentVariable)=") }
                .map { String($0.dropFirst(ControlProtocol.environmentVariable.count + 1)) }
            if socket == nil { usleep(5000) }
        }
        guard let socket else {
            process.terminate()
            let status = process.wait()
            let errors = FileContents.text(errorPath) ?? ""
            let tail = errors.split(separator: "\n").suffix(5).joined(separator: "\n")
            throw StartFailure(
                description: "strata ended (status \(status)) before its control socket was ready"
                    + (tail.isEmpty ? "" : "; its standard error ends:\n\(tail)"))
        }
        socketPath = socket
        do {
            client = try ControlClient(path: socket, timeout: 30)
        } catch {
            process.terminate()
            process.wait()
            throw StartFailure(description: Output.words(for: error))
        }
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Writes what each of the replay's screens shows now (the `screenshot` command's picture,
    /// the one `strata --screenshot DIR` writes at exit) as `<directory>/last-<screen>.png`; the
    /// paths written. Kept beside the replay's trace when it diverges, to set against the
    /// recording's pictures.
    func saveLastPictures() -> [String] {
        guard let screens = (try? client.request("screens"))?["screens"]?.arrayValue else { return [] }
        var written: [String] = []
        for screen in screens {
            guard let name = screen["name"]?.stringValue, !name.isEmpty, !name.contains("/") else { continue }
            let path = "\(directory)/last-\(name).png"
            if let reply = try? client.request("screenshot", ["path": .string(path), "screen": .string(name)]),
                reply["ok"] == true
            {
                written.append(path)
            }
        }
        return written
    }

    /// Stops the replay's Strata (SIGTERM: it ends its trace and stops its clients) and says how
    /// it ended.
    /// A Strata whose control socket no longer answers is ending (killed, crashed): it is given
    /// `endingGrace` seconds to end on its own, so that its status, not the SIGTERM, says how.
    func finish() -> ReplayStrataEnding {
        if process.isRunning, (try? client.request("sync")) == nil {
            let deadline = ControlClient.now() + Self.endingGrace
            while process.isRunning, ControlClient.now() < deadline { usleep(10000) }
        }
        let endedEarly = !process.isRunning
        process.terminate()
        let status = process.wait()
        let errors = FileContents.text(errorPath) ?? ""
        return ReplayStrataEnding(status: status, endedEarly: endedEarly, standardError: errors)
    }

    /// Before the step on line `index`: the what-if sync (`reachWindows`, then the recorded gap),
    /// or the recorded sequence and pictures.
    private func waitForStep(_ line: JSONValue, index: Int, trace: TraceFile, last: Int) {
        if whatIf != nil {
            reachWindows(before: index, line: index)
        } else {
            reach(line["sequence"]?.intValue ?? 0, line: index, last: last)
        }
        prepareStep(line, index: index, trace: trace)
    }

    /// Waits until the replay's model has posted `sequence` (at most `timeout` seconds); false
    /// when it does not, or at once for a sequence past the recording's last one (no replay can
    /// reach a point its recording never did). The first point missed is `missedPoint`; after
    /// it, nothing waits (the rest is issued at once, so a diverged replay ends soon and still
    /// shows what its commands do).
    @discardableResult
    private func reach(_ sequence: Int, line: Int, last: Int) -> Bool {
        if sequence > last {
            if missedPoint == nil {
                missedPoint = "line \(line + 1) waits for sequence \(sequence), past the recording's last (\(last))"
            }
            return false
        }
        let deadline = ControlClient.now() + (missedPoint == nil ? timeout : 0)
        while true {
            let current = (try? client.request("sync"))?["sequence"]?.intValue ?? 0
            if current >= sequence { return true }
            if ControlClient.now() >= deadline {
                if missedPoint == nil {
                    missedPoint =
                        "the replay did not reach sequence \(sequence) of line \(line + 1) within \(timeout) s (it is at \(current))"
                }
                return false
            }
            usleep(5000)
        }
    }

    /// Issues the trace's commands and input in order; returns a failure message when a command
    /// that succeeded in the recording fails in the replay (nil otherwise: the traces tell the rest).
    /// `driver`: whether the header's command runs again, and which requests are replayed.
    func drive(_ trace: TraceFile, driver: ReplayDriver) -> String? {
        let header = trace.header
        let headless = header["backend"]?.stringValue == "headless"
        if let command = driver.command {
            _ = try? client.request(
                "exec",
                [
                    "argv": .array(program(command).map { .string($0) }),
                    "cwd": .string(FileManager.default.currentDirectoryPath),
                ])
        }
        // The recording's model's last sequence number: its last event's.
        pictures.index(trace)
        let last =
            trace.lines.compactMap { $0["type"] == "event" || $0["type"] == "header" ? $0["sequence"]?.intValue : nil }
            .max() ?? 0
        for (index, line) in trace.lines.enumerated() {
            switch line["type"]?.stringValue {
            case "command":
                guard let request = line["request"], let name = request["command"]?.stringValue,
                    TraceFormat.replayedCommands.contains(name), driver.replays(line: index)
                else { continue }
                // A what-if replay runs under the policy it was given.
                if whatIf != nil, name == "policy", request["name"] != nil { continue }
                waitForStep(line, index: index, trace: trace, last: last)
                var arguments = request.objectValue ?? [:]
                arguments["id"] = nil
                arguments["command"] = nil
                if let problem = screenBudgetProblem(name, arguments) {
                    return "\(TraceFile.describe(line)): \(problem)"
                }
                if name == "exec", let argv = arguments["argv"]?.arrayValue?.compactMap(\.stringValue) {
                    arguments["argv"] = .array(program(argv).map { .string($0) })
                }
                if name == "settle" {
                    // Within the control client's own timeout (a settle that fails here fails
                    // nothing: its recorded reply is null).
                    arguments["timeout"] = JSONValue(min(25, max(0.1, arguments["timeout"]?.doubleValue ?? 10)))
                }
                if name == "screenshot" {
                    screenshots += 1
                    arguments["path"] = .string("\(directory)/screenshot-\(screenshots).png")
                }
                if verbose { Output.printError("replay: \(TraceFile.describe(line))") }
                let reply: JSONValue
                do {
                    reply = try client.request(name, arguments)
                } catch {
                    return
                        "\(TraceFile.describe(line)): no reply from the replay's Strata (\(Output.words(for: error)))"
                }
                if whatIf == nil, line["reply"]?["ok"] == true, reply["ok"] != true {
                    return
                        "\(TraceFile.describe(line)) succeeded in the recording and failed in the replay: \(reply["error"]?["message"]?.stringValue ?? "?")"
                }
            case "input":
                // Input a command made is replayed by the command; a client's virtual devices
                // (all other input of a headless session) by the client itself.
                guard line["during_command"] != true, line["virtual"] != true, !headless,
                    let (name, arguments) = Self.request(forInput: line)
                else { continue }
                waitForStep(line, index: index, trace: trace, last: last)
                if verbose { Output.printError("replay: \(TraceFile.describe(line))") }
                _ = try? client.request(name, arguments)
            default:
                continue
            }
        }
        if whatIf != nil {
            reachWindows(before: trace.lines.count, line: trace.lines.count - 1)
        } else {
            reach(trace.lines.last?["sequence"]?.intValue ?? 0, line: trace.lines.count - 1, last: last)
        }
        if trace.clock == "realtime" {
            // Frames on the realtime clock: let the last ones be painted (an X client's last
            // content comes through Xwayland, later than a Wayland client's under load: 300 ms
            // missed it once in the full test suite, so a second).
            _ = try? client.request("sync")
            usleep(1_000_000)
        }
        return nil
    }

    /// Why a replayed `screen-add` or `screen-mode` would take the replay past the bounds of its
    /// screens (as for the header's: at most 16, sides `strata --size` accepts, 64 Mpx in all),
    /// or nil. Counted without the screen a mode change replaces: a bound, not an exact sum.
    private func screenBudgetProblem(_ name: String, _ arguments: [String: JSONValue]) -> String? {
        guard name == "screen-add" || name == "screen-mode" else { return nil }
        let screens = (try? client.request("screens"))?["screens"]?.arrayValue ?? []
        var sizes =
            [arguments["size"], arguments["mode"]].compactMap { $0?.stringValue }
            + (arguments["modes"]?.arrayValue ?? []).compactMap(\.stringValue)
        if sizes.isEmpty { sizes = ["1280x720"] }
        var largest = 0
        for text in sizes {
            guard let mode = ReplayCommand.ModeText(text) else { continue }
            guard mode.width <= ReplayCommand.maxScreenSide, mode.height <= ReplayCommand.maxScreenSide else {
                return
                    "the screen mode \(text) is larger than \(ReplayCommand.maxScreenSide)x\(ReplayCommand.maxScreenSide); not replayed"
            }
            largest = max(largest, mode.width * mode.height)
        }
        if name == "screen-add", screens.count >= 16 {
            return "a 17th screen; the replay's cap is 16 screens; not replayed"
        }
        let total = screens.reduce(largest) { sum, screen in
            sum
                + (screen["current"]?.stringValue.flatMap(ReplayCommand.ModeText.init).map { $0.width * $0.height } ?? 0)
        }
        guard total <= ReplayCommand.maxTotalPixels else {
            return
                "the replay's screens would pass its cap of \(ReplayCommand.maxTotalPixels / (1024 * 1024)) Mpx for all screens together; not replayed"
        }
        return nil
    }

    /// The control request that injects a recorded input line again (nil: no command for it).
    static func request(forInput line: JSONValue) -> (String, [String: JSONValue])? {
        var arguments: [String: JSONValue] = [:]
        for key in ["screen", "x", "y", "state", "touch_id"] { if let value = line[key] { arguments[key] = value } }
        switch line["input"]?.stringValue {
        case "pointer-motion": return ("pointer-move", arguments)
        case "pointer-button":
            arguments["button"] = line["button"]
            return ("pointer-button", arguments)
        case "key":
            arguments["key"] = line["keycode"]
            return ("key", arguments)
        case "touch-down": arguments["phase"] = "down"
        case "touch-motion": arguments["phase"] = "move"
        case "touch-up": arguments["phase"] = "up"
        case "touch-cancel": arguments["phase"] = "cancel"
        case "gesture-begin", "gesture-update", "gesture-end":
            arguments = [:]
            for key in ["kind", "fingers", "dx", "dy", "cancelled"] {
                if let value = line[key] { arguments[key] = value }
            }
            if line["kind"] == "pinch" {
                for key in ["scale", "rotation"] { if let value = line[key] { arguments[key] = value } }
            }
            let phase = line["input"]?.stringValue?.dropFirst("gesture-".count) ?? ""
            arguments["phase"] = .string(String(phase))
            return ("gesture", arguments)
        case "tablet-tool":
            arguments = [:]
            for key in [
                "phase", "tool", "serial", "screen", "x", "y", "button", "state", "pressure", "distance", "tilt_x",
                "tilt_y", "rotation", "slider", "wheel", "wheel_clicks",
            ] {
                if let value = line[key] { arguments[key] = value }
            }
            return ("tablet", arguments)
        default: return nil
        }
        arguments["state"] = nil
        return ("touch", arguments)
    }
}
