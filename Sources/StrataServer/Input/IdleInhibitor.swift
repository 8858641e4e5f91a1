import CStrataServerGlue
import CWaylandServer

/// zwp_idle_inhibitor_v1: while its surface is visible (shown by its role: a window that is not
/// hidden and is on a screen, or a subsurface or popup of one), idle notifications made with
/// get_idle_notification do not become idle. A destroyed surface leaves it inert. Charged to its
/// client's budget (`ClientBudget.maxIdleInhibitorsPerClient`).
final class IdleInhibitor: ResourceObject {
    private weak var tracker: IdleTracker?
    private weak var surface: Surface?
    private let charge: BudgetCharge?
    /// Its place in the tracker's list.
    var index: Int?

    static func make(tracker: IdleTracker, surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32)
        throws(ProtocolError)
    {
        let charge = BudgetCharge(client: client, kind: STRATA_CHARGE_IDLE_INHIBITORS)
        if let charge, !charge.add(1, limit: ClientBudget.maxIdleInhibitorsPerClient) {
            throw .noMemory("more than \(ClientBudget.maxIdleInhibitorsPerClient) idle inhibitors", client: client)
        }
        guard
            let inhibitor = IdleInhibitor(
                tracker: tracker, surface: surface, charge: charge, client: client, version: version, id: id)
        else { return }
        tracker.add(inhibitor)
    }

    private init?(
        tracker: IdleTracker, surface: Surface, charge: BudgetCharge?, client: OpaquePointer, version: UInt32,
        id: UInt32
    ) {
        self.tracker = tracker
        self.surface = surface
        self.charge = charge
        super.init(
            client: client, interface: strata_zwp_idle_inhibitor_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        tracker?.remove(self)
        charge?.refund()
    }

    /// Whether it holds idle off now: its surface is alive and shown.
    var isEffective: Bool {
        guard let surface, !surface.isDestroyed else { return false }
        return surface.placement != nil
    }

    static let implementation = makeImplementation(zwp_idle_inhibitor_v1_interface(destroy: destroyRequest))
}
