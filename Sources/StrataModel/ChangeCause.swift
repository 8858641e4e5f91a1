/// Why the model changed: what led to a key change, a refusal or a stacking change, and who
/// decided it. The `WindowManager` stamps each notification of a transaction with the cause it
/// runs under (`WindowManager.withCause(_:_:)`); a step the manager takes on its own inside a
/// transaction (a successor after the key window closed, key routed to a modal window) has a
/// cause of its own that names the step. Observers read it as `PostedNotification.cause`; the
/// control socket's events, traces and the report's timeline show it.
public struct ChangeCause: Hashable, Sendable {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A pointer button or tablet tip pressed in a window.
        case click
        /// A touch point went down in a window.
        case touch
        /// The pointer entered a window (focus follows the pointer).
        case pointerEnter = "pointer-enter"
        /// A window was shown (mapped) and made key or ordered front by it.
        case map
        /// The key window was hidden or closed, or may no longer be key: another inherits key.
        case successor
        /// Key was routed to a modal window in the way of the window asked for.
        case modal
        /// An xdg-activation token was used (`xdg_activation_v1.activate`).
        case activationToken = "activation-token"
        /// A client asked for key or a level without a token (`strata_window_v1.make_key`,
        /// `_NET_ACTIVE_WINDOW`, `set_level`, `_NET_WM_STATE_ABOVE`).
        case focusRequest = "focus-request"
        /// A control command (`make-key`, `raise`, `set-level`, …) or a taskbar's request.
        case command
        /// The session locked or unlocked.
        case lock
        /// The policy delegate answered (`docs/control.md`, "Policy delegate").
        case delegate
        /// The delegate did not answer in time, answered wrongly or hung up: the built-in policy
        /// decided.
        case fallback
        /// Anything else (a client changed its own window: a state, a parent).
        case other
    }

    public var kind: Kind
    /// The request or input that led to it, in words a log can show: `"pointer-button 272"`,
    /// `"make-key window=3"`, `"xdg_activation_v1.activate"`. Empty when there is none.
    public var request: String
    /// Who asked: `"pid 812"`, `"control 3"`, `"user"`. Empty when nobody asked.
    public var requester: String
    /// What decided: the key-window or placement policy's name, `"delegate"`, `"model"` (a rule
    /// no policy breaks). Empty when nothing was decided.
    public var decidedBy: String
    /// When the request was made, in nanoseconds of the compositor's `Clock` (0: not known): a
    /// decision the delegate took later still says when it was asked for (focus metrics).
    public var requestedAt: UInt64

    public init(
        _ kind: Kind, request: String = "", requester: String = "", decidedBy: String = "", requestedAt: UInt64 = 0
    ) {
        self.kind = kind
        self.request = request
        self.requester = requester
        self.decidedBy = decidedBy
        self.requestedAt = requestedAt
    }

    /// `cause`, `request`, `requester`, `decided_by` and `requested_ns` as flat fields (the empty
    /// ones left out), for events and traces.
    public var fields: [String: String] {
        var fields = ["cause": kind.rawValue]
        if !request.isEmpty { fields["request"] = request }
        if !requester.isEmpty { fields["requester"] = requester }
        if !decidedBy.isEmpty { fields["decided_by"] = decidedBy }
        if requestedAt != 0 { fields["requested_ns"] = String(requestedAt) }
        return fields
    }
}
