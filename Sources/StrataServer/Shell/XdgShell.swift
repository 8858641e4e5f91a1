import CStrataServerGlue
import CWaylandServer

/// xdg-shell: installs the xdg_wm_base v5 global. The interface files are `XdgWmBase`,
/// `XdgPositioner` (with the pure `XdgPositionerRules`), `XdgSurface`, `XdgToplevel` and `XdgPopup`.
enum XdgShell {
    static let version: UInt32 = 5

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_xdg_wm_base_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = XdgWmBase(compositor: compositor, client: client, version: version, id: id)
        }
    }
}
