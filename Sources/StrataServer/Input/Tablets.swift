import CStrataServerGlue
import CWaylandServer

/// The seat's graphics tablet and its tools (zwp_tablet_manager_v2). Strata's tablet is a
/// virtual one: it appears at the seat's first tablet input (`Seat.tabletTool`), announced to
/// every client's tablet seat, and each tool appears at its first use (known by type and hardware
/// serial, at most `maximumTools`). Nothing is ever removed. A tablet pad is not offered.
///
/// Tablet seats are kept per client, each knowing its place in its client's list (O(1) to make
/// and destroy, at most `ClientBudget.maxTabletSeatsPerClient` per client).
public final class Tablets {
    unowned let seat: Seat
    private var seatsByClient: [OpaquePointer: [TabletSeatBinding]] = [:]
    /// Whether the virtual tablet exists (after the first tablet input).
    private(set) var hasTablet = false
    private(set) var tools: [TabletTool] = []

    /// Most tools the tablet holds (a graphics tablet user has a pen, an eraser, maybe an
    /// airbrush and a puck: a handful). Input for a tool beyond them is dropped.
    public static let maximumTools = 16
    public static let tabletName = "Strata virtual tablet"

    init(seat: Seat) {
        self.seat = seat
    }

    // MARK: Tablet seats

    func hasRoom(for client: OpaquePointer) -> Bool {
        (seatsByClient[client]?.count ?? 0) < ClientBudget.maxTabletSeatsPerClient
    }

    func add(_ tabletSeat: TabletSeatBinding) {
        tabletSeat.slot = seatsByClient[tabletSeat.client]?.count ?? 0
        seatsByClient[tabletSeat.client, default: []].append(tabletSeat)
        guard hasTablet else { return }
        tabletSeat.announceTablet(name: Self.tabletName, vendor: 0, product: 0)
        for tool in tools { tabletSeat.announceTool(tool) }
    }

    func remove(_ tabletSeat: TabletSeatBinding) {
        guard var list = seatsByClient[tabletSeat.client], tabletSeat.slot >= 0, tabletSeat.slot < list.count,
            list[tabletSeat.slot] === tabletSeat
        else { return }
        let last = list.removeLast()
        if last !== tabletSeat {
            list[tabletSeat.slot] = last
            last.slot = tabletSeat.slot
        }
        tabletSeat.slot = -1
        seatsByClient[tabletSeat.client] = list.isEmpty ? nil : list
    }

    // MARK: Input

    /// The tool of that type and serial, made (and announced) at its first use; nil when the
    /// tablet already has `maximumTools`.
    func tool(for description: TabletToolDescription) -> TabletTool? {
        if let found = tools.first(where: {
            $0.description.type == description.type && $0.description.serial == description.serial
        }) {
            return found
        }
        guard tools.count < Self.maximumTools else { return nil }
        if !hasTablet {
            hasTablet = true
            for list in seatsByClient.values {
                for tabletSeat in list { tabletSeat.announceTablet(name: Self.tabletName, vendor: 0, product: 0) }
            }
        }
        var capabilities: [TabletToolCapability] = []
        for capability in description.capabilities where !capabilities.contains(capability) {
            capabilities.append(capability)
        }
        let tool = TabletTool(
            tablets: self,
            description: TabletToolDescription(
                type: description.type, serial: description.serial,
                capabilities: capabilities))
        tools.append(tool)
        for list in seatsByClient.values {
            for tabletSeat in list { tabletSeat.announceTool(tool) }
        }
        return tool
    }

    /// Whether a tool of that type and serial could take input (it exists, or there is room).
    func accepts(_ description: TabletToolDescription) -> Bool {
        tools.count < Self.maximumTools
            || tools.contains { $0.description.type == description.type && $0.description.serial == description.serial }
    }

    func surfaceWillDestroy(_ surface: Surface) {
        for tool in tools { tool.surfaceWillDestroy(surface) }
    }

    func sessionLockDidChange() {
        for tool in tools { tool.sessionLockDidChange() }
    }
}
