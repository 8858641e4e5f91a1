/// A window (UIKit's `UIWindow`): a rectangle on one screen, at a level, possibly key.
///
/// Windows are created by `WindowManager.createWindow(…)` and start hidden. State that observers
/// care about (`isHidden`, `level`, `screen`, `frame`, key status) is read-only here; change it
/// through the manager, or through the forwarding methods below, so notifications are posted.
/// A closed window is inert: its forwarding methods do nothing.
public final class Window {
    public let id: WindowID
    public internal(set) var level: WindowLevel
    /// Starts true; `show` clears it, `hide` sets it.
    public internal(set) var isHidden: Bool = true
    /// Whether the window was ever shown: from then on its title, app id and pid changes are
    /// posted even while it is hidden (a taskbar still lists a minimized or hidden window).
    public internal(set) var wasEverShown = false
    /// Whether the window may ever become key. A window with `canBecomeKey == false` (a panel,
    /// a wallpaper) is never key under any policy.
    public internal(set) var canBecomeKey: Bool
    /// The screen the window is on; nil only while no screen is connected, or once closed.
    public internal(set) var screen: Screen?
    /// The window's rectangle in the coordinates of its screen (relative to the screen's origin).
    public internal(set) var frame: Rect = .zero
    /// Whether the window holds key status exclusively while it is key (a lock screen, a layer
    /// surface with exclusive keyboard interactivity): no show, click, pointer or explicit
    /// `makeKey` of another window takes key from it (`WindowManager.setHoldsKey`).
    public internal(set) var holdsKey: Bool = false
    /// True once `WindowManager.close(_:)` removed the window.
    public internal(set) var isClosed: Bool = false
    /// The window this one belongs to, as a dialog belongs to its document window
    /// (xdg_toplevel.set_parent, xdg-foreign's set_parent_of; `WindowManager.setParent`). Nil
    /// for none, and once the parent has closed. Never a cycle.
    public var parent: Window? {
        guard let storedParent, !storedParent.isClosed else { return nil }
        return storedParent
    }
    weak var storedParent: Window?
    /// How many open windows have this one as `storedParent`: a window without children moves
    /// alone in the stack, without a look at the others (`WindowFamily`).
    var childCount = 0
    /// Whether the window is modal for its parent (xdg_dialog_v1.set_modal,
    /// strata_window_v1.set_modal; `WindowManager.setModal`): while it may be key, its parent
    /// (and every ancestor it blocks through modal parents) does not become key; requests to make
    /// the parent key go to it. A modal window without a parent blocks nothing.
    public internal(set) var isModal: Bool = false
    /// This window's modal children (`isModal` and `parent === self`), by identity: what
    /// `WindowManager.modalBlocker(of:)` looks through, without a walk over every window.
    var modalChildren: [ObjectIdentifier: WeakWindow] = [:]
    /// The window's place in the stacking order inside its level: higher is in front (set when
    /// it is created, ordered front or back, or changes level). Picks the frontmost of several
    /// modal children without looking for them in `WindowManager.windows`.
    var stackingStamp: Int64 = 0

    /// Whether the window is maximized (`WindowManager.setMaximized`); a fullscreen window may be
    /// maximized too, and is maximized again when it leaves fullscreen.
    public internal(set) var isMaximized: Bool = false
    /// Whether the window is fullscreen (`WindowManager.setFullscreen`).
    public internal(set) var isFullscreen: Bool = false
    /// Where the window sits: fullscreen over maximized over normal (`WindowState`).
    public var state: WindowState { isFullscreen ? .fullscreen : isMaximized ? .maximized : .normal }
    /// The frame the window had when it left the normal state, where it goes back when it is
    /// restored (`WindowManager.frame(for:in:size:)`); nil while it has none to go back to.
    /// Kept after the state returns to normal until the shell has placed the restored frame
    /// (`WindowManager.forgetRestoreFrame`): a client draws the restored size after it is asked.
    public internal(set) var restoreFrame: Rect?
    /// Whether the user or the client minimized the window (`WindowManager.minimize`): it is
    /// hidden, and the next `show` brings it back in the state it had.
    public internal(set) var isMinimized: Bool = false

    /// The client's application id (`xdg_toplevel.set_app_id`; `WindowManager.setAppID`).
    public internal(set) var appID: String
    /// The window's title (`xdg_toplevel.set_title`; `WindowManager.setTitle`).
    public internal(set) var title: String
    /// The owning client's process id; 0 when unknown (`WindowManager.setPID`). Key passing
    /// prefers the same client.
    public internal(set) var pid: Int32
    /// What the layer above hangs on this window (the object that shows it: an xdg_toplevel, a
    /// wl_shell_surface…), held weakly. Typed by the model's `WindowContentHandle`, which the
    /// server refines: the compositor calls the content's hooks without casting it.
    public weak var content: (any WindowContentHandle)?

    weak var manager: WindowManager?

    init(
        id: WindowID, appID: String, title: String, pid: Int32, level: WindowLevel,
        canBecomeKey: Bool, screen: Screen?, manager: WindowManager
    ) {
        self.id = id
        self.appID = appID
        self.title = title
        self.pid = pid
        self.level = level
        self.canBecomeKey = canBecomeKey
        self.screen = screen
        self.manager = manager
    }

    /// Whether this is the key window: the one that receives keyboard and other non-pointer events.
    public var isKeyWindow: Bool {
        guard let manager else { return false }
        return manager.keyWindow === self
    }

    /// Whether the window is shown (the negation of `isHidden`, for readability).
    public var isVisible: Bool { !isHidden }

    // MARK: Forwarding to the manager

    /// Shows the window, orders it front of its level and makes it key (if it can become key).
    public func makeKeyAndVisible() {
        manager?.show(self, makeKey: true)
    }

    /// Makes the window key without changing its visibility or order; false if it cannot be key.
    @discardableResult
    public func makeKey() -> Bool {
        manager?.makeKey(self) ?? false
    }

    /// Gives up key status if this window has it; no other window becomes key.
    public func resignKey() {
        guard let manager, manager.keyWindow === self else { return }
        manager.resignKey()
    }

    /// Moves the window in front of the other windows of its level.
    public func orderFront() {
        manager?.orderFront(self)
    }

    /// Moves the window behind the other windows of its level.
    public func orderBack() {
        manager?.orderBack(self)
    }

    // MARK: Coordinate conversion

    /// This window's origin in the global layout (its screen's origin plus its frame's origin).
    var globalOrigin: (x: Double, y: Double) {
        let screenOrigin = screen?.origin ?? .zero
        return (screenOrigin.x + Double(frame.x), screenOrigin.y + Double(frame.y))
    }

    /// Converts `p` from this window's coordinates to `other`'s; nil means the screen coordinates
    /// of this window's screen. Windows on different screens convert through global coordinates.
    public func convert(_ p: Point, to other: Window?) -> Point {
        guard let other else {
            return Point(x: p.x + Double(frame.x), y: p.y + Double(frame.y))
        }
        let mine = globalOrigin
        let theirs = other.globalOrigin
        return Point(x: p.x + mine.x - theirs.x, y: p.y + mine.y - theirs.y)
    }

    /// Converts `p` from `other`'s coordinates to this window's; nil means the screen coordinates
    /// of this window's screen.
    public func convert(_ p: Point, from other: Window?) -> Point {
        guard let other else {
            return Point(x: p.x - Double(frame.x), y: p.y - Double(frame.y))
        }
        return other.convert(p, to: self)
    }

    /// Converts `r` from this window's coordinates to `other`'s (nil: this window's screen).
    public func convert(_ r: Rect, to other: Window?) -> Rect {
        var result = r
        result.origin = convert(r.origin, to: other)
        return result
    }

    /// Converts `r` from `other`'s coordinates to this window's (nil: this window's screen).
    public func convert(_ r: Rect, from other: Window?) -> Rect {
        var result = r
        result.origin = convert(r.origin, from: other)
        return result
    }
}

extension Window: CustomStringConvertible {
    public var description: String {
        var parts = ["\(id)", "level \(level.name)", isHidden ? "hidden" : "visible"]
        if isKeyWindow { parts.append("key") }
        if state != .normal { parts.append(state.rawValue) }
        if isMinimized { parts.append("minimized") }
        if isModal { parts.append("modal") }
        if let parent { parts.append("child of \(parent.id)") }
        if !appID.isEmpty { parts.append("app \(appID)") }
        if let screen { parts.append("on \(screen.id)") }
        return "Window(" + parts.joined(separator: ", ") + ")"
    }
}
