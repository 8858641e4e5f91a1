extension WindowManager {
    /// A request to make `window` key (a client's, a command's, a taskbar's), under the current
    /// cause: `makeKey(window)`; when that left the key window as it was without `window` being
    /// or having become key through its modal window (the lock, a window holding key, `window`
    /// hidden or not `canBecomeKey`, the policy not routing key to its modal window), posts
    /// `keyRequestWasRefused(window)`. Returns whether `window` is key afterwards.
    @discardableResult
    public func makeKeyOrRefuse(_ window: Window) -> Bool {
        let before = keyWindow
        if makeKey(window) { return true }
        let modalTookKey = keyWindow.map { $0 === modalBlocker(of: window) } ?? false
        if keyWindow === before, !modalTookKey { refuseKey(window) }
        return false
    }
}
