import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataRecording
import StrataServer
import StrataTrace

/// One client of the control socket, on the compositor's loop: a read buffer cut into lines
/// (each at most `ControlProtocol.maximumLineLength`), requests handled in order as they
/// complete, and a write queue flushed when the socket is writable.
///
/// Nothing here blocks. A peer that does not read fills the write queue; past
/// `ControlServer.maximumQueuedBytes` the connection is dropped (an `events` subscriber that falls behind is
/// dropped rather than slowing the compositor). When the peer shuts down its writing side,
/// the requests already read are answered, the queue is flushed, and the connection closes
/// (an events subscriber stays until the peer goes away).
final class ControlConnection {
    let fd: Int32
    let peer: UnixSocket.PeerCredentials
    /// Where the peer came from (`origin(in:)`), once a recording asked.
    private var traceOrigin: TraceOrigin?
    let number: Int
    private unowned let server: ControlServer
    private var source: EventSource?
    private var input: [UInt8] = []
    /// True while the rest of an oversize line is skipped up to its newline.
    private var discardingLine = false
    private var output: [UInt8] = []
    private var outputStart = 0
    private var readClosed = false
    private(set) var isClosed = false
    /// Whether model events are streamed to this connection (`events` with `follow`).
    var isSubscribed = false
    /// Request lines held back while the policy delegate decides (manual clock), in order.
    private var held: [[UInt8]] = []
    /// The most lines held back; a request beyond it is refused.
    private static let maximumHeld = 10_000

    /// Where the peer came from (`command`, `exec`, `outside`…), asked of `recorder` once: when
    /// the connection is accepted during a recording or at its first recorded request.
    func origin(in recorder: TraceRecorder) -> TraceOrigin {
        if let traceOrigin { return traceOrigin }
        let origin = recorder.origin(ofPeer: peer.pid)
        traceOrigin = origin
        return origin
    }

    private static let readChunk = 16 * 1024
    /// Reads per wakeup, so one busy client cannot hold the loop.
    private static let readsPerWakeup = 8

    /// Watches `fd`, an accepted connection, and owns it from then on; nil when it cannot be
    /// watched, and then the caller keeps it.
    init?(fd: Int32, peer: UnixSocket.PeerCredentials, number: Int, server: ControlServer) {
        self.fd = fd
        self.peer = peer
        self.number = number
        self.server = server
        guard
            let source = EventSource(
                display: server.compositor.display, fd: fd, events: .readable,
                handler: { [weak self] events in
                    self?.handle(events)
                })
        else {
            // deinit runs for a class initializer that fails after full initialization: the
            // caller keeps the descriptor (and closes it), so this object must not.
            isClosed = true
            return nil
        }
        self.source = source
    }

    deinit {
        if !isClosed {
            source?.remove()
            Descriptors.close(fd)
        }
    }

    var queuedBytes: Int { output.count - outputStart }

    // MARK: Events on the fd

    private func handle(_ events: EventSource.Events) {
        if events.contains(.readable) || (events.contains(.hangup) && !readClosed) { readAvailable() }
        if isClosed { return }
        if events.contains(.writable) { flush() }
        if isClosed { return }
        if events.contains(.error) || (events.contains(.hangup) && readClosed && (isSubscribed || queuedBytes > 0)) {
            // The peer is gone for good: nothing more can be written.
            close()
        }
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: Self.readChunk)
        for _ in 0..<Self.readsPerWakeup {
            let result = chunk.withUnsafeMutableBytes { UnixSocket.read(fd, into: $0) }
            switch result {
            case .data(let count):
                input.append(contentsOf: chunk[0..<count])
                processLines()
                if isClosed { return }
            case .wouldBlock:
                return
            case .endOfFile:
                peerDidShutDownWriting()
                return
            case .failed:
                close()
                return
            }
        }
    }

    /// Cuts complete lines off the input and handles them; enforces the line length limit.
    private func processLines() {
        var lineStart = 0
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "\n") {
                let line = Array(input[lineStart..<index])
                lineStart = index + 1
                if discardingLine {
                    discardingLine = false
                } else if line.count > ControlProtocol.maximumLineLength {
                    rejectLongLine()
                } else {
                    handleLine(line)
                }
                if isClosed { return }
            }
            index += 1
        }
        input.removeFirst(lineStart)
        if discardingLine {
            input.removeAll(keepingCapacity: true)
        } else if input.count > ControlProtocol.maximumLineLength {
            input.removeAll(keepingCapacity: true)
            discardingLine = true
            rejectLongLine()
        }
    }

    private func rejectLongLine() {
        send(
            reply: ControlServer.errorReply(
                id: .null,
                ControlError(
                    .lineTooLong,
                    "a request line is at most \(ControlProtocol.maximumLineLength) bytes; the line was discarded")))
    }

    private func handleLine(_ bytes: [UInt8]) {
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        // Blank lines are ignored (handy with `nc`).
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        if !held.isEmpty || server.holdsBack(self) {
            guard held.count < Self.maximumHeld else {
                send(
                    reply: ControlServer.errorReply(
                        id: .null,
                        ControlError(
                            .failed,
                            "\(Self.maximumHeld) requests already wait for the policy delegate's decision; this one was dropped"
                        )))
                return
            }
            held.append(line)
            server.connectionDidHold(self)
            return
        }
        if let reply = server.handle(line: Data(line), from: self) { send(reply: reply) }
    }

    /// Handles the held-back requests in order until the delegate is asked again; true when
    /// none is left.
    func releaseHeld() -> Bool {
        while !held.isEmpty, !isClosed {
            if server.holdsBack(self) { return false }
            let line = held.removeFirst()
            if let reply = server.handle(line: Data(line), from: self) { send(reply: reply) }
        }
        if !isClosed { closeIfFinished() }
        return true
    }

    private func peerDidShutDownWriting() {
        guard !readClosed else { return }
        readClosed = true
        if !input.isEmpty, !discardingLine {
            let last = input
            input.removeAll()
            handleLine(last)
            if isClosed { return }
        }
        input.removeAll()
        closeIfFinished()
        // Stop watching for input (end of file would be reported forever); a hangup or error
        // is reported whatever is watched.
        if !isClosed { source?.update(queuedBytes > 0 ? .writable : []) }
    }

    // MARK: Output

    /// Queues one reply line and tries to write it now.
    func send(reply: JSONValue) {
        enqueue(reply.encodedLine())
    }

    /// Queues an event line for a subscriber; drops the connection when it is too far behind.
    func send(eventLine line: Data) {
        guard isSubscribed else { return }
        enqueue(line)
    }

    private func enqueue(_ line: Data) {
        guard !isClosed else { return }
        if queuedBytes + line.count + 1 > server.maximumQueuedBytes {
            server.log(
                "control: connection \(number) does not read its replies or events (\(queuedBytes) bytes queued): dropped"
            )
            close()
            return
        }
        output.append(contentsOf: line)
        output.append(UInt8(ascii: "\n"))
        flush()
    }

    /// Writes as much of the queue as the socket takes; watches for writability otherwise.
    private func flush() {
        while outputStart < output.count {
            let result = output.withUnsafeBytes { raw in
                UnixSocket.write(fd, UnsafeRawBufferPointer(rebasing: raw[outputStart...]))
            }
            switch result {
            case .wrote(let count):
                outputStart += count
            case .wouldBlock:
                compactOutput()
                source?.update(readClosed ? .writable : [.readable, .writable])
                return
            case .failed:
                close()
                return
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        outputStart = 0
        source?.update(readClosed ? [] : .readable)
        closeIfFinished()
    }

    private func compactOutput() {
        if outputStart > 64 * 1024 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    private func closeIfFinished() {
        if readClosed, !isSubscribed, queuedBytes == 0, held.isEmpty { close() }
    }

    /// Closes the socket and forgets the connection; safe to call twice.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        isSubscribed = false
        source?.remove()
        source = nil
        Descriptors.close(fd)
        server.connectionDidClose(self)
    }
}
