import Glibc

/// Writes bytes the compositor holds into a client's fd on the loop, without blocking (what is
/// left waits for the fd to be writable), then closes it: a paste of data the compositor keeps
/// (the X clipboard manager's saved clipboard). A reader that closes its end ends it.
final class BytesToDescriptorWriter {
    private let bytes: [UInt8]
    private var offset = 0
    private var fd: Int32
    private var watcher: EventSource?
    private(set) var isFinished = false

    /// Writes `bytes` into `fd` (taken), starting now.
    init(bytes: [UInt8], fd: Int32, display: Display) {
        self.bytes = bytes
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        flush()
        guard !isFinished else { return }
        watcher = EventSource(display: display, fd: fd, events: .writable) { [weak self] events in
            if events.contains(.error) || events.contains(.hangup) { self?.finish() } else { self?.flush() }
        }
        if watcher == nil { finish() }
    }

    private func flush() {
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(fd, base + offset, buffer.count - offset)
            }
            if count > 0 {
                offset += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            return finish()
        }
        finish()
    }

    /// Stops and closes the fd; idempotent.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        watcher?.remove()
        watcher = nil
        if fd >= 0 { Descriptors.close(fd) }
        fd = -1
    }
}
