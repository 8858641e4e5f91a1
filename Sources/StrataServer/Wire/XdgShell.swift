import CStrataServerGlue
import CWaylandServer

/// xdg_wm_base (placeholder until xdg-shell lands).
enum XdgShell {
    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_xdg_wm_base_interface(), version: 5) { _, _, _ in }
    }
}
