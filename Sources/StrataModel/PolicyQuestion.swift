/// One decision asked of the policy delegate (`PolicyDelegation`): what happened, about which
/// window, why (the cause of the request), and what the built-in policy would answer.
/// `docs/control.md`, "Policy delegate", shows its wire form.
public struct PolicyQuestion {
    /// The decision point.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// A window is shown (mapped); `requested`: the shell asked for key (`makeKeyAndVisible`).
        case map
        /// A press or touch landed in a window; `input`: `"click"` or `"touch"`.
        case click
        /// The pointer entered a window.
        case pointerEnter = "pointer-enter"
        /// The key window (`lost`) was hidden, closed or may no longer be key.
        case successor
        /// A client asked to make its window key (`make_key`, `_NET_ACTIVE_WINDOW`, an activation
        /// token); `rule`: what `FocusRequestRule` says.
        case focusRequest = "focus-request"
        /// A client asked for a level (`requestedLevel`).
        case level
        /// A new window gets its first frame (`size`, `requestedOrigin`, `screen`).
        case placement

        /// The decision this kind of question belongs to.
        public var decision: PolicyDecision {
            switch self {
            case .map, .click, .pointerEnter, .successor, .focusRequest: return .key
            case .level: return .stacking
            case .placement: return .placement
            }
        }

        /// Whether `answer` is an answer to this kind of question.
        public func fits(_ answer: PolicyAnswer) -> Bool {
            switch (self, answer) {
            case (.map, .key), (.pointerEnter, .key), (.click, .click), (.successor, .successor),
                (.focusRequest, .grant), (.level, .level), (.placement, .origin):
                return true
            default:
                return false
            }
        }
    }

    /// Counts from 1, per delegation.
    public let id: UInt64
    public let kind: Kind
    public let window: WindowID
    /// What led to the question (the request, its requester, when it was made).
    public let cause: ChangeCause
    /// What the built-in policy answers.
    public let builtin: PolicyAnswer
    /// The built-in policy's name (a fallback's `decidedBy` says it).
    public let builtinName: String

    /// map: whether the shell asked for key.
    public var requested: Bool?
    /// click: `"click"` or `"touch"`.
    public var input: String?
    /// successor: the window that lost key.
    public var lost: WindowID?
    /// focus-request: the focus rule's verdict (`FocusRequestRule.Decision`'s name).
    public var rule: String?
    /// level: the level asked for.
    public var requestedLevel: WindowLevel?
    /// placement: the window's size, the origin its client asked for (if any), its screen, and
    /// the built-in policy's frame (the window has it until an answer moves it).
    public var size: Size?
    public var requestedOrigin: Point?
    public var screen: ScreenID?
    public var builtinFrame: Rect?
    /// Called once the question is decided, with the answer that was applied (nil: none was),
    /// for a wire path that owes its client a reply (a level request's `level_denied`).
    public var completion: ((PolicyAnswer?) -> Void)?

    public init(
        id: UInt64, kind: Kind, window: WindowID, cause: ChangeCause, builtin: PolicyAnswer, builtinName: String
    ) {
        self.id = id
        self.kind = kind
        self.window = window
        self.cause = cause
        self.builtin = builtin
        self.builtinName = builtinName
    }
}
