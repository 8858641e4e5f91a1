/// A desktop's click-to-focus: like `UIKitKeyWindowPolicy` (`makeKeyAndVisible` makes key, a
/// plain show does not, the pointer entering does nothing, the frontmost eligible window
/// inherits), except that a click also orders the clicked window front of its level.
public final class ClickToFocusPolicy: KeyWindowPolicy {
    public init() {}

    public var name: String { "click-to-focus" }

    public func shouldOrderFrontOnClick(_ window: Window, manager: WindowManager) -> Bool {
        true
    }
}
