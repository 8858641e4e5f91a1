import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataModel

/// The window model's notifications as the control socket sends them: each encoded once as a
/// JSON line (`{"name":"windowDidBecomeKey","sequence":7,"window":3}`), the last
/// `capacity` kept in a ring for `events --since`, every new one handed to `deliver`.
final class EventLog {
    struct Entry {
        let sequence: UInt64
        let notification: PostedNotification
        let line: Data
    }

    let capacity: Int
    private var ring: [Entry] = []
    private var start = 0
    /// The last sequence number posted before the log started listening: older events are not
    /// available, whatever the ring's size.
    let floor: UInt64
    private(set) var lastSequence: UInt64
    private var token: ObserverToken?
    private unowned let manager: WindowManager
    /// Called with every new entry after it is stored.
    var deliver: ((Entry) -> Void)?

    init(manager: WindowManager, capacity: Int = ControlProtocol.eventHistory) {
        self.manager = manager
        self.capacity = max(1, capacity)
        floor = manager.notifications.lastSequence
        lastSequence = floor
        token = manager.notifications.addObserver(phase: .recording) { [unowned self] posted in self.record(posted) }
    }

    func stop() {
        if let token { manager.notifications.removeObserver(token) }
        token = nil
    }

    private func record(_ posted: PostedNotification) {
        let line = (try? JSONValue(encoding: posted))?.encodedLine() ?? Data()
        let entry = Entry(sequence: posted.sequence, notification: posted, line: line)
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[start] = entry
            start = (start + 1) % capacity
        }
        lastSequence = posted.sequence
        deliver?(entry)
    }

    /// The kept entries after `sequence`, oldest first, and whether some events after
    /// `sequence` were dropped from the full ring. Events from before the log started (the
    /// screens the backend connected at start-up) were never kept and do not count as dropped.
    func entries(after sequence: UInt64) -> (entries: [Entry], truncated: Bool) {
        let ordered = Array(ring[start...] + ring[..<start])
        let oldestAvailable = ordered.first?.sequence ?? (lastSequence + 1)
        let since = max(sequence, floor)
        let truncated = since + 1 < oldestAvailable && since < lastSequence
        return (ordered.filter { $0.sequence > sequence }, truncated)
    }
}
