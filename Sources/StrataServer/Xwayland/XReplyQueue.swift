import CXCB
import Glibc

/// Replies the XWM asked for and has not waited for: each request's sequence number and what to
/// do with its reply, in request order, whoever asked (the window properties, pids, the
/// selections). `collect` hands over the replies that have arrived (X answers in order, so it
/// stops at the first one still missing); nothing ever waits.
final class XReplyQueue {
    private struct Pending {
        let sequence: UInt32
        /// The reply (nil: the request failed with an X error); freed after the call.
        let handler: (UnsafeMutableRawPointer?) -> Void
    }
    private var pending: [Pending] = []
    private var head = 0

    var isEmpty: Bool { head == pending.count }

    func expect(_ sequence: UInt32, _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) {
        pending.append(Pending(sequence: sequence, handler: handler))
    }

    /// Whether request sequence `a` was sent before `b` (32-bit sequences wrap).
    static func precedes(_ a: UInt32, _ b: UInt32) -> Bool {
        Int32(bitPattern: a &- b) < 0
    }

    /// Runs the handlers of the replies that arrived, oldest first; how many ran. With `before`
    /// (an event's sequence), only those of the requests sent before it: X answered them before
    /// it sent the event, so handling them first keeps X's order.
    @discardableResult
    func collect(_ connection: OpaquePointer, before limit: UInt32? = nil) -> Int {
        var done = 0
        while head < pending.count {
            if let limit, !Self.precedes(pending[head].sequence, limit) { break }
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(connection, pending[head].sequence, &reply, &error) != 0 else { break }
            if let error { free(error) }
            let handler = pending[head].handler
            head += 1
            done += 1
            handler(reply)
            free(reply)
        }
        if head >= pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return done
    }

    /// Forgets every pending reply (the connection is going).
    func removeAll() {
        pending.removeAll()
        head = 0
    }
}
