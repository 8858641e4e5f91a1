import CStrataServerGlue
import CWaylandServer

/// zwp_tablet_tool_v2: one tool of the seat's tablet as one client's tablet seat announced it.
/// Made by Strata (a server-side new_id); told the tool's events while the tool is over one of
/// its client's surfaces. Inert once its tool is gone.
final class TabletToolBinding: ResourceObject {
    private weak var tool: TabletTool?
    /// The zwp_tablet_v2 of the same tablet seat, which proximity_in names (none: the client
    /// destroyed it, and this tool object is told nothing).
    private(set) weak var tablet: TabletBinding?
    /// Told proximity_in for the tool's current focus (so it is told what follows, and the out).
    var isInProximity = false
    /// Holds the role of the surface this tool object last set as its cursor.
    private var cursorRole: TabletCursorRole?

    init?(tool: TabletTool, tablet: TabletBinding?, client: OpaquePointer, version: UInt32) {
        self.tool = tool
        self.tablet = tablet
        super.init(
            client: client, interface: strata_zwp_tablet_tool_v2_interface(), version: version, id: 0,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        tool?.remove(self)
        cursorRole = nil
    }

    /// Whether events may go to it (alive, and its tablet too).
    var isLive: Bool {
        guard !isDestroyed, let tablet else { return false }
        return !tablet.isDestroyed
    }

    func handleSetCursorRequest(
        serial: UInt32, surface surfaceResource: OpaquePointer?, hotspotX: Int32, hotspotY: Int32
    ) throws(ProtocolError) {
        var surface: Surface?
        if let surfaceResource {
            guard let s = ResourceObject.from(surfaceResource, as: Surface.self) else { return }
            if let existing = s.role as? TabletCursorRole {
                cursorRole = existing
            } else {
                let role = TabletCursorRole()
                guard s.setRole(role) else {
                    throw ProtocolError(
                        code: ZWP_TABLET_TOOL_V2_ERROR_ROLE.rawValue,
                        "set_cursor: wl_surface@\(wl_resource_get_id(surfaceResource)) already has the role \(s.roleName ?? "?")"
                    )
                }
                cursorRole = role
            }
            surface = s
        }
        tool?.setCursor(from: self, serial: serial, surface: surface, hotspotX: hotspotX, hotspotY: hotspotY)
    }

    static let implementation = makeImplementation(
        zwp_tablet_tool_v2_interface(
            set_cursor: { _, resource, serial, surface, x, y in
                handle(resource, as: TabletToolBinding.self) {
                    try $0.handleSetCursorRequest(serial: serial, surface: surface, hotspotX: x, hotspotY: y)
                }
            },
            destroy: destroyRequest))
}
