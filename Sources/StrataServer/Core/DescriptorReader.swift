import Glibc

/// Reads a pipe to its end on the loop, without blocking, into memory: what a data source wrote
/// for the compositor itself (the X clipboard manager's save). Bounded by `room`, asked before
/// each read: a writer with more than that is cut off (its fd closed; `isComplete` false).
/// Closes its fd when it ends.
final class DescriptorReader {
    private(set) var bytes: [UInt8] = []
    /// The end was read (not cut off, not an error).
    private(set) var isComplete = false
    private(set) var isFinished = false
    private var fd: Int32
    private var watcher: EventSource?
    private let room: () -> Int
    private let didRead: (Int) -> Void
    private let didEnd: () -> Void

    /// Watches `fd` (taken) on `display`'s loop. `room`: how many more bytes may be held;
    /// `didRead`: bytes kept; `didEnd`: once, at the end (complete or not).
    init(
        fd: Int32, display: Display, room: @escaping () -> Int, didRead: @escaping (Int) -> Void,
        didEnd: @escaping () -> Void
    ) {
        self.fd = fd
        self.room = room
        self.didRead = didRead
        self.didEnd = didEnd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        watcher = EventSource(display: display, fd: fd, events: .readable) { [weak self] _ in self?.readAvailable() }
        if watcher == nil { finish() }
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while !isFinished {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            if count == 0 { isComplete = true }
            guard count > 0 else { return end() }
            guard count <= room() else { return end() }
            bytes.append(contentsOf: chunk[0..<count])
            didRead(count)
        }
    }

    private func end() {
        guard !isFinished else { return }
        finish()
        if !isComplete { bytes = [] }
        didEnd()
    }

    /// Stops reading and closes the fd, without `didEnd`; idempotent.
    func finish() {
        isFinished = true
        watcher?.remove()
        watcher = nil
        if fd >= 0 { Descriptors.close(fd) }
        fd = -1
    }
}
