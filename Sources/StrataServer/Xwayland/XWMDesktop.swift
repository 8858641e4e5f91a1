import CXCB
import StrataModel

/// The EWMH desktop as X tools see it (`wmctrl -d`, `xdotool get_desktop`, `xprop -root`): one
/// desktop, numbered 0, whose work area is the main screen's usable area; every managed window on
/// it (`_NET_WM_DESKTOP` 0) and without frame (`_NET_FRAME_EXTENTS` 0); the root's
/// `_NET_CLIENT_LIST_STACKING` in the model's order. What changes often (the stacking list, the
/// work area, a window's answer to a request) is marked here and written once, at the end of the
/// XWM's turn (`writePending`), like the XWM's other coalesced writes.
final class XWMDesktop {
    /// Atoms interned with the XWM's (`XAtoms.names`).
    static let atomNames = [
        "_NET_NUMBER_OF_DESKTOPS", "_NET_CURRENT_DESKTOP", "_NET_DESKTOP_NAMES", "_NET_DESKTOP_GEOMETRY",
        "_NET_DESKTOP_VIEWPORT", "_NET_WORKAREA", "_NET_WM_DESKTOP", "_NET_CLIENT_LIST_STACKING",
        "_NET_FRAME_EXTENTS", "_NET_REQUEST_FRAME_EXTENTS", "_NET_CLOSE_WINDOW", "_NET_MOVERESIZE_WINDOW",
        "_NET_WM_PING",
    ]
    /// Listed in `_NET_SUPPORTED` with the XWM's others.
    static let supported = [
        "_NET_NUMBER_OF_DESKTOPS", "_NET_CURRENT_DESKTOP", "_NET_DESKTOP_NAMES", "_NET_DESKTOP_GEOMETRY",
        "_NET_DESKTOP_VIEWPORT", "_NET_WORKAREA", "_NET_WM_DESKTOP", "_NET_CLIENT_LIST_STACKING",
        "_NET_FRAME_EXTENTS", "_NET_REQUEST_FRAME_EXTENTS", "_NET_CLOSE_WINDOW", "_NET_MOVERESIZE_WINDOW",
        "_NET_WM_PING",
    ]
    /// The one desktop's name (`_NET_DESKTOP_NAMES`).
    static let desktopName = "Desktop"
    /// `_NET_WM_DESKTOP`'s "all desktops".
    static let allDesktops: UInt32 = 0xFFFF_FFFF

    private unowned let wm: XWM
    private var connection: OpaquePointer { wm.connection }
    private var atoms: XAtoms { wm.atoms }

    /// The stacking list is to be written at the end of the turn.
    private var stackingIsStale = false
    /// The work area (and the desktop's geometry) is to be written at the end of the turn.
    private var workAreaIsStale = false
    /// Windows whose `_NET_WM_DESKTOP` and `_NET_FRAME_EXTENTS` are to be written (at most one
    /// entry a managed window, however many requests came).
    private var pendingWindows: Set<UInt32> = []
    /// Writes so far (tests: a flood is coalesced).
    private(set) var stackingWrites = 0
    private(set) var windowWrites = 0
    /// What the last stacking write listed (tests, and nothing written when unchanged).
    private(set) var lastStacking: [UInt32]?
    private var lastWorkArea: [UInt32]?

    init(wm: XWM) {
        self.wm = wm
    }

    /// The root's desktop properties, at the XWM's start.
    func advertise() {
        setRoot("_NET_NUMBER_OF_DESKTOPS", XCB_ATOM_CARDINAL.rawValue, [1])
        setRoot("_NET_CURRENT_DESKTOP", XCB_ATOM_CARDINAL.rawValue, [0])
        setRoot("_NET_DESKTOP_VIEWPORT", XCB_ATOM_CARDINAL.rawValue, [0, 0])
        let name = Array((Self.desktopName + "\0").utf8)
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), wm.root, atoms["_NET_DESKTOP_NAMES"],
            atoms["UTF8_STRING"], 8, UInt32(name.count), name)
        writeWorkArea()
        writeStacking()
    }

    // MARK: Marks (any number a turn is one write)

    func stackingDidChange() {
        guard !stackingIsStale else { return }
        stackingIsStale = true
        wm.scheduleRead()
    }

    func screensDidChange() {
        guard !workAreaIsStale else { return }
        workAreaIsStale = true
        wm.scheduleRead()
    }

    /// A window is mapped, asks for its frame extents, or asks to change desktop: its
    /// `_NET_WM_DESKTOP` (0) and `_NET_FRAME_EXTENTS` (zeros) are written at the end of the turn.
    func windowNeedsProperties(_ id: UInt32) {
        guard pendingWindows.insert(id).inserted else { return }
        wm.scheduleRead()
    }

    func windowDidDestroy(_ id: UInt32) {
        pendingWindows.remove(id)
        stackingDidChange()
    }

    /// The marked writes (in a turn, the socket found writable).
    func writePending() {
        let windows = pendingWindows
        pendingWindows.removeAll()
        for id in windows where wm.window(id) != nil {
            windowWrites += 1
            set(id, "_NET_WM_DESKTOP", XCB_ATOM_CARDINAL.rawValue, [0])
            set(id, "_NET_FRAME_EXTENTS", XCB_ATOM_CARDINAL.rawValue, [0, 0, 0, 0])
        }
        if workAreaIsStale {
            workAreaIsStale = false
            writeWorkArea()
        }
        if stackingIsStale {
            stackingIsStale = false
            writeStacking()
        }
    }

    func shutdown() {
        pendingWindows.removeAll()
        stackingIsStale = false
        workAreaIsStale = false
    }

    // MARK: Values

    /// The managed toplevels X lists (`_NET_CLIENT_LIST`'s: mapped or iconic), bottom to top in the model's order
    /// (levels first, then the order inside a level); one without a model window yet at the
    /// bottom.
    var stacking: [UInt32] {
        let listed = wm.managedWindows.filter { ($0.isMapped || $0.isIconic) && !$0.isOverrideRedirect }
        var position: [ObjectIdentifier: Int] = [:]
        for (index, model) in wm.compositor.windows.windows.enumerated() { position[ObjectIdentifier(model)] = index }
        func place(_ window: X11Window) -> Int { window.window.flatMap { position[ObjectIdentifier($0)] } ?? -1 }
        return listed.sorted { (place($0), $0.id) < (place($1), $1.id) }.map(\.id)
    }

    /// The main screen's usable area (x, y, width, height; X has the main screen's coordinates),
    /// and the desktop's size (the main screen's).
    var workArea: (area: [UInt32], size: [UInt32]) {
        guard let screen = wm.compositor.windows.mainScreen else { return ([0, 0, 1, 1], [1, 1]) }
        let area = screen.usableArea
        func card(_ value: Int) -> UInt32 { UInt32(clamping: max(0, value)) }
        return (
            [card(area.x), card(area.y), card(area.width), card(area.height)],
            [card(screen.bounds.width), card(screen.bounds.height)]
        )
    }

    private func writeWorkArea() {
        let (area, size) = workArea
        guard area + size != lastWorkArea else { return }
        lastWorkArea = area + size
        setRoot("_NET_WORKAREA", XCB_ATOM_CARDINAL.rawValue, area)
        setRoot("_NET_DESKTOP_GEOMETRY", XCB_ATOM_CARDINAL.rawValue, size)
    }

    private func writeStacking() {
        let list = stacking
        guard list != lastStacking else { return }
        lastStacking = list
        stackingWrites += 1
        setRoot("_NET_CLIENT_LIST_STACKING", XCB_ATOM_WINDOW.rawValue, list)
    }

    private func setRoot(_ property: String, _ type: xcb_atom_t, _ values: [UInt32]) {
        set(wm.root, property, type, values)
    }

    private func set(_ window: xcb_window_t, _ property: String, _ type: xcb_atom_t, _ values: [UInt32]) {
        var values = values
        xcb_change_property(
            connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, atoms[property], type, 32,
            UInt32(values.count), &values)
    }
}
