import CXCB
import Glibc

/// The atoms the XWM uses, interned once at its start (one round trip for all).
struct XAtoms {
    static let names = coreNames + XWMDesktop.atomNames
    private static let coreNames = [
        "WL_SURFACE_ID", "WM_PROTOCOLS", "WM_DELETE_WINDOW", "WM_TAKE_FOCUS", "WM_STATE", "UTF8_STRING",
        "_NET_WM_NAME", "_NET_WM_PID", "_NET_SUPPORTING_WM_CHECK", "_NET_SUPPORTED", "_NET_ACTIVE_WINDOW",
        "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NORMAL", "_NET_WM_WINDOW_TYPE_DIALOG",
        "_NET_WM_WINDOW_TYPE_UTILITY", "_NET_WM_WINDOW_TYPE_TOOLBAR", "_NET_WM_WINDOW_TYPE_SPLASH",
        "_NET_WM_WINDOW_TYPE_DOCK", "_NET_WM_WINDOW_TYPE_DESKTOP", "_NET_WM_WINDOW_TYPE_NOTIFICATION",
        "_NET_WM_WINDOW_TYPE_MENU", "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", "_NET_WM_WINDOW_TYPE_POPUP_MENU",
        "_NET_WM_WINDOW_TYPE_TOOLTIP", "_NET_WM_STATE", "_NET_WM_STATE_ABOVE", "_NET_CLIENT_LIST", "WM_S0",
        "CLIPBOARD", "TARGETS", "TIMESTAMP", "INCR", "TEXT", "MULTIPLE", "SAVE_TARGETS", "_STRATA_CLIPBOARD",
        "ATOM_PAIR", "CLIPBOARD_MANAGER",
        "_STRATA_PRIMARY", "AT_SPI_BUS",
        "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN",
        "_NET_WM_STATE_HIDDEN", "WM_CHANGE_STATE", "WL_SURFACE_SERIAL", "_NET_WM_MOVERESIZE",
        "_NET_WM_STATE_DEMANDS_ATTENTION", "_NET_WM_STATE_MODAL",
        // Drag and drop (`XDND`).
        "XdndAware", "XdndProxy", "XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave", "XdndDrop",
        "XdndFinished", "XdndSelection", "XdndTypeList", "XdndActionCopy", "XdndActionMove", "XdndActionAsk",
        "XdndActionPrivate", "_STRATA_XDND",
    ]
    private var values: [String: xcb_atom_t] = [:]

    /// Interns every name (requests first, then the replies). Nil when the connection fails.
    init?(connection: OpaquePointer) {
        let cookies = Self.names.map { name in
            name.withCString { xcb_intern_atom(connection, 0, UInt16(name.utf8.count), $0) }
        }
        for (name, cookie) in zip(Self.names, cookies) {
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return nil }
            values[name] = reply.pointee.atom
            free(reply)
        }
    }

    /// Atoms given (tests that decode events without an X server).
    init(values: [String: xcb_atom_t]) {
        self.values = values
    }

    subscript(_ name: String) -> xcb_atom_t { values[name] ?? 0 }
}
