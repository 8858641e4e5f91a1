import Foundation

/// Clocks and memory readings for the report.
public enum Measure {
    /// CPU time of this thread in nanoseconds (excludes time the scheduler gave to others, which
    /// matters on a loaded machine).
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    public static func wallNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The median over `runs` runs of the CPU time per call of `body`, called `iterations` times
    /// a run, in microseconds.
    public static func cpuMicrosecondsPerCall(runs: Int = 7, iterations: Int, _ body: () -> Void) -> Double {
        var perCall: [Double] = []
        for _ in 0..<runs {
            let start = threadCPUNanoseconds()
            for _ in 0..<iterations { body() }
            perCall.append(Double(threadCPUNanoseconds() - start) / Double(iterations) / 1000)
        }
        return median(perCall)
    }

    /// Fields of /proc/PID/status in kB (VmRSS, RssAnon, RssFile, RssShmem).
    public static func memory(pid: String = "self") -> [String: Int] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return [:] }
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, ["VmRSS", "RssAnon", "RssFile", "RssShmem"].contains(String(parts[0])) else {
                continue
            }
            result[String(parts[0])] = Int(
                parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return result
    }

    /// utime + stime of a process in clock ticks, from /proc/PID/stat.
    public static func cpuTicks(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After "pid (comm)": state is field 3, utime 14, stime 15 (1-based) → indices 11, 12.
        guard fields.count > 12, let u = Int(fields[11]), let s = Int(fields[12]) else { return nil }
        return u + s
    }
}
