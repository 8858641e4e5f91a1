import CXCB
import Glibc

/// One answer to an X client's SelectionRequest while a Wayland client owns the selection: the
/// Wayland source writes into a pipe whose read end is watched on the loop (non-blocking); what
/// it wrote becomes the requestor's property. Up to `chunkSize` bytes go in one
/// property; more go by INCR (ICCCM 2.7.2): the INCR property, then each chunk once the
/// requestor deleted the last one, then a zero-length chunk. The pipe is read only while less
/// than a chunk is held, so a slow requestor slows the writer down. Ends when the source closed
/// its end and everything went, when the requestor's window is destroyed (the client died), or
/// at `XSelection.maxTransferBytes` (what was sent is ended there).
final class WaylandToXTransfer {
    let requestor: xcb_window_t
    let property: xcb_atom_t
    let target: xcb_atom_t
    let time: xcb_timestamp_t
    /// Whether the XWM selected events on the requestor (its mask is reset at the end).
    let selectedEvents: Bool
    /// The most bytes of one property (`XSelection.chunkSize`).
    let chunkSize: Int
    private var fd: Int32
    private var watcher: EventSource?
    private var buffer: [UInt8] = []
    private var sourceEnded = false
    private(set) var isIncremental = false
    /// INCR: the requestor deleted the last property, a chunk may go.
    private var requestorIsReady = false
    private(set) var isFinished = false
    private var total = 0

    /// Writes a property on the requestor (type = the target), sends the SelectionNotify, ends.
    var writeProperty: (_ type: xcb_atom_t, _ format: UInt8, _ bytes: [UInt8]) -> Void = { _, _, _ in }
    var announceIncremental: (_ size: UInt32) -> Void = { _ in }
    var notify: () -> Void = {}
    /// Called instead of `notify` when the transfer ends before the requestor could read (one
    /// pair of a MULTIPLE request refused).
    var didFailBeforeReady: () -> Void = {}
    var didFinish: () -> Void = {}
    /// Whether `notify` was called.
    private var isReady = false

    init(
        requestor: xcb_window_t, property: xcb_atom_t, target: xcb_atom_t, time: xcb_timestamp_t, fd: Int32,
        selectedEvents: Bool, chunkSize: Int
    ) {
        self.chunkSize = chunkSize
        self.requestor = requestor
        self.property = property
        self.target = target
        self.time = time
        self.fd = fd
        self.selectedEvents = selectedEvents
    }

    func start(display: Display) {
        watcher = EventSource(display: display, fd: fd, events: .readable) { [weak self] _ in self?.readSource() }
        if watcher == nil { fail() }
    }

    private func readSource() {
        guard !isFinished else { return }
        let room = chunkSize - buffer.count
        guard room > 0 else {
            watcher?.update([])
            return
        }
        var chunk = [UInt8](repeating: 0, count: room)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, room) }
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        if count > 0 {
            let kept = min(count, XSelection.maxTransferBytes - total)
            buffer.append(contentsOf: chunk[0..<kept])
            total += kept
            if total >= XSelection.maxTransferBytes { endSource() }
        } else {
            // The end, or an error: what was read is what the requestor gets.
            endSource()
        }
        advance()
    }

    private func endSource() {
        sourceEnded = true
        watcher?.remove()
        watcher = nil
        if fd >= 0 { Descriptors.close(fd) }
        fd = -1
    }

    /// Sends what may go now.
    private func advance() {
        guard !isFinished else { return }
        if !isIncremental {
            if sourceEnded {
                writeProperty(target, 8, buffer)
                isReady = true
                notify()
                return finish()
            }
            if buffer.count >= chunkSize {
                isIncremental = true
                announceIncremental(UInt32(buffer.count))
                isReady = true
                notify()
                watcher?.update([])
            }
            return
        }
        guard requestorIsReady else {
            if buffer.count >= chunkSize { watcher?.update([]) }
            return
        }
        if !buffer.isEmpty {
            requestorIsReady = false
            writeProperty(target, 8, buffer)
            buffer.removeAll(keepingCapacity: true)
            if !sourceEnded { watcher?.update(.readable) }
        } else if sourceEnded {
            writeProperty(target, 8, [])
            finish()
        } else {
            watcher?.update(.readable)
        }
    }

    /// The requestor deleted the property: the next chunk may go.
    func requestorDidDelete() {
        guard isIncremental, !isFinished else { return }
        requestorIsReady = true
        advance()
    }

    /// The requestor's window is gone, or the source could not be watched: ends without a reply.
    func fail() {
        guard !isFinished else { return }
        finish()
        if !isReady { didFailBeforeReady() }
    }

    private func finish() {
        guard !isFinished else { return }
        isFinished = true
        endSource()
        buffer = []
        didFinish()
    }
}
