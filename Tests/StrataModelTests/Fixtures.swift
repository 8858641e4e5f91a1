import StrataModel

let mode1080 = ScreenMode(width: 1920, height: 1080)
let mode720 = ScreenMode(width: 1280, height: 720)
let mode4K = ScreenMode(width: 3840, height: 2160, refreshMilliHz: 30000)

/// A manager with `screenCount` 1920×1080 screens (named "S1", "S2", …), side by side.
func makeManager(
    screens screenCount: Int = 1, policy: any KeyWindowPolicy = UIKitKeyWindowPolicy()
) -> WindowManager {
    let manager = WindowManager(policy: policy)
    for index in 0..<screenCount {
        manager.connectScreen(name: "S\(index + 1)", modes: [mode1080, mode720])
    }
    return manager
}

extension WindowManager {
    /// Creates a window and shows it with `makeKeyAndVisible` semantics unless `makeKey` is false.
    @discardableResult
    func shownWindow(
        pid: Int32 = 1, level: WindowLevel = .normal, canBecomeKey: Bool = true,
        screen: Screen? = nil, frame: Rect? = nil, makeKey: Bool = true
    ) -> Window {
        let window = createWindow(pid: pid, level: level, canBecomeKey: canBecomeKey, screen: screen)
        if let frame { setFrame(window, frame) }
        show(window, makeKey: makeKey)
        return window
    }

    /// The ids of `windows`, back to front.
    var stackingIDs: [WindowID] { windows.map(\.id) }
}
