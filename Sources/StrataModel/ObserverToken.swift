/// What `WindowNotificationCenter.addObserver(phase:_:)` returns: the observer's handle. Pass it to
/// `removeObserver(_:)` or call `remove()`; removing twice is harmless.
public final class ObserverToken: Hashable {
    let number: UInt64
    weak var center: WindowNotificationCenter?

    init(number: UInt64, center: WindowNotificationCenter) {
        self.number = number
        self.center = center
    }

    /// Stops delivery to this observer, even in the middle of a delivery.
    public func remove() {
        center?.removeObserver(self)
    }

    public static func == (lhs: ObserverToken, rhs: ObserverToken) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
