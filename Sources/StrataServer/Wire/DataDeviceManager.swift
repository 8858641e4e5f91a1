import CStrataServerGlue
import CWaylandServer

/// wl_data_device_manager (placeholder until the clipboard lands).
enum DataDeviceManager {
    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wl_data_device_manager_interface(), version: 3) { _, _, _ in }
    }
}
