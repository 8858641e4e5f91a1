/// Decides which window becomes key when something happens. The `WindowManager` asks; the
/// policy answers; the manager then enforces the hard rules no policy can break: a hidden,
/// closed or screenless window, or one with `canBecomeKey == false`, is never key. Explicit
/// `makeKey` requests do not consult the policy at all.
///
/// Every decision has a default (below); a policy overrides only what it changes.
public protocol KeyWindowPolicy: AnyObject {
    /// A stable, lower-case name (`"uikit"`, `"click-to-focus"` …) for control and logs.
    var name: String { get }

    /// Whether a window being shown becomes key. `requested` is true for `makeKeyAndVisible`
    /// (`show(_:makeKey: true)`), false for a plain show. Default: `requested`.
    func shouldMakeKeyOnShow(_ window: Window, requested: Bool, manager: WindowManager) -> Bool

    /// Whether a click in a window makes it key. Default: true.
    func shouldMakeKeyOnClick(_ window: Window, manager: WindowManager) -> Bool

    /// Whether a click in a window orders it front of its level. Default: false.
    func shouldOrderFrontOnClick(_ window: Window, manager: WindowManager) -> Bool

    /// Whether the pointer entering a window makes it key. Default: false.
    func shouldMakeKeyOnPointerEnter(_ window: Window, manager: WindowManager) -> Bool

    /// Which window inherits key status after `old` lost it by being hidden or closed, or nil
    /// for none. Default: `defaultSuccessor(afterLosing:manager:)`. The manager ignores an answer
    /// that is not eligible to be key.
    func successor(afterLosing old: Window, manager: WindowManager) -> Window?

    /// A request to make `window` key (a show with key, a click, a pointer enter, `makeKey`:
    /// xdg_activation, a taskbar, the control socket's make-key; a successor) found `modal`, the
    /// innermost shown modal descendant of `window` (`WindowManager.modalBlocker(of:)`), in the
    /// way. True routes the request: `modal` becomes key instead; false refuses it: nothing
    /// changes. Default: true. Either way `window` does not become key.
    func shouldRouteKey(to modal: Window, blocking window: Window, manager: WindowManager) -> Bool
}

extension KeyWindowPolicy {
    public func shouldMakeKeyOnShow(_ window: Window, requested: Bool, manager: WindowManager) -> Bool {
        requested
    }

    public func shouldMakeKeyOnClick(_ window: Window, manager: WindowManager) -> Bool {
        true
    }

    public func shouldOrderFrontOnClick(_ window: Window, manager: WindowManager) -> Bool {
        false
    }

    public func shouldMakeKeyOnPointerEnter(_ window: Window, manager: WindowManager) -> Bool {
        false
    }

    public func successor(afterLosing old: Window, manager: WindowManager) -> Window? {
        defaultSuccessor(afterLosing: old, manager: manager)
    }

    public func shouldRouteKey(to modal: Window, blocking window: Window, manager: WindowManager) -> Bool {
        true
    }

    /// The frontmost window that can be key (visible, `canBecomeKey`, on a connected screen,
    /// not `old`), preferring, in this order: the same client as `old` (same non-zero `pid`),
    /// then the same screen as `old`, then any screen.
    public func defaultSuccessor(afterLosing old: Window, manager: WindowManager) -> Window? {
        let candidates = manager.windows.reversed().filter { $0 !== old && manager.isEligibleForKey($0) }
        if old.pid != 0, let sameClient = candidates.first(where: { $0.pid == old.pid }) {
            return sameClient
        }
        if let screen = old.screen, let sameScreen = candidates.first(where: { $0.screen === screen }) {
            return sameScreen
        }
        return candidates.first
    }
}

/// The registry of the built-in policies, by name.
public enum KeyWindowPolicies {
    /// The built-in policies' names, in the order the documentation lists them.
    public static let allNames = ["uikit", "click-to-focus", "focus-follows-pointer", "explicit"]

    /// A new instance of the built-in policy called `name`, or nil.
    public static func named(_ name: String) -> (any KeyWindowPolicy)? {
        switch name {
        case "uikit": return UIKitKeyWindowPolicy()
        case "click-to-focus": return ClickToFocusPolicy()
        case "focus-follows-pointer": return FocusFollowsPointerPolicy()
        case "explicit": return ExplicitKeyPolicy()
        default: return nil
        }
    }
}
