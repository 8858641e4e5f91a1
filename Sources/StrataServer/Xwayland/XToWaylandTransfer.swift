import CXCB
import Glibc

/// One conversion of an X selection for a Wayland client (or for the XWM itself: TARGETS): the
/// ConvertSelection sent, then the property read (deleting it, which asks an INCR owner for the
/// next chunk), each chunk written into the client's fd without blocking. At most one chunk is
/// held: the next is fetched only when the fd took the last one, so a slow reader slows the X
/// owner down instead of filling Strata's memory. Ends when the owner sends the end (a zero-length
/// chunk, or the one property of a plain transfer), when the reader closes its end (the fd's
/// error is watched while waiting), or when the owner changes or goes (`XSelection`).
final class XToWaylandTransfer {
    /// The X target converted (TARGETS, UTF8_STRING, a MIME type's atom…).
    let target: xcb_atom_t
    /// The fd written to; -1 for the XWM's own TARGETS request.
    private(set) var fd: Int32
    /// What the XWM does with the bytes of a TARGETS conversion.
    let receivedTargets: (([UInt8]) -> Void)?

    enum Stage {
        /// ConvertSelection not sent yet (another conversion of the selection is ahead).
        case queued
        /// Waiting for the owner's SelectionNotify.
        case converting
        /// A GetProperty is in flight.
        case fetching
        /// INCR: waiting for the owner's next chunk (a PropertyNotify NewValue).
        case waitingForChunk
        /// Done (the fd closed).
        case finished
    }
    var stage: Stage = .queued
    var isIncremental = false
    /// A NewValue came while a chunk was still being fetched or written: fetch again after.
    var chunkIsWaiting = false
    /// The end was seen (the plain property, or INCR's zero-length chunk): close once written.
    var endSeen = false
    /// Bytes written into the fd so far (capped by `XSelection.maxTransferBytes`).
    private(set) var written = 0
    private var buffer: [UInt8] = []
    private var offset = 0
    private var watcher: EventSource?
    /// Called when the buffer drained (fetch the next chunk, or finish).
    var didDrain: () -> Void = {}
    /// Called when the reader closed its end or the cap was passed.
    var didFail: () -> Void = {}

    init(target: xcb_atom_t, fd: Int32) {
        self.target = target
        self.fd = fd
        receivedTargets = nil
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    init(targetsAtom: xcb_atom_t, received: @escaping ([UInt8]) -> Void) {
        target = targetsAtom
        fd = -1
        receivedTargets = received
    }

    var hasPendingBytes: Bool { offset < buffer.count }

    /// Watches the fd (errors only, until there is something to write): a reader that closes
    /// its end while the X owner is slow ends the transfer at once.
    func watch(display: Display) {
        guard fd >= 0, watcher == nil else { return }
        watcher = EventSource(display: display, fd: fd, events: []) { [weak self] events in
            self?.fdDidChange(events)
        }
    }

    /// Queues `bytes` for the fd and writes what it takes now. The buffer is empty here but for
    /// a transfer whose owner went: its last chunk is read while the one before is still held,
    /// so at most two chunks are.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard fd >= 0 else { return }
        let held = buffer.count - offset
        guard written + held + bytes.count <= XSelection.maxTransferBytes else {
            return didFail()
        }
        if held == 0 {
            buffer = Array(bytes)
        } else {
            buffer.removeFirst(offset)
            buffer.append(contentsOf: bytes)
        }
        offset = 0
        flush()
    }

    private func flush() {
        while offset < buffer.count {
            let count = buffer.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return Glibc.write(fd, base + offset, bytes.count - offset)
            }
            if count > 0 {
                offset += count
                written += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                watcher?.update(.writable)
                return
            }
            return didFail()
        }
        buffer.removeAll(keepingCapacity: false)
        offset = 0
        watcher?.update([])
        didDrain()
    }

    private func fdDidChange(_ events: EventSource.Events) {
        if events.contains(.error) || events.contains(.hangup) { return didFail() }
        if events.contains(.writable) { flush() }
    }

    /// Closes the fd (the reader sees the end); idempotent.
    func finish() {
        stage = .finished
        watcher?.remove()
        watcher = nil
        if fd >= 0 { Descriptors.close(fd) }
        fd = -1
        buffer = []
        offset = 0
    }
}
