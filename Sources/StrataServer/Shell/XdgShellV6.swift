import CStrataServerGlue
import CWaylandServer

/// zxdg_shell_v6 (xdg-shell-unstable-v6): installs the global. Its objects are the stable
/// xdg-shell's classes made with `flavor: .v6` (`XdgShellFlavor` says what differs).
enum XdgShellV6 {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_zxdg_shell_v6_interface(), version: version) {
            [unowned compositor] client, version, id in
            _ = XdgWmBase(compositor: compositor, flavor: .v6, client: client, version: version, id: id)
        }
    }
}
