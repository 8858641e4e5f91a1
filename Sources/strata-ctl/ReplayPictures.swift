import StrataControlProtocol
import StrataModel
import StrataTrace

/// What a replay knows about pictures (docs/experiments.md, "Waiting for the same pixels"): the
/// options of its checks, the recorded `image` lines by kind and hash, when the last step was
/// issued, and the first step before which a window showed other pixels.
final class ReplayPictures {
    /// Seconds a window gets to show its recorded picture before a step (`--image-timeout`).
    var timeout = 5.0
    /// Per-channel tolerance, masks and tolerated differing pixels (`--threshold`, `--mask`,
    /// `--max-diff`): with any of them the replay's Strata compares against the recorded picture
    /// instead of asking for the same hash.
    var threshold = 0
    var masks: [Rect] = []
    var maximumDiffering = "0"
    var isTolerant: Bool { threshold > 0 || !masks.isEmpty || maximumDiffering != "0" }

    /// The recorded pictures: `window:HASH` or `thumbnail:HASH` → the line's index.
    var images: [String: Int] = [:]
    /// When (ControlClient.now) the last step was issued, and its recorded `time_ns`.
    var lastIssued: Double = 0
    var lastRecordedTime: Int = 0

    /// The first step before which a window showed other pixels.
    struct Divergence {
        var lineIndex: Int
        var message: String
        /// The recorded picture, the replay's and their diff, in the replay's directory (nil:
        /// not available).
        var recorded: String?
        var replayed: String?
        var diff: String?
    }

    var divergence: Divergence?

    init(trace: TraceFile?) {
        if let trace { index(trace) }
    }

    /// Notes where the trace's pictures are.
    func index(_ trace: TraceFile) {
        for (index, line) in trace.lines.enumerated() where line["type"] == "image" {
            guard let kind = line["kind"]?.stringValue, let hash = line["hash"]?.stringValue else { continue }
            images["\(kind):\(hash)"] = index
        }
    }
}
