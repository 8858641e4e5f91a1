import ArgumentParser
import StrataControlProtocol

/// `strata-ctl compare-screenshot BASELINE.png`: the golden check, done by Strata (the control
/// command `compare-screenshot`): the current picture of a window or a screen against a baseline.
struct CompareScreenshotCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare-screenshot",
        abstract: "Compare a window's own image (or a screen's) with a baseline PNG, inside Strata.",
        discussion: """
            The current picture is not encoded; only the baseline is decoded. Exits 0 when within tolerance, \
            1 when not (then --actual and --diff are written), 2 when the comparison cannot be made (no \
            baseline, an unknown window). --update writes the current picture as the baseline instead.
            """)
    @OptionGroup var options: ConnectionOptions
    @Argument(help: "The baseline picture (PNG).") var baseline: String
    @Option(help: ArgumentHelp("The window (an id, title:TEXT, pid:N or an app id); its own image.", valueName: "W"))
    var window: String?
    @Option(help: ArgumentHelp("The screen (id or name; default: the main one) when no --window.", valueName: "S"))
    var screen: String?
    @Flag(help: "A screen's composed canvas instead of what it shows.") var raw = false
    @Option(
        help: ArgumentHelp(
            "Per-channel difference (0...255) up to which pixels count as the same (default 0).", valueName: "T"))
    var threshold: Int = 0
    @Option(
        name: .customLong("max-diff"),
        help: ArgumentHelp(
            "Differing pixels tolerated: a count N, or a share P% of the compared pixels (default 0).",
            valueName: "N|P%"))
    var maxDiff: String = "0"
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Rectangles of the picture left out, X,Y,WxH each.", valueName: "X,Y,WxH"))
    var mask: [String] = []
    @Option(
        name: .customLong("mask-window"), parsing: .upToNextOption,
        help: ArgumentHelp("Shown windows left out by their frame.", valueName: "W"))
    var maskWindow: [String] = []
    @Option(
        name: .customLong("mask-level"), parsing: .upToNextOption,
        help: ArgumentHelp("Every shown window of these levels left out by its frame.", valueName: "LEVEL"))
    var maskLevel: [String] = []
    @Option(help: ArgumentHelp("Where the current picture is written when it differs.", valueName: "actual.png"))
    var actual: String?
    @Option(help: ArgumentHelp("Where the diff picture is written when it differs.", valueName: "diff.png")) var diff:
        String?
    @Flag(help: "Write the current picture as the baseline (and exit 0).") var update = false

    var replyTimeout: Double? { 60 }

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard (0...255).contains(threshold) else {
            throw ValidationError("--threshold takes a per-channel difference between 0 and 255")
        }
        guard let tolerance = CompareCommand.parseTolerance(maxDiff) else {
            throw ValidationError("--max-diff takes a count of pixels (like 10) or a share (like 0.5%)")
        }
        guard window == nil || (screen == nil && !raw) else {
            throw ValidationError("--window and --screen/--raw do not go together")
        }
        var arguments: [String: JSONValue] = ["baseline": .string(absolutePath(baseline))]
        if let window { arguments["window"] = reference(window) }
        if let screen { arguments["screen"] = reference(screen) }
        if raw { arguments["raw"] = .bool(true) }
        if threshold > 0 { arguments["threshold"] = JSONValue(threshold) }
        switch tolerance {
        case .count(let count): arguments["max_diff"] = JSONValue(count)
        case .share(let share): arguments["max_diff_ratio"] = JSONValue(share)
        }
        if !mask.isEmpty {
            for text in mask where CompareCommand.parseMask(text) == nil {
                throw ValidationError("--mask takes X,Y,WxH (like 10,20,100x30), not \"\(text)\"")
            }
            arguments["masks"] = .array(mask.map { .string($0) })
        }
        if !maskWindow.isEmpty { arguments["mask_windows"] = .array(maskWindow.map { reference($0) }) }
        if !maskLevel.isEmpty { arguments["mask_levels"] = .array(maskLevel.map { .string($0) }) }
        if let actual { arguments["actual"] = .string(absolutePath(actual)) }
        if let diff { arguments["diff"] = .string(absolutePath(diff)) }
        if update { arguments["update"] = .bool(true) }
        return ("compare-screenshot", arguments)
    }

    func render(_ reply: JSONValue) -> String? {
        if reply["updated"]?.boolValue == true { return "updated \(reply["baseline"]?.stringValue ?? baseline)" }
        let verdict = reply["match"]?.boolValue == true ? "match" : "differ"
        var line: String
        if let reason = reply["reason"]?.stringValue {
            line = "\(verdict): \(reason)"
        } else {
            let differing = reply["differing"]?.intValue ?? 0, compared = reply["compared"]?.intValue ?? 0
            let percent = ((reply["share"]?.doubleValue ?? 0) * 10000).rounded() / 100
            line = "\(verdict): \(differing) of \(compared) pixels differ (\(percent)%)"
        }
        if let b = reply["bounds"], let x = b["x"]?.intValue, let y = b["y"]?.intValue, let w = b["width"]?.intValue,
            let h = b["height"]?.intValue
        {
            line += ", within \(x),\(y),\(w)x\(h)"
        }
        for name in ["actual", "diff"] {
            if let path = reply[name]?.stringValue { line += "\n\(name): \(path)" }
        }
        return line
    }

    func run() throws {
        let (command, arguments) = try makeRequest()
        var matched = false
        do {
            try Output.guarded {
                let client = try options.connect()
                if let replyTimeout { client.timeout = max(client.timeout, replyTimeout) }
                let reply = try client.request(command, arguments)
                if options.json { print(String(decoding: reply.encodedLine(), as: UTF8.self)) }
                guard reply["ok"]?.boolValue == true else {
                    let message = reply["error"]?["message"]?.stringValue ?? "failed"
                    let code = reply["error"]?["code"]?.stringValue ?? "failed"
                    throw CommandFailure("\(message) (\(code))")
                }
                matched = reply["match"]?.boolValue == true
                if !options.json, let text = render(reply) { print(text) }
            }
        } catch let exit as ExitCode where exit == ExitCode(1) {
            throw ExitCode(2)
        }
        if !matched { throw ExitCode(1) }
    }
}
