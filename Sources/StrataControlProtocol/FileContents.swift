import FoundationEssentials
import Glibc

/// A file read whole with read(2), bounded. FoundationEssentials' readers
/// (`FileManager.contents(atPath:)`, `String(contentsOfFile:)`) leak a page for each empty file
/// they read (Swift 6.3.1); the replay polls files that start empty (its Strata's standard
/// output and error) and a trace may be empty, so LeakSanitizer failed `strata-ctl` under load.
public enum FileContents {
    /// The bytes of the file at `path`, at most `limit`; nil when it cannot be opened (`errno`
    /// says why). Opened non-blocking: a FIFO in its place gives what is there, never a wait.
    public static func bytes(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return bytes(fd: fd, limit: limit)
    }

    /// What `fd` gives until its end (or `EAGAIN`), at most `limit` bytes.
    public static func bytes(fd: Int32, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// The file's text (invalid UTF-8 repaired), at most `limit` bytes; nil when it cannot be opened.
    public static func text(_ path: String, limit: Int = 64 << 20) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }
}
