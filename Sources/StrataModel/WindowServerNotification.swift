/// Something that changed in the window model. The manager posts these through its
/// `WindowNotificationCenter`, in a defined order, exactly once per change (see
/// `docs/window-model.md`). Cases name the direction: the model *tells* observers what happened.
public enum WindowServerNotification: Hashable, Sendable {
    /// A window was created (hidden). Not in UIKit; lets an event log see every window.
    case windowDidOpen(WindowID)
    /// A window was removed by `close`. Posted after its resign/hidden notifications.
    case windowDidClose(WindowID)
    case windowDidBecomeVisible(WindowID)
    case windowDidBecomeHidden(WindowID)
    case windowDidBecomeKey(WindowID)
    case windowDidResignKey(WindowID)
    case windowDidChangeLevel(WindowID, from: WindowLevel, to: WindowLevel)
    /// The window moved inside its level's order (ordered front or back, or raised by a show or a
    /// click). Not posted when nothing moved.
    case windowDidChangeStacking(WindowID)
    /// `from` is nil when the window had no screen (no screen was connected).
    case windowDidMoveToScreen(WindowID, from: ScreenID?, to: ScreenID)
    case windowDidChangeFrame(WindowID, from: Rect, to: Rect)
    case screenDidConnect(ScreenID)
    case screenDidDisconnect(ScreenID)
    case screenModeDidChange(ScreenID)
    case screenDidChangeTransform(ScreenID)
    case screenDidChangeScale(ScreenID)
    case screenDidChangeBrightness(ScreenID)
    /// The screen's position in the global layout changed.
    case screenDidMove(ScreenID)
    case screenDidChangeUsableArea(ScreenID)
    case screenDidChangeMirroring(ScreenID, Bool)
    /// The screen's overscan or its compensation changed (with `.insetBounds`, its bounds too).
    case screenDidChangeOverscan(ScreenID)
    /// The session locked (`WindowManager.lock()`): a lock screen covers every screen and no
    /// window is key until `sessionDidUnlock`. Posted after the key window's resign.
    case sessionDidLock
    /// The session unlocked: windows may be key again. Posted before the restored key window's
    /// `windowDidBecomeKey`.
    case sessionDidUnlock
    /// The window's parent changed (`WindowManager.setParent`); nil for none. Not posted when a
    /// parent closes: its `windowDidClose` says so, and its children have no parent from then on.
    case windowDidChangeParent(WindowID, from: WindowID?, to: WindowID?)
    /// The window became modal for its parent, or stopped being modal (`WindowManager.setModal`).
    case windowDidChangeModal(WindowID, Bool)
    /// The window's title changed while it was shown (`WindowManager.setTitle`).
    case windowDidChangeTitle(WindowID)
    /// The window's app id changed while it was shown (`WindowManager.setAppID`).
    case windowDidChangeAppID(WindowID)
    /// The window's process id changed while it was shown (`WindowManager.setPID`).
    case windowDidChangePID(WindowID)
    /// The window was maximized or stopped being maximized (`WindowManager.setMaximized`,
    /// `resetState`).
    case windowDidChangeMaximized(WindowID, Bool)
    /// The window became fullscreen or left it (`WindowManager.setFullscreen`, `resetState`).
    case windowDidChangeFullscreen(WindowID, Bool)
    /// The window was minimized (`WindowManager.minimize`; posted before its hide) or brought
    /// back (`show`, before `windowDidBecomeVisible`; `resetState`).
    case windowDidChangeMinimized(WindowID, Bool)
    /// A request to make the window key was refused (the focus rule, the session lock, a window
    /// holding key, a window that may not be key, the delegate saying no): nothing changed. Its
    /// cause says whose request it was (`WindowManager.refuseKey`).
    case keyRequestWasRefused(WindowID)
    /// The policy delegate did not decide question `question` (of `kind`, about the window): the
    /// built-in policy did, for `reason` (`deadline`, `invalid`, `disconnected`, `busy`;
    /// `PolicyDelegation`). Posted before the built-in answer's own notifications.
    case policyDidFallBack(WindowID, question: UInt64, kind: String, reason: String)
    /// The decisions a policy delegate holds changed (`PolicyDelegation.setDecisions`): it
    /// registered, changed its set, gave them up or hung up. `decisions`: the ones held now
    /// (`key`, `placement`, `stacking`, sorted, comma-separated; empty: none). A replay waits for
    /// it as for any event, so a replayed delegate decides what the recorded one decided.
    case policyDelegateDidChange(decisions: String)

    /// Every notification name, in declaration order.
    public static let allNames: [String] = [
        "windowDidOpen", "windowDidClose", "windowDidBecomeVisible", "windowDidBecomeHidden",
        "windowDidBecomeKey", "windowDidResignKey", "windowDidChangeLevel", "windowDidChangeStacking",
        "windowDidMoveToScreen", "windowDidChangeFrame", "screenDidConnect", "screenDidDisconnect",
        "screenModeDidChange", "screenDidChangeTransform", "screenDidChangeScale",
        "screenDidChangeBrightness", "screenDidMove", "screenDidChangeUsableArea",
        "screenDidChangeMirroring", "screenDidChangeOverscan", "sessionDidLock", "sessionDidUnlock",
        "windowDidChangeParent", "windowDidChangeModal", "windowDidChangeTitle", "windowDidChangeAppID",
        "windowDidChangePID", "windowDidChangeMaximized", "windowDidChangeFullscreen",
        "windowDidChangeMinimized", "keyRequestWasRefused", "policyDidFallBack", "policyDelegateDidChange",
    ]

    /// The stable name of the notification (the case name), e.g. `"windowDidBecomeKey"`.
    public var name: String {
        switch self {
        case .windowDidOpen: return "windowDidOpen"
        case .windowDidClose: return "windowDidClose"
        case .windowDidBecomeVisible: return "windowDidBecomeVisible"
        case .windowDidBecomeHidden: return "windowDidBecomeHidden"
        case .windowDidBecomeKey: return "windowDidBecomeKey"
        case .windowDidResignKey: return "windowDidResignKey"
        case .windowDidChangeLevel: return "windowDidChangeLevel"
        case .windowDidChangeStacking: return "windowDidChangeStacking"
        case .windowDidMoveToScreen: return "windowDidMoveToScreen"
        case .windowDidChangeFrame: return "windowDidChangeFrame"
        case .screenDidConnect: return "screenDidConnect"
        case .screenDidDisconnect: return "screenDidDisconnect"
        case .screenModeDidChange: return "screenModeDidChange"
        case .screenDidChangeTransform: return "screenDidChangeTransform"
        case .screenDidChangeScale: return "screenDidChangeScale"
        case .screenDidChangeBrightness: return "screenDidChangeBrightness"
        case .screenDidMove: return "screenDidMove"
        case .screenDidChangeUsableArea: return "screenDidChangeUsableArea"
        case .screenDidChangeMirroring: return "screenDidChangeMirroring"
        case .screenDidChangeOverscan: return "screenDidChangeOverscan"
        case .sessionDidLock: return "sessionDidLock"
        case .sessionDidUnlock: return "sessionDidUnlock"
        case .windowDidChangeParent: return "windowDidChangeParent"
        case .windowDidChangeModal: return "windowDidChangeModal"
        case .windowDidChangeTitle: return "windowDidChangeTitle"
        case .windowDidChangeAppID: return "windowDidChangeAppID"
        case .windowDidChangePID: return "windowDidChangePID"
        case .windowDidChangeMaximized: return "windowDidChangeMaximized"
        case .windowDidChangeFullscreen: return "windowDidChangeFullscreen"
        case .windowDidChangeMinimized: return "windowDidChangeMinimized"
        case .keyRequestWasRefused: return "keyRequestWasRefused"
        case .policyDidFallBack: return "policyDidFallBack"
        case .policyDelegateDidChange: return "policyDelegateDidChange"
        }
    }

    /// The window the notification is about, if any.
    public var windowID: WindowID? {
        switch self {
        case .windowDidOpen(let id), .windowDidClose(let id), .windowDidBecomeVisible(let id),
            .windowDidBecomeHidden(let id), .windowDidBecomeKey(let id), .windowDidResignKey(let id),
            .windowDidChangeStacking(let id), .windowDidChangeTitle(let id), .windowDidChangeAppID(let id),
            .windowDidChangePID(let id), .keyRequestWasRefused(let id):
            return id
        case .windowDidChangeLevel(let id, _, _), .windowDidMoveToScreen(let id, _, _),
            .windowDidChangeFrame(let id, _, _), .windowDidChangeParent(let id, _, _):
            return id
        case .windowDidChangeModal(let id, _), .windowDidChangeMinimized(let id, _),
            .windowDidChangeMaximized(let id, _), .windowDidChangeFullscreen(let id, _):
            return id
        case .policyDidFallBack(let id, _, _, _):
            return id
        default:
            return nil
        }
    }

    /// The screen the notification is about, if any (for `windowDidMoveToScreen`, the new one).
    public var screenID: ScreenID? {
        switch self {
        case .screenDidConnect(let id), .screenDidDisconnect(let id), .screenModeDidChange(let id),
            .screenDidChangeTransform(let id), .screenDidChangeScale(let id),
            .screenDidChangeBrightness(let id), .screenDidChangeOverscan(let id), .screenDidMove(let id),
            .screenDidChangeUsableArea(let id), .screenDidChangeMirroring(let id, _):
            return id
        case .windowDidMoveToScreen(_, _, let to):
            return to
        default:
            return nil
        }
    }

    /// A flat, JSON-friendly description: `name` plus the payload's fields (ids as numbers,
    /// levels as their names, rectangles as `"x,y,widthxheight"`, booleans as `"true"`/`"false"`).
    /// For structured JSON, encode the notification with `JSONEncoder` instead.
    public var payload: [String: String] {
        var fields = ["name": name]
        switch self {
        case .windowDidOpen(let id), .windowDidClose(let id), .windowDidBecomeVisible(let id),
            .windowDidBecomeHidden(let id), .windowDidBecomeKey(let id), .windowDidResignKey(let id),
            .windowDidChangeStacking(let id), .windowDidChangeTitle(let id), .windowDidChangeAppID(let id),
            .windowDidChangePID(let id), .keyRequestWasRefused(let id):
            fields["window"] = String(id.rawValue)
        case .windowDidChangeLevel(let id, let from, let to):
            fields["window"] = String(id.rawValue)
            fields["from"] = from.name
            fields["to"] = to.name
        case .windowDidMoveToScreen(let id, let from, let to):
            fields["window"] = String(id.rawValue)
            if let from { fields["from"] = String(from.rawValue) }
            fields["to"] = String(to.rawValue)
        case .windowDidChangeFrame(let id, let from, let to):
            fields["window"] = String(id.rawValue)
            fields["from"] = "\(from.x),\(from.y),\(from.width)x\(from.height)"
            fields["to"] = "\(to.x),\(to.y),\(to.width)x\(to.height)"
        case .screenDidConnect(let id), .screenDidDisconnect(let id), .screenModeDidChange(let id),
            .screenDidChangeTransform(let id), .screenDidChangeScale(let id),
            .screenDidChangeBrightness(let id), .screenDidChangeOverscan(let id), .screenDidMove(let id),
            .screenDidChangeUsableArea(let id):
            fields["screen"] = String(id.rawValue)
        case .screenDidChangeMirroring(let id, let isMirroring):
            fields["screen"] = String(id.rawValue)
            fields["isMirroring"] = isMirroring ? "true" : "false"
        case .sessionDidLock, .sessionDidUnlock:
            break
        case .windowDidChangeParent(let id, let from, let to):
            fields["window"] = String(id.rawValue)
            if let from { fields["from"] = String(from.rawValue) }
            if let to { fields["to"] = String(to.rawValue) }
        case .windowDidChangeModal(let id, let isModal):
            fields["window"] = String(id.rawValue)
            fields["isModal"] = isModal ? "true" : "false"
        case .windowDidChangeMaximized(let id, let isMaximized):
            fields["window"] = String(id.rawValue)
            fields["isMaximized"] = isMaximized ? "true" : "false"
        case .windowDidChangeFullscreen(let id, let isFullscreen):
            fields["window"] = String(id.rawValue)
            fields["isFullscreen"] = isFullscreen ? "true" : "false"
        case .windowDidChangeMinimized(let id, let isMinimized):
            fields["window"] = String(id.rawValue)
            fields["isMinimized"] = isMinimized ? "true" : "false"
        case .policyDidFallBack(let id, let question, let kind, let reason):
            fields["window"] = String(id.rawValue)
            fields["question"] = String(question)
            fields["kind"] = kind
            fields["reason"] = reason
        case .policyDelegateDidChange(let decisions):
            fields["decisions"] = decisions
        }
        return fields
    }
}

extension WindowServerNotification: CustomStringConvertible {
    public var description: String {
        switch self {
        case .windowDidChangeLevel(let id, let from, let to):
            return "\(name)(\(id), from: \(from.name), to: \(to.name))"
        case .windowDidMoveToScreen(let id, let from, let to):
            return "\(name)(\(id), from: \(from.map { "\($0)" } ?? "nil"), to: \(to))"
        case .windowDidChangeFrame(let id, let from, let to):
            return "\(name)(\(id), from: \(from), to: \(to))"
        case .screenDidChangeMirroring(let id, let isMirroring):
            return "\(name)(\(id), \(isMirroring))"
        case .windowDidChangeParent(let id, let from, let to):
            return "\(name)(\(id), from: \(from.map { "\($0)" } ?? "nil"), to: \(to.map { "\($0)" } ?? "nil"))"
        case .windowDidChangeModal(let id, let isModal):
            return "\(name)(\(id), \(isModal))"
        case .windowDidChangeMinimized(let id, let flag), .windowDidChangeMaximized(let id, let flag),
            .windowDidChangeFullscreen(let id, let flag):
            return "\(name)(\(id), \(flag))"
        default:
            let subject = windowID.map { "\($0)" } ?? screenID.map { "\($0)" } ?? ""
            return "\(name)(\(subject))"
        }
    }
}
