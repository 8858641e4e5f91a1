/// Whether a client's request to make one of its windows key (`strata_window_v1.make_key`, X's
/// `_NET_ACTIVE_WINDOW`) is honoured: the rule against focus stealing, decided from facts each
/// wire path gathers. xdg-activation's tokens are the same rule's case 4 (a token is granted for
/// an input serial of the key window's client).
///
/// A request is honoured when
/// 1. no window is key (nothing to steal from),
/// 2. the requester owns the key window (it moves the keyboard among its own windows),
/// 3. the requester is privileged (a tool or experiment Strata trusts), or
/// 4. the requester has the user's latest input: the seat's latest press (key press, button
///    press, touch down, tablet tip) went to it, and what the request carries does not predate
///    that press (X: a timestamp not older than it; make_key carries nothing, so the connection
///    itself stands for it).
///
/// Anything else is refused: the key window keeps the keyboard.
public enum FocusRequestRule {
    /// What a wire path knows about one request.
    public struct Facts: Equatable, Sendable {
        public var hasKeyWindow: Bool
        public var requesterOwnsKeyWindow: Bool
        public var requesterIsPrivileged: Bool
        public var requesterHasLatestInput: Bool

        public init(
            hasKeyWindow: Bool, requesterOwnsKeyWindow: Bool, requesterIsPrivileged: Bool,
            requesterHasLatestInput: Bool
        ) {
            self.hasKeyWindow = hasKeyWindow
            self.requesterOwnsKeyWindow = requesterOwnsKeyWindow
            self.requesterIsPrivileged = requesterIsPrivileged
            self.requesterHasLatestInput = requesterHasLatestInput
        }
    }

    /// Why a request was honoured, or that it was refused.
    public enum Decision: Equatable, Sendable {
        case noKeyWindow, ownsKeyWindow, privileged, latestInput, refused

        public var isHonoured: Bool { self != .refused }
    }

    public static func decide(_ facts: Facts) -> Decision {
        if !facts.hasKeyWindow { return .noKeyWindow }
        if facts.requesterOwnsKeyWindow { return .ownsKeyWindow }
        if facts.requesterIsPrivileged { return .privileged }
        if facts.requesterHasLatestInput { return .latestInput }
        return .refused
    }

    /// Whether an X timestamp (milliseconds, wrapping at 2^32) is not older than `press`, the
    /// time of the latest press in the same clock. `CurrentTime` (0) is never recent: it names
    /// no user event.
    public static func isXTimestamp(_ timestamp: UInt32, notOlderThan press: UInt32) -> Bool {
        guard timestamp != 0 else { return false }
        // Wrap-aware: the difference read as signed.
        return Int32(bitPattern: timestamp &- press) >= -xClockSlack
    }

    /// How far an X timestamp may lag the press and still count: Xwayland stamps events with a
    /// coarse monotonic clock read after Strata sent the press (a few ms apart).
    public static let xClockSlack: Int32 = 50
}
