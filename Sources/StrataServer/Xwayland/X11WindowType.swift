import StrataModel

/// What `_NET_WM_WINDOW_TYPE` (and override-redirect) make of an X window: its level, and whether
/// it may become key. The table is in `docs/xwayland.md`.
enum X11WindowType: String {
    case normal, dialog, utility, toolbar, splash, dock, desktop, notification, menu, tooltip, overrideRedirect

    /// Above every normal and alert window: menus, tooltips and other override-redirect windows.
    static let popupLevel = WindowLevel(rawValue: 3000)
    /// A normal window with `_NET_WM_STATE_ABOVE`: above normal windows, below alerts.
    static let aboveLevel = WindowLevel(rawValue: 500)

    var level: WindowLevel {
        switch self {
        case .normal, .dialog, .utility, .toolbar, .splash: return .normal
        case .dock: return .statusBar
        case .desktop: return .background
        case .notification: return .alert
        case .menu, .tooltip, .overrideRedirect: return Self.popupLevel
        }
    }

    var canBecomeKey: Bool {
        switch self {
        case .dock, .desktop, .notification, .menu, .tooltip, .overrideRedirect: return false
        default: return true
        }
    }

    /// The first type of the property's list that is known (the EWMH order of preference).
    static func from(atoms: [UInt32], _ atom: (String) -> UInt32) -> X11WindowType {
        let table: [(String, X11WindowType)] = [
            ("_NET_WM_WINDOW_TYPE_NORMAL", .normal), ("_NET_WM_WINDOW_TYPE_DIALOG", .dialog),
            ("_NET_WM_WINDOW_TYPE_UTILITY", .utility), ("_NET_WM_WINDOW_TYPE_TOOLBAR", .toolbar),
            ("_NET_WM_WINDOW_TYPE_SPLASH", .splash), ("_NET_WM_WINDOW_TYPE_DOCK", .dock),
            ("_NET_WM_WINDOW_TYPE_DESKTOP", .desktop), ("_NET_WM_WINDOW_TYPE_NOTIFICATION", .notification),
            ("_NET_WM_WINDOW_TYPE_MENU", .menu), ("_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", .menu),
            ("_NET_WM_WINDOW_TYPE_POPUP_MENU", .menu), ("_NET_WM_WINDOW_TYPE_TOOLTIP", .tooltip),
        ]
        for value in atoms {
            if let match = table.first(where: { atom($0.0) == value }) { return match.1 }
        }
        return .normal
    }
}
