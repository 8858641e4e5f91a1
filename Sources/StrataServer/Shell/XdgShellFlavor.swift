import CStrataServerGlue
import CWaylandServer

/// Which xdg-shell an object speaks: the stable `xdg_wm_base` family or the older
/// `zxdg_shell_v6` family (older GTK 3 and Qt 5). One set of classes (`XdgWmBase`,
/// `XdgPositioner`, `XdgSurface`, `XdgToplevel`, `XdgPopup`) implements both; the flavor picks
/// the interface a resource is made with, its event senders, and the few rules that differ.
///
/// - **Requests.** Each v6 interface has the stable interface's requests in the same order with
///   the same arguments, minus later additions at the end (`reposition`, `set_reactive`,
///   `set_parent_size`, `set_parent_configure`), so a v6 resource is served by the stable
///   request table: libwayland dispatches by opcode into the table and unmarshals by the
///   resource's own interface (`XdgShellV6Tests.v6RequestsAreAPrefixOfTheStableRequests`
///   checks the layouts against the generated interfaces).
/// - **Events** go through the v6 senders; what v6 lacks (`wm_capabilities`,
///   `configure_bounds`, `repositioned`) is never sent on a v6 resource.
/// - **Errors.** The enums both have share their values (xdg_wm_base and zxdg_shell_v6: role 0 …
///   invalid_positioner 5; xdg_surface and zxdg_surface_v6: not_constructed 1,
///   already_constructed 2, unconfigured_buffer 3; the positioner's invalid_input 0; the popup's
///   invalid_grab 0). A violation only stable names (invalid_serial, a bad window geometry size,
///   defunct_role_object, the xdg_toplevel errors) is raised on the zxdg_shell_v6 as
///   `invalid_surface_state` (weston does the same for a wrong serial).
/// - **Positioner.** v6 anchors and gravities are bit masks (top 1, bottom 2, left 4, right 8);
///   `edgeValue(_:)` turns them into the stable enum values `XdgPositionerRules` works with. A v6
///   anchor rectangle must be at least 1×1.
enum XdgShellFlavor {
    case stable
    case v6

    var wmBaseInterface: UnsafePointer<wl_interface> {
        self == .stable ? strata_xdg_wm_base_interface() : strata_zxdg_shell_v6_interface()
    }
    var positionerInterface: UnsafePointer<wl_interface> {
        self == .stable ? strata_xdg_positioner_interface() : strata_zxdg_positioner_v6_interface()
    }
    var surfaceInterface: UnsafePointer<wl_interface> {
        self == .stable ? strata_xdg_surface_interface() : strata_zxdg_surface_v6_interface()
    }
    var toplevelInterface: UnsafePointer<wl_interface> {
        self == .stable ? strata_xdg_toplevel_interface() : strata_zxdg_toplevel_v6_interface()
    }
    var popupInterface: UnsafePointer<wl_interface> {
        self == .stable ? strata_xdg_popup_interface() : strata_zxdg_popup_v6_interface()
    }

    /// The role name an xdg_surface gives its wl_surface (a surface never changes shells).
    var surfaceRoleName: String { self == .stable ? "xdg_surface" : "zxdg_surface_v6" }

    /// An anchor or gravity argument as the stable enum value (none 0, top 1, bottom 2, left 3,
    /// right 4, top_left 5, bottom_left 6, top_right 7, bottom_right 8); nil when it is invalid
    /// (stable: out of range; v6: parallel edges or unknown bits).
    func edgeValue(_ argument: UInt32) -> UInt32? {
        switch self {
        case .stable:
            return argument <= 8 ? argument : nil
        case .v6:
            switch argument {
            case 0: return 0
            case 1: return 1
            case 2: return 2
            case 4: return 3
            case 8: return 4
            case 1 | 4: return 5
            case 2 | 4: return 6
            case 1 | 8: return 7
            case 2 | 8: return 8
            default: return nil
            }
        }
    }
}
