import FoundationEssentials
import StrataControlProtocol
import StrataRender
import StrataTrace

/// A replay that diverged because a window showed other pixels before a step
/// (docs/experiments.md, "Waiting for the same pixels").
extension ReplayCommand {
    /// Prints the divergence, keeps the replay's trace and the three pictures (recorded,
    /// replayed, diff) beside it, and writes the report page (`--report`) with them.
    func reportPixels(
        _ divergence: ReplayPictures.Divergence, trace: TraceFile, replayPath: String, kept: String,
        lastPictures: [String]
    ) {
        var report = ["\(file): the replay diverged (pixels): \(divergence.message)", "recorded (\(file)):"]
        report += TraceDiff.context(of: trace, around: divergence.lineIndex)
        if keep == nil {
            try? FileManager.default.removeItem(atPath: kept)
            try? FileManager.default.copyItem(atPath: replayPath, toPath: kept)
        }
        report.append("replayed: \(kept)")
        var embedded: [(label: String, png: Data)] = []
        for (label, path) in [
            ("recorded", divergence.recorded), ("replayed", divergence.replayed), ("diff", divergence.diff),
        ] {
            guard let path else {
                report.append(
                    "the \(label) picture: none" + (label == "recorded" ? " (the trace has no image of it)" : ""))
                continue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? "\(label).png"
            let destination = kept + "." + name
            try? FileManager.default.removeItem(atPath: destination)
            if (try? FileManager.default.copyItem(atPath: path, toPath: destination)) != nil {
                report.append("the \(label) picture: \(destination)")
            }
            if let data = FileContents.bytes(path, limit: 1 << 30).map({ Data($0) }) { embedded.append((label, data)) }
        }
        for picture in lastPictures { report.append("the replay's last picture: \(picture)") }
        if let page = self.report {
            let marked = TraceDivergence(
                kind: "pixels", recordedIndex: divergence.lineIndex, replayIndex: nil, message: divergence.message)
            if let problem = OutputPath.write(
                TraceReport.html(for: trace, divergence: marked, pictures: embedded), to: page)
            {
                report.append("strata-ctl: error: cannot write the report: \(problem)")
            } else {
                report.append("report: \(page)")
            }
        }
        Output.printError(report.joined(separator: "\n"))
    }
}

extension ReplayCommand {
    /// The screen of a recorded frame line, by name (the header's, else `HEADLESS-N`).
    static func screenName(_ screen: Int, in trace: TraceFile) -> String {
        let named = trace.header["screens"]?.arrayValue?.first { $0["id"]?.intValue == screen }?["name"]?.stringValue
        guard let named, !named.isEmpty, !named.contains("/") else { return "HEADLESS-\(screen)" }
        return named
    }

    /// The recorded last picture of `screen` (its `screen` image line, by the final frame's hash)
    /// written into `directory`, and the replay's (`last-<name>.png`, `saveLastPictures`); nil
    /// when either is missing.
    static func lastPictures(
        of screen: Int, recordedFrame: JSONValue, trace: TraceFile, pictures: ReplayPictures,
        directory: String
    ) -> (recorded: String, replayed: String)? {
        let name = screenName(screen, in: trace)
        let replayed = "\(directory)/last-\(name).png"
        guard recordedFrame["final"] == true, let hash = recordedFrame["hash"]?.stringValue,
            let index = pictures.images["screen:\(hash)"], let data = ReplaySession.pngData(trace.lines[index]),
            FileManager.default.fileExists(atPath: replayed)
        else { return nil }
        let recorded = "\(directory)/recorded-last-\(name).png"
        guard FileManager.default.createFile(atPath: recorded, contents: data) else { return nil }
        return (recorded, replayed)
    }

    /// Whether a screen's last pictures that hash differently are the same within `--threshold`,
    /// `--mask` and `--max-diff` (only when one of them is given).
    static func lastPicturesMatch(
        screen: Int, recordedFrame: JSONValue, trace: TraceFile, pictures: ReplayPictures, directory: String
    ) -> Bool {
        guard pictures.isTolerant,
            let paths = lastPictures(
                of: screen, recordedFrame: recordedFrame, trace: trace, pictures: pictures, directory: directory),
            let a = try? PNGFile.read(path: paths.recorded), let b = try? PNGFile.read(path: paths.replayed),
            let result = try? ImageComparison(threshold: pictures.threshold, masks: pictures.masks).compare(a, b)
        else { return false }
        switch CompareCommand.parseTolerance(pictures.maximumDiffering) ?? .count(0) {
        case .count(let count): return result.differing <= count
        case .share(let share): return result.share <= share
        }
    }

    /// For a divergence of a screen's last picture: the recorded one and the diff kept beside
    /// the replay's trace (`<kept>.<screen>.recorded.png`, `.diff.png`); the report's lines and
    /// the pictures for the page.
    static func keepLastPictureDiff(
        _ divergence: TraceDivergence, trace: TraceFile, pictures: ReplayPictures, directory: String,
        kept: String
    ) -> (lines: [String], pictures: [(label: String, png: Data)]) {
        guard divergence.kind == "frame-hash", let index = divergence.recordedIndex, index < trace.lines.count,
            let screen = trace.lines[index]["screen"]?.intValue,
            let paths = lastPictures(
                of: screen, recordedFrame: trace.lines[index], trace: trace, pictures: pictures, directory: directory),
            let a = try? PNGFile.read(path: paths.recorded), let b = try? PNGFile.read(path: paths.replayed)
        else { return ([], []) }
        let name = screenName(screen, in: trace)
        var lines: [String] = [], embedded: [(label: String, png: Data)] = []
        let recordedCopy = "\(kept).\(name).recorded.png", diffPath = "\(kept).\(name).diff.png"
        try? FileManager.default.removeItem(atPath: recordedCopy)
        if (try? FileManager.default.copyItem(atPath: paths.recorded, toPath: recordedCopy)) != nil {
            lines.append("the recorded last picture: \(recordedCopy)")
        }
        for (label, path) in [("recorded", paths.recorded), ("replayed", paths.replayed)] {
            if let data = FileContents.bytes(path, limit: 1 << 30).map({ Data($0) }) { embedded.append((label, data)) }
        }
        if let result = try? ImageComparison(threshold: pictures.threshold, masks: pictures.masks).compare(
            a, b, drawingDiff: true),
            let diff = result.diff, (try? PNGFile.write(path: diffPath, pixels: diff)) != nil
        {
            lines.append("their diff (\(result.differing) of \(result.compared) pixels differ): \(diffPath)")
            if let data = FileContents.bytes(diffPath, limit: 1 << 30).map({ Data($0) }) {
                embedded.append(("diff", data))
            }
        }
        return (lines, embedded)
    }
}
