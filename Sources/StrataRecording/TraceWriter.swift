import Glibc
import StrataControlProtocol
import StrataRender

/// A trace file being written: lines are buffered and written in blocks of `blockSize` to a
/// regular file (never a FIFO or a device, which could block the loop: `PNGFile.openRegularFile`),
/// up to `maximumBytes` after the header (which is always written: a trace always says what it
/// recorded); the line that would pass the limit is refused and the writer stops.
final class TraceWriter {
    let path: String
    let maximumBytes: Int
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes accepted so far (written or buffered) and lines.
    private(set) var bytes = 0
    private(set) var lines = 0
    /// Bytes of the header, outside the limit.
    private var headerBytes = 0
    /// Why writing stopped early (size limit, a write error), if it did.
    private(set) var failure: String?
    static let blockSize = 64 * 1024

    init(path: String, maximumBytes: Int) throws(ControlError) {
        self.path = path
        self.maximumBytes = maximumBytes
        if let problem = OutputPath.problemWritingFile(path) {
            throw ControlError(.failed, "cannot record to \(path): \(problem)")
        }
        do {
            fd = try PNGFile.openRegularFile(path)
        } catch {
            guard case .write(_, let why) = error else { throw ControlError(.failed, "cannot record to \(path)") }
            throw ControlError(.failed, "cannot record to \(path): \(why)")
        }
        buffer.reserveCapacity(Self.blockSize + 4096)
    }

    deinit { close() }

    var isOpen: Bool { fd >= 0 }

    /// Appends one line (a newline is added). False when the line would pass the size limit
    /// (nothing is written then) or the file failed.
    @discardableResult
    func append<Bytes: Collection>(_ line: Bytes, reserve: Int = 0) -> Bool where Bytes.Element == UInt8 {
        guard fd >= 0, failure == nil else { return false }
        guard bytes - headerBytes + line.count + 1 + reserve <= maximumBytes else {
            failure = "the trace reached its size limit of \(maximumBytes) bytes"
            return false
        }
        buffer.append(contentsOf: line)
        buffer.append(UInt8(ascii: "\n"))
        bytes += line.count + 1
        lines += 1
        if buffer.count >= Self.blockSize { flush() }
        return true
    }

    /// Appends the header line, outside the limit.
    func appendHeader<Bytes: Collection>(_ line: Bytes) where Bytes.Element == UInt8 {
        appendFinal(line)
        headerBytes = bytes
    }

    /// Appends the last line even past the limit's reserve (the `end` line).
    func appendFinal<Bytes: Collection>(_ line: Bytes) where Bytes.Element == UInt8 {
        guard fd >= 0 else { return }
        buffer.append(contentsOf: line)
        buffer.append(UInt8(ascii: "\n"))
        bytes += line.count + 1
        lines += 1
    }

    /// Writes what is buffered.
    func flush() {
        guard fd >= 0, !buffer.isEmpty else { return }
        var start = 0
        while start < buffer.count {
            let written = buffer.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(fd, base + start, raw.count - start)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = failure ?? "cannot write \(path): \(String(cString: strerror(errno)))"
                break
            }
            start += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        guard fd >= 0 else { return }
        flush()
        Glibc.close(fd)
        fd = -1
    }
}
