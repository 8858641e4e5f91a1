/// A notification as delivered: numbered by the centre, starting at 1, strictly increasing.
public struct PostedNotification: Hashable, Sendable {
    public let sequence: UInt64
    public let notification: WindowServerNotification
    /// Why the model changed (`ChangeCause`); nil when the change had no cause worth naming (a
    /// screen connected, a title changed).
    public let cause: ChangeCause?

    public init(sequence: UInt64, notification: WindowServerNotification, cause: ChangeCause? = nil) {
        self.sequence = sequence
        self.notification = notification
        self.cause = cause
    }

    /// The notification's stable name, e.g. `"windowDidBecomeKey"`.
    public var name: String { notification.name }

    /// `notification.payload` plus `"sequence"` and the cause's fields.
    public var payload: [String: String] {
        var fields = notification.payload
        if let cause { fields.merge(cause.fields) { old, _ in old } }
        fields["sequence"] = String(sequence)
        return fields
    }
}

extension PostedNotification: CustomStringConvertible {
    public var description: String { "#\(sequence) \(notification)" }
}
