/// A weak reference to a window, for tables that must not keep windows alive (a parent's modal
/// children: strong links down a modal chain would release it recursively, one stack frame per
/// window, when the manager goes).
struct WeakWindow {
    weak var window: Window?
    init(_ window: Window) { self.window = window }
}
