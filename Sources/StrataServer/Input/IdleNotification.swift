import CStrataServerGlue
import CWaylandServer

/// ext_idle_notification_v1: told `idled` when the seat was inactive for its timeout and
/// `resumed` at the next activity (`IdleTracker`). Made by get_idle_notification (inhibitors
/// hold it off) or get_input_idle_notification (only input counts). Charged to its client's
/// budget (`ClientBudget.maxIdleNotificationsPerClient`).
final class IdleNotification: ResourceObject {
    private weak var tracker: IdleTracker?
    let timeoutNanoseconds: UInt64
    let respectsInhibitors: Bool
    private let charge: BudgetCharge?
    private(set) var isIdle = false
    /// Kept by the tracker: when it was made, and its place in the tracker's list.
    var createdAt: UInt64 = 0
    var index: Int?

    /// A new notification, or a no_memory error past the client's cap.
    static func make(
        tracker: IdleTracker, timeoutMilliseconds: UInt32, respectsInhibitors: Bool,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) throws(ProtocolError) {
        let charge = BudgetCharge(client: client, kind: STRATA_CHARGE_IDLE_NOTIFICATIONS)
        if let charge, !charge.add(1, limit: ClientBudget.maxIdleNotificationsPerClient) {
            throw .noMemory(
                "more than \(ClientBudget.maxIdleNotificationsPerClient) idle notifications", client: client)
        }
        guard
            let notification = IdleNotification(
                tracker: tracker, timeoutMilliseconds: timeoutMilliseconds,
                respectsInhibitors: respectsInhibitors, charge: charge,
                client: client, version: version, id: id)
        else { return }
        tracker.add(notification)
    }

    private init?(
        tracker: IdleTracker, timeoutMilliseconds: UInt32, respectsInhibitors: Bool, charge: BudgetCharge?,
        client: OpaquePointer, version: UInt32, id: UInt32
    ) {
        self.tracker = tracker
        // A uint of milliseconds: at most about 49.7 days, 4.3e15 ns.
        timeoutNanoseconds = UInt64(timeoutMilliseconds) * 1_000_000
        self.respectsInhibitors = respectsInhibitors
        self.charge = charge
        super.init(
            client: client, interface: strata_ext_idle_notification_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        tracker?.remove(self)
        charge?.refund()
    }

    func becomeIdle() {
        guard !isIdle, !isDestroyed else { return }
        isIdle = true
        ext_idle_notification_v1_send_idled(resource)
    }

    func resume() {
        guard isIdle, !isDestroyed else { return }
        isIdle = false
        ext_idle_notification_v1_send_resumed(resource)
    }

    static let implementation = makeImplementation(ext_idle_notification_v1_interface(destroy: destroyRequest))
}
