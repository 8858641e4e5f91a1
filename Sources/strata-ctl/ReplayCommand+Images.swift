import FoundationEssentials
import StrataControlProtocol

/// A replay that diverged because a window showed other pixels before a step
/// (docs/experiments.md, "Waiting for the same pixels").
extension ReplayCommand {
    /// Prints the divergence, keeps the replay's trace and the three pictures (recorded,
    /// replayed, diff) beside it, and writes the report page (`--report`) with them.
    func reportPixels(_ divergence: ReplayPictures.Divergence, trace: TraceFile, replayPath: String, kept: String, lastPictures: [String]) {
        var report = ["\(file): the replay diverged (pixels): \(divergence.message)", "recorded (\(file)):"]
        report += TraceDiff.context(of: trace, around: divergence.lineIndex)
        if keep == nil {
            try? FileManager.default.removeItem(atPath: kept)
            try? FileManager.default.copyItem(atPath: replayPath, toPath: kept)
        }
        report.append("replayed: \(kept)")
        var embedded: [(label: String, png: Data)] = []
        for (label, path) in [("recorded", divergence.recorded), ("replayed", divergence.replayed), ("diff", divergence.diff)] {
            guard let path else {
                report.append("the \(label) picture: none" + (label == "recorded" ? " (the trace has no image of it)" : ""))
                continue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? "\(label).png"
            let destination = kept + "." + name
            try? FileManager.default.removeItem(atPath: destination)
            if (try? FileManager.default.copyItem(atPath: path, toPath: destination)) != nil {
                report.append("the \(label) picture: \(destination)")
            }
            if let data = FileManager.default.contents(atPath: path) { embedded.append((label, data)) }
        }
        for picture in lastPictures { report.append("the replay's last picture: \(picture)") }
        if let page = self.report {
            let marked = TraceDivergence(kind: "pixels", recordedIndex: divergence.lineIndex, replayIndex: nil, message: divergence.message)
            if let problem = OutputPath.write(TraceReport.html(for: trace, divergence: marked, pictures: embedded), to: page) {
                report.append("strata-ctl: error: cannot write the report: \(problem)")
            } else {
                report.append("report: \(page)")
            }
        }
        Output.printError(report.joined(separator: "\n"))
    }
}
