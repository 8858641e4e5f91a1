import CStrataClientGlue
import CWaylandClient

/// A test client's ext_idle_notification_v1, recording "idled" and "resumed" in order.
public final class TestIdleNotification {
    public let notification: OpaquePointer
    public private(set) var events: [String] = []

    /// get_idle_notification (or get_input_idle_notification, `inputOnly`) on `notifier`.
    public init(notifier: OpaquePointer, seat: OpaquePointer, timeoutMilliseconds: UInt32, inputOnly: Bool = false)
        throws
    {
        let made =
            inputOnly
            ? ext_idle_notifier_v1_get_input_idle_notification(notifier, timeoutMilliseconds, seat)
            : ext_idle_notifier_v1_get_idle_notification(notifier, timeoutMilliseconds, seat)
        guard let made else { throw TestClient.Failure.connect("get_idle_notification failed") }
        notification = made
        ext_idle_notification_v1_add_listener(made, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether the last event was "idled".
    public var isIdle: Bool { events.last == "idled" }

    /// The events since the last call; clears them.
    public func takeEvents() -> [String] {
        defer { events.removeAll() }
        return events
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestIdleNotification? {
        data.map { Unmanaged<TestIdleNotification>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = ext_idle_notification_v1_listener(
        idled: { data, _ in from(data)?.events.append("idled") },
        resumed: { data, _ in from(data)?.events.append("resumed") })
}
