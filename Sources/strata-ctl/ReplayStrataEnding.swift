/// How the replay's Strata ended: its exit status, whether it had ended before the replay
/// stopped it, and its standard error. A replay whose Strata failed cannot match, whatever its
/// trace says: `problem` says why (`strata-ctl replay` exits 1 with it).
struct ReplayStrataEnding {
    /// The exit status (128 + the signal when a signal ended it).
    var status: Int32
    /// Whether it had ended before the replay stopped it (SIGTERM, after the last step).
    var endedEarly: Bool
    var standardError: String

    /// What only a failure prints on Strata's standard error (its clients' go there too): Strata's
    /// own errors, a client's protocol error, a Swift trap, a sanitizer report.
    static let failureMarkers = [
        "strata: error", "protocol error", "Fatal error:", "runtime error:", "ERROR: AddressSanitizer",
        "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehaviorSanitizer", "Segmentation fault",
        "Illegal instruction",
    ]

    /// The lines of standard error with a failure marker.
    var failureLines: [String] {
        standardError.split(separator: "\n").map(String.init).filter { line in
            let lower = line.lowercased()
            return Self.failureMarkers.contains { lower.contains($0.lowercased()) }
        }
    }

    var statusWords: String { status > 128 ? "status \(status), signal \(status - 128)" : "status \(status)" }

    /// Why the replay cannot count as a match, in words; nil when Strata ran and ended cleanly.
    var problem: String? {
        var reasons: [String] = []
        if endedEarly {
            reasons.append("it ended before the replay finished (\(statusWords))")
        } else if status != 0 {
            reasons.append("it exited with \(statusWords) when the replay stopped it")
        }
        let lines = failureLines
        if let first = lines.first {
            reasons.append(
                "its standard error has \(lines.count) error line\(lines.count == 1 ? "" : "s"), the first: \(first)")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }
}
