/// Only explicit requests change the key window: `makeKey` and `makeKeyAndVisible`
/// (`show(_:makeKey: true)`). Clicks and the pointer do nothing, and when the key window is
/// hidden or closed no window inherits: there is no key window until the next request.
public final class ExplicitKeyPolicy: KeyWindowPolicy {
    public init() {}

    public var name: String { "explicit" }

    public func shouldMakeKeyOnClick(_ window: Window, manager: WindowManager) -> Bool {
        false
    }

    public func successor(afterLosing old: Window, manager: WindowManager) -> Window? {
        nil
    }
}
