/// Delivers the window model's notifications to observers. The only poster is the
/// `WindowManager` that owns the centre.
///
/// Delivery rules:
/// - Each observer declares its phase (`ObserverPhase`): a notification reaches the observers
///   phase by phase (scene, wire, tools, recording), and within a phase in registration order.
/// - Sequence numbers start at 1 and increase by one per notification, in delivery order.
/// - Notifications are delivered in the order posted. A notification posted while another is
///   being delivered (an observer called back into the manager) is queued and delivered after
///   the current one has reached every observer, so every observer sees the same order.
/// - An observer removed during a delivery receives nothing more, not even the rest of the
///   current notification's round. An observer added during a delivery receives the next
///   notification, not the current one.
public final class WindowNotificationCenter {
    private struct Entry {
        let token: ObserverToken
        let phase: ObserverPhase
        let block: (PostedNotification) -> Void
    }

    private var entries: [Entry] = []
    private var queue: [PostedNotification] = []
    private var isDelivering = false
    private var nextObserverNumber: UInt64 = 1
    private var nextSequence: UInt64 = 1

    init() {}

    /// The sequence number of the last notification posted, 0 before the first.
    public var lastSequence: UInt64 { nextSequence - 1 }

    /// How many observers are registered.
    public var observerCount: Int { entries.count }

    /// Registers `block` for every notification posted from now on, in `phase`: after every
    /// observer of an earlier phase and every observer of `phase` registered before it.
    @discardableResult
    public func addObserver(phase: ObserverPhase, _ block: @escaping (PostedNotification) -> Void) -> ObserverToken {
        let token = ObserverToken(number: nextObserverNumber, center: self)
        nextObserverNumber += 1
        let index = entries.firstIndex { $0.phase > phase } ?? entries.endIndex
        entries.insert(Entry(token: token, phase: phase, block: block), at: index)
        return token
    }

    /// Unregisters the observer; safe during delivery and for tokens already removed.
    public func removeObserver(_ token: ObserverToken) {
        entries.removeAll { $0.token === token }
    }

    /// Numbers `notification` and delivers it (or queues it when a delivery is under way).
    @discardableResult
    func post(_ notification: WindowServerNotification, cause: ChangeCause? = nil) -> PostedNotification {
        let posted = PostedNotification(sequence: nextSequence, notification: notification, cause: cause)
        nextSequence += 1
        queue.append(posted)
        guard !isDelivering else { return posted }
        isDelivering = true
        defer { isDelivering = false }
        var index = 0
        while index < queue.count {
            let current = queue[index]
            index += 1
            let round = entries.map(\.token)
            for token in round {
                // Look the observer up again: it may have been removed by an earlier observer.
                guard let entry = entries.first(where: { $0.token === token }) else { continue }
                entry.block(current)
            }
        }
        queue.removeAll()
        return posted
    }
}
