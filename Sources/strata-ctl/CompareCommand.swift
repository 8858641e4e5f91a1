import ArgumentParser
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender

/// `strata-ctl compare A.png B.png`: the one comparison (`ImageComparison`), run locally.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Compare two PNG pictures with a per-channel threshold, a tolerated count or share of differing pixels, and masks.",
        discussion: """
            Prints how many pixels differ and their bounding box. Exits 0 when within tolerance, 1 when not, \
            2 on bad input (an unreadable PNG, pictures of different sizes, a PNG over \(PNGFile.maximumSide)x\(PNGFile.maximumSide)).
            """)
    @Argument(help: "The expected picture (PNG).") var expected: String
    @Argument(help: "The actual picture (PNG).") var actual: String
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
        help: ArgumentHelp("Rectangles left out of the comparison, X,Y,WxH each.", valueName: "X,Y,WxH"))
    var mask: [String] = []
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the diff picture here (differing pixels red over the dimmed expected picture).",
            valueName: "diff.png"))
    var output: String?
    @Option(
        name: .customLong("mask-window"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Windows of the running Strata left out by their frame (an app id, title:TEXT, pid:N or an id; the main screen's coordinates).",
            valueName: "W"))
    var maskWindow: [String] = []
    @Option(
        name: .customLong("mask-level"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Every shown window of these levels (normal, alert, …, or a number) of the running Strata left out by its frame.",
            valueName: "LEVEL"))
    var maskLevel: [String] = []
    /// --socket, --timeout (for --mask-window and --mask-level) and --json (the result as one JSON object).
    @OptionGroup var options: ConnectionOptions
    var json: Bool { options.json }

    enum Tolerance: Equatable {
        case count(Int)
        case share(Double)
    }

    static func parseTolerance(_ text: String) -> Tolerance? {
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast()), value.isFinite, value >= 0, value <= 100 else { return nil }
            return .share(value / 100)
        }
        guard let count = Int(text), count >= 0 else { return nil }
        return .count(count)
    }

    static func parseMask(_ text: String) -> Rect? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3, let x = Int(parts[0]), let y = Int(parts[1]) else { return nil }
        let size = parts[2].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0, height > 0,
            abs(x) <= 1 << 20, abs(y) <= 1 << 20, width <= 1 << 20, height <= 1 << 20
        else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    func validate() throws {
        guard (0...255).contains(threshold) else {
            throw ValidationError("--threshold takes a per-channel difference between 0 and 255")
        }
        guard Self.parseTolerance(maxDiff) != nil else {
            throw ValidationError("--max-diff takes a count of pixels (like 10) or a share (like 0.5%)")
        }
        for text in maskWindow {
            do {
                _ = try WindowSelector(text)
            } catch {
                throw ValidationError("--mask-window: \(error.message)")
            }
        }
        for text in mask where Self.parseMask(text) == nil {
            throw ValidationError("--mask takes X,Y,WxH (like 10,20,100x30), not \"\(text)\"")
        }
    }

    func run() throws {
        let tolerance = Self.parseTolerance(maxDiff) ?? .count(0)
        var masks = mask.compactMap(Self.parseMask)
        if !maskWindow.isEmpty || !maskLevel.isEmpty {
            do {
                masks += try windowMasks()
            } catch {
                Output.printError("strata-ctl: error: \(Output.words(for: error))")
                throw ExitCode(2)
            }
        }
        let comparison = ImageComparison(threshold: threshold, masks: masks)
        let result: ImageComparison.Result
        let started = Self.milliseconds()
        var decoded = started
        do {
            let a = try PNGFile.read(path: expected)
            let b = try PNGFile.read(path: actual)
            decoded = Self.milliseconds()
            result = try comparison.compare(a, b, drawingDiff: output != nil)
        } catch let failure as PNGFile.Failure {
            Output.printError("strata-ctl: error: \(failure.description)")
            throw ExitCode(2)
        } catch let failure as ImageComparison.Failure {
            Output.printError("strata-ctl: error: \(failure.description)")
            throw ExitCode(2)
        }
        if let output, let diff = result.diff {
            do {
                try PNGFile.write(path: output, pixels: diff)
            } catch {
                Output.printError("strata-ctl: error: \(error.description)")
                throw ExitCode(2)
            }
        }
        let compared = Self.milliseconds()
        let within: Bool
        switch tolerance {
        case .count(let count): within = result.differing <= count
        case .share(let share): within = result.share <= share
        }
        let box = result.bounds.map { "\($0.x),\($0.y),\($0.width)x\($0.height)" }
        if json {
            let boxJSON = box.map { "\"\($0)\"" } ?? "null"
            let times =
                "\"decode_ms\":\((decoded - started).rounded()),\"compare_ms\":\(((compared - decoded) * 10).rounded() / 10)"
            print(
                "{\"match\":\(within),\"differing\":\(result.differing),\"compared\":\(result.compared),\"bounds\":\(boxJSON),\(times)}"
            )
        } else {
            let percent = (result.share * 10000).rounded() / 100
            print(
                "\(within ? "match" : "differ"): \(result.differing) of \(result.compared) pixels differ (\(percent)%)"
                    + (box.map { ", within \($0)" } ?? ""))
        }
        if !within { throw ExitCode(1) }
    }

    /// The frames of the shown windows --mask-window and --mask-level name, from the running
    /// Strata's model; a --mask-window that names no shown window is an error.
    private func windowMasks() throws -> [Rect] {
        let client = try options.connect()
        let windows = (try client.call("windows")["windows"]?.decode([WindowInfo].self) ?? []).filter { !$0.hidden }
        var chosen: [WindowInfo] = []
        for text in maskWindow {
            let selector = try WindowSelector(text)
            let matching = windows.filter { selector.matches($0) }
            guard !matching.isEmpty else {
                throw ControlError(
                    .unknownWindow,
                    "--mask-window \(text): no shown window answers to \(selector); windows: \(WindowSelector.list(windows))"
                )
            }
            chosen += matching
        }
        let levels = Set(maskLevel.map { $0.lowercased() })
        chosen += windows.filter { levels.contains($0.level.lowercased()) }
        return chosen.map { Rect(x: $0.frame.x, y: $0.frame.y, width: $0.frame.width, height: $0.frame.height) }
    }

    private static func milliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }
}
