/// The key-window policy while a delegate holds key decisions (`PolicyDelegation`): at a show,
/// a click, a pointer enter or a successor it computes what `builtin` answers, asks the delegate
/// (`PolicyDelegation.ask`) and answers "no change now"; the delegation applies the answer later
/// through `makeKey` and `orderFront`. When the delegation is busy, `builtin` decides at once.
/// Modal routing stays the built-in's. Its name is the built-in's.
public final class DelegatedKeyWindowPolicy: KeyWindowPolicy {
    /// The policy a fallback applies (the `policy` command switches it).
    public var builtin: any KeyWindowPolicy
    unowned let delegation: PolicyDelegation
    /// Whether the running click was asked (its key part is then the delegate's too).
    private var clickWasAsked = false

    init(builtin: any KeyWindowPolicy, delegation: PolicyDelegation) {
        self.builtin = builtin
        self.delegation = delegation
    }

    public var name: String { builtin.name }

    private func cause(_ kind: ChangeCause.Kind, _ manager: WindowManager) -> ChangeCause {
        manager.currentCause ?? ChangeCause(kind)
    }

    public func shouldMakeKeyOnShow(_ window: Window, requested: Bool, manager: WindowManager) -> Bool {
        let answer = builtin.shouldMakeKeyOnShow(window, requested: requested, manager: manager)
        let asked = delegation.ask(
            .map, window: window.id, cause: cause(.map, manager), builtin: .key(answer), builtinName: builtin.name
        ) { $0.requested = requested }
        return asked ? false : answer
    }

    public func shouldOrderFrontOnClick(_ window: Window, manager: WindowManager) -> Bool {
        let front = builtin.shouldOrderFrontOnClick(window, manager: manager)
        let key =
            manager.keyWindow !== window && manager.isEligibleForKey(window)
            && !Self.isKeyHeld(against: window, manager)
            && builtin.shouldMakeKeyOnClick(window, manager: manager)
        let cause = cause(.click, manager)
        clickWasAsked = delegation.ask(
            .click, window: window.id, cause: cause, builtin: .click(key: key, orderFront: front),
            builtinName: builtin.name
        ) { $0.input = cause.kind == .touch ? "touch" : "click" }
        return clickWasAsked ? false : front
    }

    public func shouldMakeKeyOnClick(_ window: Window, manager: WindowManager) -> Bool {
        clickWasAsked ? false : builtin.shouldMakeKeyOnClick(window, manager: manager)
    }

    public func shouldMakeKeyOnPointerEnter(_ window: Window, manager: WindowManager) -> Bool {
        let answer = builtin.shouldMakeKeyOnPointerEnter(window, manager: manager)
        let asked = delegation.ask(
            .pointerEnter, window: window.id, cause: cause(.pointerEnter, manager), builtin: .key(answer),
            builtinName: builtin.name)
        return asked ? false : answer
    }

    public func successor(afterLosing old: Window, manager: WindowManager) -> Window? {
        let answer = builtin.successor(afterLosing: old, manager: manager)
        let eligible = answer.flatMap { $0 !== old && manager.isEligibleForKey($0) ? $0 : nil }
        let asked = delegation.ask(
            .successor, window: old.id, cause: cause(.successor, manager), builtin: .successor(eligible?.id),
            builtinName: builtin.name
        ) { $0.lost = old.id }
        return asked ? nil : answer
    }

    public func shouldRouteKey(to modal: Window, blocking window: Window, manager: WindowManager) -> Bool {
        builtin.shouldRouteKey(to: modal, blocking: window, manager: manager)
    }

    /// Whether another eligible window holds key against `window` (`Window.holdsKey`).
    static func isKeyHeld(against window: Window, _ manager: WindowManager) -> Bool {
        guard let key = manager.keyWindow, key !== window, key.holdsKey else { return false }
        return manager.isEligibleForKey(key)
    }
}
