/// UIKit's behaviour, the default: `makeKeyAndVisible` makes key, a plain show does not; a click
/// makes the window key without raising it; the pointer entering does nothing; when the key
/// window goes, the frontmost eligible window inherits (same client, then same screen, then any).
public final class UIKitKeyWindowPolicy: KeyWindowPolicy {
    public init() {}

    public var name: String { "uikit" }
}
