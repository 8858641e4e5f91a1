/// Focus follows the pointer: entering a window makes it key (without raising it); clicks and
/// `makeKeyAndVisible` make key too; the frontmost eligible window inherits when the key window
/// goes.
public final class FocusFollowsPointerPolicy: KeyWindowPolicy {
    public init() {}

    public var name: String { "focus-follows-pointer" }

    public func shouldMakeKeyOnPointerEnter(_ window: Window, manager: WindowManager) -> Bool {
        true
    }
}
