import StrataModel
import StrataTestRandom

/// One step of a property test: a mutation of the manager, chosen at random.
enum RandomOperation: CustomStringConvertible {
    case create(pid: Int32, level: WindowLevel, canBecomeKey: Bool, screen: ScreenID?)
    case show(WindowID, makeKey: Bool)
    case hide(WindowID)
    case close(WindowID)
    case makeKey(WindowID)
    case resignKey
    case setLevel(WindowID, WindowLevel)
    case orderFront(WindowID)
    case orderBack(WindowID)
    case click(WindowID)
    case enter(WindowID)
    case connectScreen
    case disconnectScreen(ScreenID)
    case switchPolicy(String)
    case move(WindowID, ScreenID)
    case setMirroring(ScreenID, Bool)
    case setCanBecomeKey(WindowID, Bool)
    case setFrame(WindowID, Rect)

    static let levels: [WindowLevel] = [
        .background, .bottom, .normal, .normal, .normal, .alert, .statusBar,
        WindowLevel(rawValue: 1500), WindowLevel(rawValue: -5), WindowLevel(rawValue: 0.5),
    ]

    /// A random operation on `manager`'s current windows and screens; `stale` holds ids of closed
    /// windows and disconnected screens, sometimes targeted to check they are ignored.
    static func random(
        for manager: WindowManager, staleWindows: [WindowID], staleScreens: [ScreenID],
        using rng: inout SeededGenerator
    ) -> RandomOperation {
        func window() -> WindowID? {
            if rng.chance(0.05), let stale = rng.pick(staleWindows) { return stale }
            return rng.pick(manager.windows)?.id
        }
        func screen() -> ScreenID? {
            if rng.chance(0.05), let stale = rng.pick(staleScreens) { return stale }
            return rng.pick(manager.screens)?.id
        }
        let roll = Int.random(in: 0..<108, using: &rng)
        switch roll {
        case 0..<14:
            return .create(
                pid: Int32.random(in: 0...3, using: &rng), level: rng.pick(levels) ?? .normal,
                canBecomeKey: rng.chance(0.85), screen: rng.chance(0.5) ? screen() : nil)
        case 14..<30:
            if let w = window() { return .show(w, makeKey: rng.chance(0.7)) }
        case 30..<39:
            if let w = window() { return .hide(w) }
        case 39..<46:
            if let w = window() { return .close(w) }
        case 46..<53:
            if let w = window() { return .makeKey(w) }
        case 53..<55:
            return .resignKey
        case 55..<62:
            if let w = window(), let level = rng.pick(levels) { return .setLevel(w, level) }
        case 62..<67:
            if let w = window() { return .orderFront(w) }
        case 67..<70:
            if let w = window() { return .orderBack(w) }
        case 70..<76:
            if let w = window() { return .click(w) }
        case 76..<82:
            if let w = window() { return .enter(w) }
        case 82..<86:
            if manager.screens.count < 4 { return .connectScreen }
        case 86..<90:
            if let s = screen() { return .disconnectScreen(s) }
        case 90..<92:
            if let name = rng.pick(KeyWindowPolicies.allNames) { return .switchPolicy(name) }
        case 92..<97:
            if let w = window(), let s = screen() { return .move(w, s) }
        case 97..<100:
            if let s = screen() { return .setMirroring(s, rng.chance(0.5)) }
        case 100..<104:
            if let w = window() { return .setCanBecomeKey(w, rng.chance(0.6)) }
        default:
            if let w = window() {
                let rect = Rect(
                    x: Int.random(in: -50...2000, using: &rng), y: Int.random(in: -50...1200, using: &rng),
                    width: Int.random(in: -5...800, using: &rng), height: Int.random(in: 0...600, using: &rng)
                )
                return .setFrame(w, rect)
            }
        }
        return manager.screens.isEmpty ? .connectScreen : .resignKey
    }

    var description: String {
        switch self {
        case .create(let pid, let level, let canBecomeKey, let screen):
            return
                "create(pid \(pid), \(level.name), canBecomeKey \(canBecomeKey), \(screen.map { "\($0)" } ?? "main"))"
        case .show(let w, let makeKey): return "show(\(w), makeKey: \(makeKey))"
        case .hide(let w): return "hide(\(w))"
        case .close(let w): return "close(\(w))"
        case .makeKey(let w): return "makeKey(\(w))"
        case .resignKey: return "resignKey"
        case .setLevel(let w, let level): return "setLevel(\(w), \(level.name))"
        case .orderFront(let w): return "orderFront(\(w))"
        case .orderBack(let w): return "orderBack(\(w))"
        case .click(let w): return "click(\(w))"
        case .enter(let w): return "enter(\(w))"
        case .connectScreen: return "connectScreen"
        case .disconnectScreen(let s): return "disconnectScreen(\(s))"
        case .switchPolicy(let name): return "switchPolicy(\(name))"
        case .move(let w, let s): return "move(\(w), \(s))"
        case .setMirroring(let s, let on): return "setMirroring(\(s), \(on))"
        case .setCanBecomeKey(let w, let on): return "setCanBecomeKey(\(w), \(on))"
        case .setFrame(let w, let rect): return "setFrame(\(w), \(rect))"
        }
    }
}
