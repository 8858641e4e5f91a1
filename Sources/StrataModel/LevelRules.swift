/// The user's say over window levels, by application id: levels configured for app ids
/// (`strata --level APPID=LEVEL`) and the app ids allowed to ask for levels above `normal`
/// (`strata --allow-levels APPID,…`). A plain value: the compositor keeps one and asks it when a
/// window maps, when a window's app id changes before it maps, and when a client asks for a level.
///
/// Rules (see `docs/window-model.md`, "Levels from clients"):
/// 1. A level configured for the app id wins over any request.
/// 2. Otherwise a request for a level at or below `normal` is granted.
/// 3. Otherwise (above `normal`) it is granted only when the app id is on the allow-list; an empty
///    app id is never on it.
public struct LevelRules: Equatable, Sendable {
    /// Levels the user configured, by app id.
    public var levels: [String: WindowLevel]
    /// App ids allowed to ask for levels above `normal`.
    public var allowedAppIDs: Set<String>

    public init(levels: [String: WindowLevel] = [:], allowedAppIDs: Set<String> = []) {
        self.levels = levels
        self.allowedAppIDs = allowedAppIDs
    }

    /// Why a request was refused.
    public enum Denial: Equatable, Sendable {
        /// Above `normal`, and the app id is not allowed.
        case notAllowed
        /// The user configured another level for the app id.
        case overriddenByRule(WindowLevel)
    }

    /// The outcome of a level request.
    public enum Decision: Equatable, Sendable {
        case granted(WindowLevel)
        case denied(Denial)
    }

    /// The level the user configured for `appID`, if any: its rule in any case
    /// (`AppIDMatch`); the exact spelling's when several fit, else the first in sorted order.
    public func configuredLevel(forAppID appID: String) -> WindowLevel? {
        guard !appID.isEmpty else { return nil }
        if let exact = levels[appID] { return exact }
        return levels.filter { AppIDMatch.matches($0.key, appID) }.min { $0.key < $1.key }?.value
    }

    /// Whether `appID` is on the allow-list, in any case (`AppIDMatch`).
    public func isAllowed(_ appID: String) -> Bool {
        !appID.isEmpty && (allowedAppIDs.contains(appID) || allowedAppIDs.contains { AppIDMatch.matches($0, appID) })
    }

    /// Decides a client's request for `requested` by a window whose app id is `appID`.
    public func decide(requested: WindowLevel, appID: String) -> Decision {
        if let configured = configuredLevel(forAppID: appID) {
            return configured == requested ? .granted(requested) : .denied(.overriddenByRule(configured))
        }
        if requested <= .normal { return .granted(requested) }
        if isAllowed(appID) { return .granted(requested) }
        return .denied(.notAllowed)
    }
}
