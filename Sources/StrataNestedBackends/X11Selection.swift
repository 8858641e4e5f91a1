import CStrataClientGlue
import CXCB
import Glibc
import StrataServer

/// One X selection (CLIPBOARD or PRIMARY) of the parent X server passed to and from Strata's
/// clipboard or primary selection, for text. XFixes tells when the X owner changes.
///
/// - **X → Strata.** While one of Strata's windows has the X focus (at once, or at the next
///   FocusIn), the new owner's TARGETS are converted; if it has text (UTF8_STRING, STRING, TEXT,
///   text/plain…), Strata's seat gets a `CompositorSelectionSource` with the text types. A
///   client's `receive` queues a conversion into the selection window; the property is read
///   (asynchronously, one conversion at a time) and written into the client's pipe without
///   blocking (an `EventSource` while the pipe is full).
/// - **Strata → X.** A client's selection with a text type makes the selection window the X owner.
///   A `SelectionRequest` for TARGETS is answered at once; one for text reads the client's data from
///   a pipe on the loop and answers when it ends.
/// - **Bounds.** `maximumBytes` a transfer (and no more than one X request can carry: no INCR in
///   either direction, a larger or INCR transfer is refused), `maximumTransfers` requests or
///   receives waiting per selection (beyond, refused at once).
final class X11Selection {
    unowned let backend: X11Backend
    let kind: Seat.SelectionKind
    let atom: xcb_atom_t
    /// Where conversions for Strata are put.
    private let property: xcb_atom_t
    private var observer: SelectionObserver?
    /// Strata's selection while the selection window owns the X selection.
    private var outbound: SelectionObserver.Contents?
    private var requests: [Outgoing] = []
    /// The X owner's selection as given to Strata, and the owner.
    private var inbound: CompositorSelectionSource?
    private var owner: xcb_window_t = 0
    /// An X owner change heard while Strata had no focus, taken at the next FocusIn.
    private var ownerChangePending = false
    /// Counts owner changes: a TARGETS reply for an earlier owner is dropped.
    private var ownerGeneration = 0
    private var targetsAsked = false
    /// Receives waiting for their conversion (the first is converting), and those writing.
    private var receives: [Incoming] = []
    private var writing: [Incoming] = []
    private var converting = false

    static let maximumTransfers = 8
    var maximumBytes: Int { min(4 << 20, backend.maximumRequestBytes - 64) }

    init(backend: X11Backend, kind: Seat.SelectionKind, atom: xcb_atom_t, property: xcb_atom_t) {
        self.backend = backend
        self.kind = kind
        self.atom = atom
        self.property = property
    }

    private var atoms: X11Backend.Atoms { backend.atoms }
    private var connection: OpaquePointer { backend.connection }
    private var window: xcb_window_t { backend.selectionWindow }

    func start(seat: Seat) {
        let mask =
            XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        xcb_xfixes_select_selection_input(connection, window, atom, mask)
        observer = seat.observeSelection(kind) { [unowned self] contents in self.strataSelectionDidChange(contents) }
    }

    func stop() {
        observer?.cancel()
        observer = nil
        if let inbound, let seat = backend.seat { seat.clearCompositorSelection(inbound, kind) }
        inbound = nil
        for request in requests { request.end() }
        requests.removeAll()
        for receive in receives + writing { receive.end() }
        receives.removeAll()
        writing.removeAll()
    }

    // MARK: Text types

    /// Strata's text types, best first, and the X targets that carry them.
    static let textTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"]

    private var textTargets: [xcb_atom_t] {
        [atoms.utf8String, XCB_ATOM_STRING.rawValue, atoms.text, atoms.textPlainUTF8, atoms.textPlain]
    }

    // MARK: X → Strata

    /// XFixes: the X selection's owner changed.
    func ownerDidChange(to newOwner: xcb_window_t) {
        guard newOwner != window else { return }  // Strata's own
        owner = newOwner
        ownerGeneration &+= 1
        targetsAsked = false
        for receive in receives { receive.end() }
        receives.removeAll()
        converting = false
        if let inbound, let seat = backend.seat { seat.clearCompositorSelection(inbound, kind) }
        inbound = nil
        guard newOwner != 0 else { return }
        if backend.hasFocus { askTargets() } else { ownerChangePending = true }
    }

    /// One of Strata's windows got the X focus.
    func focusDidArrive() {
        guard ownerChangePending else { return }
        ownerChangePending = false
        if owner != 0 { askTargets() }
    }

    private func askTargets() {
        targetsAsked = true
        xcb_convert_selection(connection, window, atom, atoms.targets, property, xcb_timestamp_t(XCB_CURRENT_TIME))
        backend.flush()
    }

    /// A SelectionNotify for the selection window: a conversion ended (property 0: refused).
    func conversionDidEnd(target: xcb_atom_t, property result: xcb_atom_t) {
        if target == atoms.targets, targetsAsked {
            targetsAsked = false
            guard result != 0 else { return }
            let generation = ownerGeneration
            readProperty(words: 1024) { [weak self] type, format, bytes in
                // A reply for an owner that changed meanwhile is dropped.
                guard let self, generation == self.ownerGeneration, let bytes, type == XCB_ATOM_ATOM.rawValue,
                    format == 32
                else { return }
                let targets = bytes.withUnsafeBytes { raw in
                    (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
                }
                self.ownerHasTargets(targets)
            }
            return
        }
        guard converting, let receive = receives.first else { return }
        guard result != 0 else {
            receive.end()
            return finishReceive()
        }
        readProperty(words: maximumBytes / 4 + 1) { [weak self] type, _, bytes in
            // The owner changed meanwhile (the receive was ended and dropped).
            guard let self, self.receives.first === receive else { return }
            if let bytes, type != self.atoms.incr, bytes.count <= self.maximumBytes {
                self.writing.append(receive)
                receive.onEnd = { [weak self, unowned receive] in self?.writing.removeAll { $0 === receive } }
                receive.write(bytes)
            } else {
                receive.end()
            }
            self.finishReceive()
        }
    }

    private func ownerHasTargets(_ targets: [xcb_atom_t]) {
        let hasUTF8 = targets.contains(atoms.utf8String) || targets.contains(atoms.textPlainUTF8)
        let hasText =
            hasUTF8 || targets.contains(XCB_ATOM_STRING.rawValue) || targets.contains(atoms.text)
            || targets.contains(atoms.textPlain)
        guard hasText, let seat = backend.seat else { return }
        let types = hasUTF8 ? Self.textTypes : ["text/plain", "STRING", "TEXT"]
        let source = CompositorSelectionSource(mimeTypes: types) { [weak self] type, fd in
            self?.receive(type, fd: fd, utf8: hasUTF8)
        }
        inbound = source
        seat.setCompositorSelection(source, kind)
    }

    private func receive(_ type: String, fd: Int32, utf8: Bool) {
        guard receives.count < Self.maximumTransfers,
            let incoming = Incoming(backend: backend, fd: fd, maximumBytes: maximumBytes)
        else { return }
        incoming.target = utf8 ? atoms.utf8String : XCB_ATOM_STRING.rawValue
        receives.append(incoming)
        convertNext()
    }

    private func convertNext() {
        guard !converting, let next = receives.first else { return }
        converting = true
        xcb_convert_selection(connection, window, atom, next.target, property, xcb_timestamp_t(XCB_CURRENT_TIME))
        backend.flush()
    }

    private func finishReceive() {
        converting = false
        if !receives.isEmpty { receives.removeFirst() }
        convertNext()
    }

    /// Reads and deletes the conversion property (an asynchronous reply).
    private func readProperty(words: Int, _ done: @escaping (xcb_atom_t, UInt8, [UInt8]?) -> Void) {
        let cookie = xcb_get_property(connection, 1, window, property, XCB_ATOM_ANY.rawValue, 0, UInt32(words))
        backend.whenReplied(cookie.sequence) { reply in
            guard let reply else { return done(0, 0, nil) }
            let r = reply.assumingMemoryBound(to: xcb_get_property_reply_t.self)
            let length = Int(xcb_get_property_value_length(r))
            // More than asked for: refused (the rest stays unread).
            guard r.pointee.bytes_after == 0, let value = xcb_get_property_value(r) else {
                return done(r.pointee.type, r.pointee.format, nil)
            }
            done(r.pointee.type, r.pointee.format, Array(UnsafeRawBufferPointer(start: value, count: length)))
        }
        backend.flush()
    }

    // MARK: Strata → X

    private func strataSelectionDidChange(_ contents: SelectionObserver.Contents?) {
        if let contents, let own = contents.compositorSource, own === inbound { return }
        for request in requests { request.end() }
        requests.removeAll()
        guard let contents, contents.mimeTypes.contains(where: Self.textTypes.contains) else {
            if outbound != nil {
                outbound = nil
                xcb_set_selection_owner(connection, 0, atom, backend.latestTime)
                backend.flush()
            }
            return
        }
        outbound = contents
        xcb_set_selection_owner(connection, window, atom, backend.latestTime)
        backend.flush()
    }

    /// SelectionClear: another X client owns the selection now.
    func ownershipLost() {
        outbound = nil
        for request in requests { request.end() }
        requests.removeAll()
    }

    /// A SelectionRequest for this selection.
    func request(_ e: xcb_selection_request_event_t) {
        let property = e.property == 0 ? e.target : e.property
        guard let outbound, outbound.isCurrent else { return refuse(e) }
        if e.target == atoms.targets {
            var targets = [atoms.targets] + textTargets
            xcb_change_property(
                connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property, XCB_ATOM_ATOM.rawValue, 32,
                UInt32(targets.count), &targets)
            return notify(e, property: property)
        }
        let utf8 = [atoms.utf8String, atoms.text, atoms.textPlainUTF8].contains(e.target)
        guard utf8 || [XCB_ATOM_STRING.rawValue, atoms.textPlain].contains(e.target),
            requests.count < Self.maximumTransfers
        else {
            return refuse(e)
        }
        let order = utf8 ? Self.textTypes : ["text/plain", "STRING", "TEXT", "text/plain;charset=utf-8", "UTF8_STRING"]
        guard let type = order.first(where: outbound.mimeTypes.contains) else { return refuse(e) }
        var fds: [Int32] = [0, 0]
        guard strata_client_pipe(&fds) == 0 else { return refuse(e) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        outbound.receive(type, fd: fds[1])
        Glibc.close(fds[1])
        let replyType = e.target == atoms.text ? atoms.utf8String : e.target
        guard
            let outgoing = Outgoing(
                backend: backend, fd: fds[0], maximumBytes: maximumBytes,
                done: { [weak self] outgoing, bytes in
                    guard let self else { return }
                    self.requests.removeAll { $0 === outgoing }
                    guard var bytes else { return self.refuse(e) }
                    xcb_change_property(
                        self.connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), e.requestor, property, replyType, 8,
                        UInt32(bytes.count), &bytes)
                    self.notify(e, property: property)
                })
        else {
            Glibc.close(fds[0])
            return refuse(e)
        }
        requests.append(outgoing)
    }

    private func refuse(_ e: xcb_selection_request_event_t) { notify(e, property: 0) }

    private func notify(_ e: xcb_selection_request_event_t, property: xcb_atom_t) {
        var n = xcb_selection_notify_event_t()
        n.response_type = UInt8(XCB_SELECTION_NOTIFY)
        n.time = e.time
        n.requestor = e.requestor
        n.selection = e.selection
        n.target = e.target
        n.property = property
        withUnsafeBytes(of: n) { raw in
            var bytes = [UInt8](repeating: 0, count: 32)
            for i in 0..<min(32, raw.count) { bytes[i] = raw[i] }
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    _ = xcb_send_event(connection, 0, e.requestor, 0, $0.baseAddress)
                }
            }
        }
        backend.flush()
    }

    /// Whether Strata's selection is the X selection now (tests).
    var ownsXSelection: Bool { outbound != nil }

    // MARK: Transfers

    /// Strata's data read from a pipe on the loop, for an X requestor.
    final class Outgoing {
        private var source: EventSource?
        private var bytes: [UInt8] = []
        private let fd: Int32
        private let maximumBytes: Int
        private var done: ((Outgoing, [UInt8]?) -> Void)?

        init?(backend: X11Backend, fd: Int32, maximumBytes: Int, done: @escaping (Outgoing, [UInt8]?) -> Void) {
            guard let display = backend.display else { return nil }
            self.fd = fd
            self.maximumBytes = maximumBytes
            self.done = done
            source = EventSource(display: display, fd: fd, events: .readable) { [unowned self] _ in self.readable() }
            guard source != nil else { return nil }
        }

        private func readable() {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    bytes += chunk[0..<n]
                    if bytes.count > maximumBytes { return finish(nil) }
                } else if n == 0 {
                    return finish(bytes)
                } else if errno == EAGAIN || errno == EINTR {
                    return
                } else {
                    return finish(nil)
                }
            }
        }

        private func finish(_ result: [UInt8]?) {
            let done = self.done
            end()
            done?(self, result)
        }

        /// Stops reading (idempotent).
        func end() {
            done = nil
            guard let source else { return }
            source.remove()
            self.source = nil
            Glibc.close(fd)
        }
    }

    /// An X owner's data written into a Strata client's pipe without blocking.
    final class Incoming {
        private weak var backend: X11Backend?
        private let fd: Int32
        private let maximumBytes: Int
        var target: xcb_atom_t = 0
        /// Called once when the pipe is closed.
        var onEnd: (() -> Void)?
        private var pending: [UInt8] = []
        private var source: EventSource?
        private var ended = false

        init?(backend: X11Backend, fd: Int32, maximumBytes: Int) {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return nil }
            _ = fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) | O_NONBLOCK)
            self.backend = backend
            self.fd = copy
            self.maximumBytes = maximumBytes
        }

        /// Writes `bytes` (what is left when the pipe is full, when it drains) and then closes.
        func write(_ bytes: [UInt8]) {
            guard !ended else { return }
            pending = bytes
            flushPending()
        }

        private func flushPending() {
            while !pending.isEmpty {
                let n = pending.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    pending.removeFirst(n)
                } else if n < 0, errno == EAGAIN || errno == EINTR {
                    if source == nil, let display = backend?.display {
                        source = EventSource(display: display, fd: fd, events: .writable) { [weak self] _ in
                            self?.flushPending()
                        }
                        if source == nil { return end() }
                    }
                    return
                } else {
                    return end()
                }
            }
            end()
        }

        /// Closes the client's pipe (idempotent).
        func end() {
            guard !ended else { return }
            ended = true
            pending = []
            source?.remove()
            source = nil
            Glibc.close(fd)
            let onEnd = self.onEnd
            self.onEnd = nil
            onEnd?()
        }
    }
}
