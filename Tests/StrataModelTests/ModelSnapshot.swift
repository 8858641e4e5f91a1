import StrataModel

/// Everything observable about a manager at one moment, by id, for before/after comparisons.
struct ModelSnapshot {
    struct WindowState: Equatable {
        var isVisible: Bool
        var level: WindowLevel
        var screen: ScreenID?
        var canBecomeKey: Bool
        var pid: Int32
        var frame: Rect
    }

    var key: WindowID?
    var order: [WindowID]
    var windows: [WindowID: WindowState]
    var screens: [ScreenID]
    var mirroring: [ScreenID: Bool]
    var policyName: String
    var lastSequence: UInt64

    init(_ manager: WindowManager) {
        key = manager.keyWindow?.id
        order = manager.windows.map(\.id)
        var states: [WindowID: WindowState] = [:]
        for window in manager.windows {
            states[window.id] = WindowState(
                isVisible: !window.isHidden, level: window.level, screen: window.screen?.id,
                canBecomeKey: window.canBecomeKey, pid: window.pid, frame: window.frame)
        }
        windows = states
        screens = manager.screens.map(\.id)
        var mirroring: [ScreenID: Bool] = [:]
        for screen in manager.screens { mirroring[screen.id] = screen.isMirroring }
        self.mirroring = mirroring
        policyName = manager.policy.name
        lastSequence = manager.notifications.lastSequence
    }

    var visible: Set<WindowID> { Set(windows.filter { $0.value.isVisible }.keys) }

    func isEligibleForKey(_ id: WindowID) -> Bool {
        guard let state = windows[id] else { return false }
        return state.isVisible && state.canBecomeKey && state.screen != nil
    }

    /// The reference successor rule, written independently of the model: frontmost eligible
    /// window other than `old`, same non-zero pid first, then same screen, then any.
    func expectedSuccessor(afterLosing old: WindowID) -> WindowID? {
        guard policyName != "explicit", let oldState = windows[old] else { return nil }
        let candidates = order.reversed().filter { $0 != old && isEligibleForKey($0) }
        if oldState.pid != 0, let same = candidates.first(where: { windows[$0]?.pid == oldState.pid }) {
            return same
        }
        if let screen = oldState.screen,
            let same = candidates.first(where: { windows[$0]?.screen == screen })
        {
            return same
        }
        return candidates.first
    }
}
