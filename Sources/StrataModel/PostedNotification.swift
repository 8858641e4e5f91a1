/// A notification as delivered: numbered by the centre, starting at 1, strictly increasing.
public struct PostedNotification: Hashable, Sendable {
    public let sequence: UInt64
    public let notification: WindowServerNotification

    public init(sequence: UInt64, notification: WindowServerNotification) {
        self.sequence = sequence
        self.notification = notification
    }

    /// The notification's stable name, e.g. `"windowDidBecomeKey"`.
    public var name: String { notification.name }

    /// `notification.payload` plus `"sequence"`.
    public var payload: [String: String] {
        var fields = notification.payload
        fields["sequence"] = String(sequence)
        return fields
    }
}

extension PostedNotification: CustomStringConvertible {
    public var description: String { "#\(sequence) \(notification)" }
}
