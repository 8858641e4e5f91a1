import CStrataServerGlue
import CWaylandServer

/// One client's zwp_tablet_seat_v2: told tablet_added and tool_added for the seat's tablet and
/// each of its tools (the objects it makes live on when it is destroyed; no more are added).
final class TabletSeatBinding: ResourceObject {
    private weak var tablets: Tablets?
    /// Its place in the tracker's list of its client's tablet seats (O(1) removal).
    var slot = -1
    /// The zwp_tablet_v2 made for the seat's tablet (tools' proximity_in names it).
    private(set) weak var tablet: TabletBinding?

    init?(tablets: Tablets, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.tablets = tablets
        super.init(
            client: client, interface: strata_zwp_tablet_seat_v2_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        tablets?.remove(self)
    }

    /// tablet_added, then the tablet's name, id and done (a virtual tablet has no path).
    func announceTablet(name: String, vendor: UInt32, product: UInt32) {
        guard !isDestroyed, tablet == nil, let made = TabletBinding(client: client, version: version) else { return }
        tablet = made
        zwp_tablet_seat_v2_send_tablet_added(resource, made.resource)
        zwp_tablet_v2_send_name(made.resource, name)
        zwp_tablet_v2_send_id(made.resource, vendor, product)
        zwp_tablet_v2_send_done(made.resource)
    }

    /// tool_added, then the tool's type, hardware serial, capabilities and done.
    func announceTool(_ tool: TabletTool) {
        guard !isDestroyed, let made = TabletToolBinding(tool: tool, tablet: tablet, client: client, version: version)
        else { return }
        zwp_tablet_seat_v2_send_tool_added(resource, made.resource)
        let d = tool.description
        zwp_tablet_tool_v2_send_type(made.resource, d.type.rawValue)
        zwp_tablet_tool_v2_send_hardware_serial(
            made.resource, UInt32(truncatingIfNeeded: d.serial >> 32), UInt32(truncatingIfNeeded: d.serial))
        for capability in d.capabilities { zwp_tablet_tool_v2_send_capability(made.resource, capability.rawValue) }
        zwp_tablet_tool_v2_send_done(made.resource)
        tool.add(made)
    }

    static let implementation = makeImplementation(zwp_tablet_seat_v2_interface(destroy: destroyRequest))
}
