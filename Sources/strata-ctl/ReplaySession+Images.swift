import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel
import StrataRender
import StrataTrace

/// Before each recorded step: the recorded gap (realtime clock) and the recorded pictures
/// (docs/experiments.md, "Waiting for the same pixels").
extension ReplaySession {
    /// The longest a replay waits for one recorded gap between steps.
    static let maximumGap = 10.0

    /// Waits, before the step on `line` (index `index`), at least the recorded time since the
    /// previous step (realtime clock), then until each window in its `shown` shows the recorded
    /// picture; the first window that does not is `pictures.divergence`, and from there on no
    /// picture is waited for.
    func prepareStep(_ line: JSONValue, index: Int, trace: TraceFile) {
        let recordedTime = line["time_ns"]?.intValue ?? pictures.lastRecordedTime
        if trace.clock == "realtime", missedPoint == nil, pictures.lastIssued > 0 {
            let gap = min(Self.maximumGap, max(0, Double(recordedTime - pictures.lastRecordedTime) / 1e9))
            let wait = pictures.lastIssued + gap - ControlClient.now()
            if wait > 0 { usleep(UInt32(min(wait, Self.maximumGap) * 1e6)) }
        }
        if whatIf == nil, pictures.divergence == nil, missedPoint == nil, let shown = line["shown"]?.arrayValue {
            for entry in shown.prefix(16) {
                guard let window = entry["window"]?.intValue, window > 0, let hash = entry["hash"]?.stringValue,
                    PictureEncoding.isHash(hash)
                else { continue }
                if !waitForPicture(window: window, hash: hash, line: line, index: index, trace: trace) { break }
            }
        }
        pictures.lastIssued = ControlClient.now()
        pictures.lastRecordedTime = recordedTime
    }

    /// Asks the replay's Strata to wait until window `window` shows `hash` (`wait-image`); false
    /// (and the divergence kept, with the pictures) when it does not.
    private func waitForPicture(window: Int, hash: String, line: JSONValue, index: Int, trace: TraceFile) -> Bool {
        let stem = "\(directory)/step-\(index + 1)-window-\(window)"
        var recordedPath: String?
        if let imageIndex = pictures.images["window:\(hash)"], let data = Self.pngData(trace.lines[imageIndex]) {
            let path = stem + ".recorded.png"
            if FileManager.default.createFile(atPath: path, contents: data) { recordedPath = path }
        }
        var arguments: [String: JSONValue] = [
            "window": JSONValue(window), "hash": .string(hash), "timeout": JSONValue(pictures.timeout),
            "output": .string(stem + ".replayed.png"),
        ]
        if pictures.isTolerant, let recordedPath {
            arguments["expected"] = .string(recordedPath)
            arguments["threshold"] = JSONValue(pictures.threshold)
            arguments["masks"] = .array(pictures.masks.map { .string("\($0.x),\($0.y),\($0.width)x\($0.height)") })
            arguments["max_diff"] = .string(pictures.maximumDiffering)
        }
        if verbose { Output.printError("replay: waiting for window \(window) to show \(hash)") }
        let reply = try? client.request("wait-image", arguments)
        if reply?["ok"] == true { return true }
        let step = "\(TraceFile.describe(line)) (line \(index + 1))"
        var message: String
        if let reply, reply["error"]?["code"] == "failed", let shownHash = reply["hash"]?.stringValue {
            let appID = reply["app_id"]?.stringValue ?? "", title = reply["title"]?.stringValue ?? ""
            message =
                "window \(window) (\(appID.isEmpty ? "no app id" : appID), \"\(title)\") showed other pixels before step \(step)"
                + " (hash \(shownHash), recorded \(hash); waited \(pictures.timeout) s)"
        } else {
            let why = reply?["error"]?["message"]?.stringValue ?? "no reply from the replay's Strata"
            message = "window \(window) could not show its recorded picture before step \(step): \(why)"
        }
        var divergence = ReplayPictures.Divergence(lineIndex: index, message: message, recorded: recordedPath)
        let replayedPath = stem + ".replayed.png"
        if FileManager.default.fileExists(atPath: replayedPath) { divergence.replayed = replayedPath }
        if let recordedPath, let replayed = divergence.replayed,
            let a = try? PNGFile.read(path: recordedPath), let b = try? PNGFile.read(path: replayed)
        {
            let comparison = ImageComparison(threshold: pictures.threshold, masks: pictures.masks)
            if let result = try? comparison.compare(a, b, drawingDiff: true), let diff = result.diff,
                (try? PNGFile.write(path: stem + ".diff.png", pixels: diff)) != nil
            {
                divergence.diff = stem + ".diff.png"
                let box = result.bounds.map { ", within \($0.x),\($0.y),\($0.width)x\($0.height)" } ?? ""
                divergence.message += ": \(result.differing) of \(result.compared) pixels differ\(box)"
            } else if a.width != b.width || a.height != b.height {
                divergence.message +=
                    ": the pictures differ in size (\(a.width)x\(a.height) recorded, \(b.width)x\(b.height) replayed)"
            }
        }
        pictures.divergence = divergence
        return false
    }

    /// The PNG bytes of an `image` line: its `png` field, checked as base64 of a PNG of at
    /// most 16384×16384; nil for anything else.
    static func pngData(_ line: JSONValue) -> Data? {
        guard let text = line["png"]?.stringValue, text.utf8.count <= 512 * 1024 * 1024,
            let width = line["width"]?.intValue, let height = line["height"]?.intValue,
            (1...PNGFile.maximumSide).contains(width), (1...PNGFile.maximumSide).contains(height),
            let data = Data(base64Encoded: text), data.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        else { return nil }
        return data
    }
}
