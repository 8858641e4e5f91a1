import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataServer

/// `screenshot` of a window, and `compare-screenshot`: a golden-picture check inside Strata.
/// The current picture (a window's own image or a screen's, `ImageCapture`) is compared with a
/// baseline PNG with the one comparison (`ImageComparison`) without being encoded; the baseline
/// is the only PNG decoded. The actual picture and the diff are written only when they differ.
extension ControlCommands {
    /// `screenshot` with `window`: the window's own image, written to `path` (absolute) as PNG.
    func windowScreenshot(_ request: ControlRequest) throws(ControlError) -> Reply {
        let path = try Self.absolutePath(request, "path")
        if request.has("screen") || request.has("raw") {
            throw ControlError(.invalidArgument, "screenshot takes a window or a screen (with raw), not both")
        }
        let window = try request.window(in: manager)
        let picture = try ImageCapture(compositor: compositor).picture(of: window)
        try Self.write(picture.pixels, to: path, what: "the screenshot")
        return [
            "path": .string(path), "window": JSONValue(window.id.rawValue),
            "width": JSONValue(picture.pixels.width), "height": JSONValue(picture.pixels.height),
            "scale": JSONValue(compositor.scene.imageScale(of: window)),
        ]
    }

    /// `compare-screenshot`: see docs/control.md, "Golden screenshots".
    func compareScreenshot(_ request: ControlRequest) throws(ControlError) -> Reply {
        let started = Self.milliseconds(), startedCPU = Self.milliseconds(CLOCK_THREAD_CPUTIME_ID)
        let baseline = try Self.absolutePath(request, "baseline")
        let actualPath = try request.has("actual") ? Self.absolutePath(request, "actual") : nil
        let diffPath = try request.has("diff") ? Self.absolutePath(request, "diff") : nil
        let threshold = try request.optionalInt("threshold", in: 0...255) ?? 0
        let maxDiff = try request.optionalInt("max_diff", in: 0...Int(Int32.max))
        let maxRatio = try request.optionalDouble("max_diff_ratio")
        if let maxRatio, !(0...1).contains(maxRatio) {
            throw ControlError(.invalidArgument, "\"max_diff_ratio\" is a share of the compared pixels between 0 and 1")
        }
        let update = try request.optionalBool("update") ?? false
        var rectangles = try Self.rectangles(request)
        let maskWindows = try maskedWindows(request)

        // The current picture.
        let capture = ImageCapture(compositor: compositor)
        let picture: ImageCapture.Picture
        var reply: Reply = [:]
        if request.has("window") {
            if request.has("screen") || request.has("raw") {
                throw ControlError(
                    .invalidArgument, "compare-screenshot takes a window or a screen (with raw), not both")
            }
            let window = try request.window(in: manager)
            picture = try capture.picture(of: window)
            reply["window"] = JSONValue(window.id.rawValue)
        } else {
            guard let output = try request.optionalScreen(in: compositor) ?? compositor.scene.outputs.first else {
                throw ControlError(.unknownScreen, "no screen is connected")
            }
            picture = try capture.picture(of: output, raw: try request.optionalBool("raw") ?? false)
            reply["screen"] = JSONValue(output.screen.id.rawValue)
        }
        rectangles += try capture.masks(windows: maskWindows, in: picture)
        let current = picture.pixels
        reply["width"] = JSONValue(current.width)
        reply["height"] = JSONValue(current.height)
        let captured = Self.milliseconds()
        reply["capture_ms"] = Self.rounded(captured - started)

        if update {
            try Self.write(current, to: baseline, what: "the baseline")
            reply["updated"] = .bool(true)
            reply["match"] = .bool(true)
            reply["baseline"] = .string(baseline)
            return reply
        }

        var info = stat()
        guard stat(baseline, &info) == 0 else {
            throw ControlError(
                .failed,
                "there is no baseline \(baseline) (`update: true`, strata-ctl compare-screenshot --update, writes the current picture there)"
            )
        }
        let expected: PNGFile.Pixels
        do {
            expected = try PNGFile.read(path: baseline)
        } catch {
            throw ControlError(.failed, error.description)
        }
        let decoded = Self.milliseconds()
        reply["decode_ms"] = Self.rounded(decoded - captured)
        reply["baseline"] = .string(baseline)

        let comparison = ImageComparison(threshold: threshold, masks: rectangles)
        var within = false
        var result: ImageComparison.Result?
        do {
            let compared = try comparison.compare(expected, current)
            within =
                (maxDiff ?? (maxRatio == nil ? 0 : Int.max)) >= compared.differing && compared.share <= (maxRatio ?? 1)
            result = compared
            reply["differing"] = JSONValue(compared.differing)
            reply["compared"] = JSONValue(compared.compared)
            reply["share"] = JSONValue(compared.share)
            reply["bounds"] = compared.bounds.map { Self.json($0) } ?? .null
        } catch {
            reply["reason"] = .string("\(error.description) (the baseline, then the current picture)")
        }
        reply["compare_ms"] = Self.rounded(Self.milliseconds() - decoded)
        reply["match"] = .bool(within)
        if !within {
            if let actualPath {
                try Self.write(current, to: actualPath, what: "the actual picture")
                reply["actual"] = .string(actualPath)
            }
            if let diffPath, result != nil {
                // The diff is drawn only now, for a comparison that failed.
                if let diff = try? comparison.compare(expected, current, drawingDiff: true).diff {
                    try Self.write(diff, to: diffPath, what: "the diff picture")
                    reply["diff"] = .string(diffPath)
                }
            }
        }
        reply["total_ms"] = Self.rounded(Self.milliseconds() - started)
        reply["cpu_ms"] = Self.rounded(Self.milliseconds(CLOCK_THREAD_CPUTIME_ID) - startedCPU)
        return reply
    }

    /// `masks`: rectangles in the picture's pixels, each `{"x", "y", "width", "height"}` or
    /// `"X,Y,WxH"`.
    private static func rectangles(_ request: ControlRequest) throws(ControlError) -> [Rect] {
        guard request.has("masks") else { return [] }
        guard let items = request.arguments["masks"]?.arrayValue else {
            throw ControlError(
                .invalidArgument,
                "\"masks\" must be an array of rectangles ({\"x\", \"y\", \"width\", \"height\"} or \"X,Y,WxH\")")
        }
        guard items.count <= 4096 else { throw ControlError(.invalidArgument, "at most 4096 masks") }
        var rectangles: [Rect] = []
        for item in items {
            let limit = 1 << 20
            var values: [Int]?
            if let fields = item.objectValue {
                let parts = ["x", "y", "width", "height"].map { fields[$0]?.intValue }
                values = parts.contains(where: { $0 == nil }) ? nil : parts.compactMap { $0 }
            } else if let text = item.stringValue {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                let size = parts.count == 3 ? parts[2].split(separator: "x", omittingEmptySubsequences: false) : []
                if parts.count == 3, size.count == 2, let x = Int(parts[0]), let y = Int(parts[1]),
                    let w = Int(size[0]), let h = Int(size[1])
                {
                    values = [x, y, w, h]
                }
            }
            guard let values, abs(values[0]) <= limit, abs(values[1]) <= limit, (1...limit).contains(values[2]),
                (1...limit).contains(values[3])
            else {
                throw ControlError(
                    .invalidArgument,
                    "a mask is {\"x\", \"y\", \"width\", \"height\"} or \"X,Y,WxH\" (whole numbers, a size above 0), not \(item.stringValue.map { "\"\($0)\"" } ?? item.typeName)"
                )
            }
            rectangles.append(Rect(x: values[0], y: values[1], width: values[2], height: values[3]))
        }
        return rectangles
    }

    /// `mask_windows` (selectors; each must name at least one shown window, and masks every one it
    /// names) and `mask_levels` (every shown window of these levels).
    private func maskedWindows(_ request: ControlRequest) throws(ControlError) -> [Window] {
        let shown = manager.windows.filter { !$0.isHidden }
        var chosen: [Window] = []
        if request.has("mask_windows") {
            guard let items = request.arguments["mask_windows"]?.arrayValue, items.count <= 256 else {
                throw ControlError(
                    .invalidArgument,
                    "\"mask_windows\" must be an array of at most 256 window names (\(WindowSelector.forms))")
            }
            for item in items {
                let selector = try WindowSelector(item, argument: "mask_windows")
                let matching = shown.filter { selector.matches($0) }
                guard !matching.isEmpty else {
                    throw ControlError(
                        .unknownWindow,
                        "mask_windows: no shown window answers to \(selector); windows: \(WindowSelector.list(manager.windows))"
                    )
                }
                chosen += matching
            }
        }
        if request.has("mask_levels") {
            var levels: [WindowLevel] = []
            for name in try request.stringArray("mask_levels") {
                guard let level = WindowLevel(name: name) else {
                    throw ControlError(
                        .invalidArgument,
                        "mask_levels: \"\(name)\" is not a level (\(WindowLevel.namedLevels.map(\.name).joined(separator: ", ")), or a number)"
                    )
                }
                levels.append(level)
            }
            chosen += shown.filter { levels.contains($0.level) }
        }
        return chosen
    }

    private static func absolutePath(_ request: ControlRequest, _ name: String) throws(ControlError) -> String {
        let path = try request.string(name)
        guard path.hasPrefix("/") else { throw ControlError(.invalidArgument, "\"\(name)\" must be an absolute path") }
        return path
    }

    private static func write(_ pixels: PNGFile.Pixels, to path: String, what: String) throws(ControlError) {
        if let problem = OutputPath.problemWritingFile(path) {
            throw ControlError(.failed, "cannot write \(what) to \(path): \(problem)")
        }
        do {
            try PNGFile.write(path: path, pixels: pixels)
        } catch {
            throw ControlError(.failed, error.description)
        }
    }

    private static func json(_ rect: Rect) -> JSONValue {
        .object([
            "x": JSONValue(rect.x), "y": JSONValue(rect.y), "width": JSONValue(rect.width),
            "height": JSONValue(rect.height),
        ])
    }

    private static func rounded(_ milliseconds: Double) -> JSONValue {
        JSONValue((milliseconds * 10).rounded() / 10)
    }

    /// The clock's time in milliseconds: the monotonic clock, or the thread's CPU time (what the
    /// check cost Strata, whatever else the machine runs).
    private static func milliseconds(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
    }
}
