import CXCB
import Glibc
import StrataModel

/// `_NET_WM_PING`: whether an X client still answers. When a window that lists `_NET_WM_PING`
/// in `WM_PROTOCOLS` is asked to close, a ping goes with the `WM_DELETE_WINDOW` (one in flight a
/// window); the client sends it back to the root. A window that has not answered within
/// `timeoutMilliseconds` is unresponsive: logged once, and the next close request kills its
/// client (`KillClient`) instead of asking it again, as a user closing a hung window twice
/// expects. An answer, even late, makes it responsive again. The deadlines are checked by one
/// timer on the loop; nothing waits.
final class XWMPing {
    private unowned let wm: XWM
    /// Deadlines of the pings in flight (monotonic milliseconds), by window: at most one a
    /// managed window.
    private var deadlines: [UInt32: UInt64] = [:]
    /// Windows whose client did not answer in time (and has not answered since).
    private(set) var unresponsive: Set<UInt32> = []
    /// How long a client has to answer.
    var timeoutMilliseconds: UInt64 = 5000
    private lazy var timer = LoopTimer(eventLoop: wm.compositor.display.eventLoop) { [unowned self] in
        checkDeadlines()
    }
    /// Pings sent so far (tests).
    private(set) var pingsSent = 0

    init(wm: XWM) {
        self.wm = wm
    }

    var pingsInFlight: Int { deadlines.count }

    private static func now() -> UInt64 { Clock.monotonicNanoseconds() / 1_000_000 }

    /// A close is written for `window` (in a turn): whether to kill its client instead of asking
    /// (it did not answer a ping); otherwise a ping goes with the request when it takes them.
    func closeWillBeSent(_ window: X11Window) -> Bool {
        if unresponsive.contains(window.id) { return true }
        guard window.supportsPing, deadlines[window.id] == nil else { return false }
        sendPing(to: window.id)
        deadlines[window.id] = Self.now() + timeoutMilliseconds
        pingsSent += 1
        timer?.schedule(milliseconds: Int32(clamping: timeoutMilliseconds))
        return false
    }

    /// The client of `window` sent the ping back (any X client could forge it: it can only make
    /// a window look responsive, and X lets any client kill any other anyway).
    func pongDidArrive(window id: UInt32) {
        deadlines[id] = nil
        if unresponsive.remove(id) != nil {
            wm.xwayland.log("strata: Xwayland: X window 0x\(String(id, radix: 16)) answers _NET_WM_PING again")
        }
    }

    func windowDidDestroy(_ id: UInt32) {
        deadlines[id] = nil
        unresponsive.remove(id)
    }

    /// Marks the windows whose ping's deadline passed; rearms the timer for the next.
    func checkDeadlines(now: UInt64 = XWMPing.now()) {
        for (id, deadline) in deadlines where deadline <= now {
            deadlines[id] = nil
            guard let window = wm.window(id), unresponsive.insert(id).inserted else { continue }
            // The client's title, one line of at most 80 characters.
            let title = String(window.title.prefix(80).map { $0.isNewline || $0 == "\u{1b}" ? " " : $0 })
            wm.xwayland.log(
                "strata: Xwayland: X window 0x\(String(id, radix: 16)) (\"\(title)\") did not answer "
                    + "_NET_WM_PING within \(timeoutMilliseconds) ms: unresponsive; the next close kills its client")
        }
        if let next = deadlines.values.min() {
            timer?.schedule(milliseconds: Int32(clamping: next > now ? next - now : 1))
        }
    }

    func shutdown() {
        deadlines.removeAll()
        unresponsive.removeAll()
        timer?.cancel()
    }

    private func sendPing(to id: UInt32) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = id
        event.type = wm.atoms["WM_PROTOCOLS"]
        event.data.data32.0 = wm.atoms["_NET_WM_PING"]
        event.data.data32.1 = UInt32(XCB_CURRENT_TIME)
        event.data.data32.2 = id
        withUnsafeBytes(of: &event) { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                xcb_send_event(wm.connection, 0, id, XCB_EVENT_MASK_NO_EVENT.rawValue, chars.baseAddress)
            }
        }
    }
}
