import StrataModel

/// Where focus requests that carry no token are decided (`FocusRequestRule`):
/// `strata_window_v1.make_key` from a Wayland client and `_NET_ACTIVE_WINDOW` from an X client.
/// A refused request changes nothing but the model's `keyRequestWasRefused` (under the cause the
/// caller runs it with: `ChangeCause.Kind.focusRequest`), and is logged as "focus request refused".
public final class FocusRequests {
    unowned let compositor: Compositor
    /// Requests honoured and refused (tests, debugging).
    public private(set) var honoured = 0, refused = 0

    init(compositor: Compositor) {
        self.compositor = compositor
    }

    /// Whether Wayland `client` may make its `window` key (make_key): it owns the key window,
    /// is privileged, or got the seat's latest press; or no window is key.
    func allowsWaylandRequest(_ request: String, from client: OpaquePointer, for window: Window) -> Bool {
        let key = compositor.windows.keyWindow
        let facts = FocusRequestRule.Facts(
            hasKeyWindow: key != nil,
            requesterOwnsKeyWindow: key?.rootSurface?.client == client,
            requesterIsPrivileged: compositor.clientPrivilege.allows(compositor.display.origin(of: client)),
            requesterHasLatestInput: compositor.seat.hasLatestPress(client))
        return decide(facts, request: request, window: window, requester: Self.describe(client))
    }

    private static func describe(_ client: OpaquePointer) -> String {
        "the Wayland client of pid \(StartedProcessIDs.processID(of: client))"
    }

    /// Records and logs the rule's decision on `facts`; true when honoured.
    func decide(_ facts: FocusRequestRule.Facts, request: String, window: Window, requester: String) -> Bool {
        let decision = FocusRequestRule.decide(facts)
        if askDelegate(decision, request: request, window: window, requester: requester) { return false }
        if decision.isHonoured {
            honoured += 1
            return true
        }
        refused += 1
        compositor.windows.refuseKey(window)
        // At most one line a second per requester (a flood of requests is not a flood of lines).
        let now = ContinuousClock.now
        var entry = logged[requester] ?? LogEntry(last: nil, suppressed: 0)
        if let last = entry.last, now - last < .seconds(1) {
            entry.suppressed += 1
            logged[requester] = entry
            return false
        }
        if logged.count >= Self.maxLoggedRequesters { logged.removeAll() }
        let key = compositor.windows.keyWindow.map { "\($0.id)" } ?? "none"
        let more = entry.suppressed > 0 ? " (and \(entry.suppressed) more from it not logged)" : ""
        compositor.log(
            "strata: focus request refused: \(request) for \(window.id) (\(window.appID)) from \(requester): "
                + "not the key window's client (\(key)), not privileged, and not the client of the latest input\(more)")
        logged[requester] = LogEntry(last: now, suppressed: 0)
        return false
    }

    private struct LogEntry {
        var last: ContinuousClock.Instant?
        var suppressed: Int
    }
    /// When each requester's last refusal was logged, and how many were not since.
    private var logged: [String: LogEntry] = [:]
    private static let maxLoggedRequesters = 256
}
