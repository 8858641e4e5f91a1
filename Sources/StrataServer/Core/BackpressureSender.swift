import CStrataServerGlue
import CWaylandServer
import Glibc

/// Sends a burst to a client only while its socket has room, else later: isolation between
/// clients. libwayland 1.21 drops a client whose socket is full (its own buffer is a fixed
/// 4 KiB), so what one client makes Strata send to another (a selection offer, a text field's
/// state for the input method) must not pile up in a client that reads slowly. A burst that
/// finds no room waits; a later one replaces it (only the latest state matters), and it is sent
/// once the socket drained, looked at every `retryMilliseconds`.
final class BackpressureSender {
    /// How full (kernel bytes, SIOCOUTQ, against SO_SNDBUF) a socket may be for a burst to be
    /// sent: a quarter. A burst is at most about 16 KiB of events (a selection offer at its
    /// cap, or a text input's 4 KiB surrounding text), at most twice that in kernel accounting
    /// (libwayland flushes 4 KiB at a time, each a buffer with its overhead); with a quarter
    /// already queued, over half of the buffer (208 KiB by default) is left for the client's
    /// other events.
    static let queuedFraction: Int64 = 4
    /// How often a waiting burst looks again: soon enough for a paste or a keystroke's echo.
    static let retryMilliseconds: UInt64 = 20

    private unowned let display: Display
    private var timer: EventSource?
    private var timerFD: Int32 = -1
    /// The waiting burst: its client (nil once it no longer wants it) and the sending.
    private var target: (() -> OpaquePointer?)?
    private var body: ((OpaquePointer) -> Void)?

    /// Makes the retry timer (tests: a descriptor the loop cannot watch).
    var makeTimerFD: () -> Int32 = { strata_timerfd_create() }

    init(display: Display) { self.display = display }

    deinit { stop() }

    /// Whether `client`'s socket has room for a burst (true when the kernel does not say).
    static func hasRoom(_ client: OpaquePointer) -> Bool {
        let queued = strata_client_queued_bytes(client), size = strata_client_send_buffer_size(client)
        guard queued >= 0, size > 0 else { return true }
        return queued <= size / queuedFraction
    }

    /// Runs `body` with the client `target` names now if its socket has room, else once it has
    /// (replacing a burst already waiting). `target` is asked again before each try: nil (the
    /// client left, or no longer wants this) drops the burst.
    func send(to target: @escaping () -> OpaquePointer?, _ body: @escaping (OpaquePointer) -> Void) {
        guard let client = target() else { return cancel() }
        if Self.hasRoom(client) {
            cancel()
            body(client)
            return
        }
        self.target = target
        self.body = body
        armTimer()
    }

    /// Drops the waiting burst, and the timer with it: a waiter holds a descriptor only while a
    /// burst waits (one kept after the first wait would be one more descriptor for good per
    /// seat selection, and one the fuzzer's descriptor check would have to tell from a leak).
    func cancel() {
        guard target != nil else { return }
        stop()
    }

    var isWaiting: Bool { target != nil }

    /// Ends the timer (the owner's destroy path, or the compositor's teardown).
    func stop() {
        target = nil
        body = nil
        timer?.remove()
        timer = nil
        if timerFD >= 0 { Descriptors.close(timerFD) }
        timerFD = -1
    }

    /// Makes the timer if there is none, and arms it to look again every `retryMilliseconds`.
    private func armTimer() {
        if timer == nil {
            timerFD = makeTimerFD()
            guard timerFD >= 0 else { return }
            timer = EventSource(display: display, fd: timerFD) { [unowned self] _ in
                var expirations: UInt64 = 0
                _ = read(timerFD, &expirations, 8)
                retry()
            }
            // A timer the loop cannot watch is closed now: kept, the next burst would make
            // another over it (a descriptor leaked per burst, at the descriptor limit).
            if timer == nil {
                Descriptors.close(timerFD)
                timerFD = -1
            }
        }
        guard timerFD >= 0 else { return }
        let interval = Self.retryMilliseconds * 1_000_000
        _ = strata_timerfd_arm(timerFD, interval, interval)
    }

    private func retry() {
        guard let target, let body else { return stop() }
        guard let client = target() else { return cancel() }
        guard Self.hasRoom(client) else { return }
        cancel()
        body(client)
    }
}
