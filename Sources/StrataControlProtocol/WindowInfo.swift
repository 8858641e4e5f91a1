import StrataModel

/// One window as `windows` reports it. The list is front to back; `order` is the window's index
/// in that list (0 = frontmost of all screens, hidden windows keep their place).
public struct WindowInfo: Codable, Sendable, Equatable {
    public var id: UInt64
    public var appID: String
    public var title: String
    public var pid: Int32
    /// The level's name (`normal`, `alert`, …) or its number.
    public var level: String
    public var order: Int
    public var key: Bool
    public var hidden: Bool
    /// The screen's id, nil while no screen is connected.
    public var screen: UInt64?
    public var frame: Rect
    /// `wayland`, or `x11` for an X window through Xwayland (nil from an older Strata).
    public var kind: String?
    /// Whether the window is modal for its parent (nil from an older Strata).
    public var modal: Bool?
    /// The id of the window's parent (`Window.parent`), nil for none.
    public var parent: UInt64?
    /// Whether the window is maximized / fullscreen: the state its client was last asked for
    /// (nil from an older Strata).
    public var maximized: Bool?
    public var fullscreen: Bool?

    enum CodingKeys: String, CodingKey {
        case id, appID = "app_id", title, pid, level, order, key, hidden, screen, frame, kind, modal, parent, maximized,
            fullscreen
    }

    public init(
        id: UInt64, appID: String, title: String, pid: Int32, level: String, order: Int, key: Bool,
        hidden: Bool, screen: UInt64?, frame: Rect, kind: String? = nil, modal: Bool? = nil, parent: UInt64? = nil,
        maximized: Bool? = nil, fullscreen: Bool? = nil
    ) {
        self.id = id
        self.appID = appID
        self.title = title
        self.pid = pid
        self.level = level
        self.order = order
        self.key = key
        self.hidden = hidden
        self.screen = screen
        self.frame = frame
        self.kind = kind
        self.modal = modal
        self.parent = parent
        self.maximized = maximized
        self.fullscreen = fullscreen
    }

    /// The model's windows, front to back.
    public static func list(_ manager: WindowManager) -> [WindowInfo] {
        manager.windows.reversed().enumerated().map { index, window in
            WindowInfo(
                id: window.id.rawValue, appID: window.appID, title: window.title, pid: window.pid,
                level: window.level.name, order: index, key: window.isKeyWindow, hidden: window.isHidden,
                screen: window.screen?.id.rawValue, frame: window.frame,
                kind: window.content?.kind ?? "wayland", modal: window.isModal, parent: window.parent?.id.rawValue,
                maximized: window.isMaximized, fullscreen: window.isFullscreen)
        }
    }
}
