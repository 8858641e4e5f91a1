import CStrataServerGlue
import Glibc

/// The seat's idleness, for ext_idle_notifier_v1 (swayidle) and zwp_idle_inhibit_manager_v1
/// (a video player keeping the screen on).
///
/// A notification becomes idle when no activity happened for its timeout since it was made;
/// activity is any input through the seat (`inputDidHappen`, called by every injection path:
/// backends, tests, the control socket, virtual devices) and, for notifications made with
/// get_idle_notification (not get_input_idle_notification), a visible surface with an idle
/// inhibitor. Input resumes the idle notifications and restarts every countdown.
///
/// Costs: input is O(1) unless some notification is idle (then each idle one is resumed, once);
/// one timerfd on the loop is armed for the earliest deadline, and only its expiry walks the
/// notifications (at most `ClientBudget.maxIdleNotificationsPerClient` per client) and, when a
/// notification that respects inhibitors is due, the inhibitors (at most
/// `ClientBudget.maxIdleInhibitorsPerClient` per client). Making or destroying either is O(1).
public final class IdleTracker {
    private unowned let display: Display
    /// Now, in CLOCK_MONOTONIC nanoseconds. Tests replace it to drive the timers without sleeping
    /// (then call `deadlineDidPass()` for the timer's expiry).
    public var clock: () -> UInt64 = IdleTracker.monotonicNanoseconds
    private var notifications: [IdleNotification] = []
    private var inhibitors: [IdleInhibitor] = []
    /// How many notifications are idle now (input resumes them only when there are some).
    private var idleCount = 0
    /// The last input, and the last moment an inhibitor was seen holding idle off.
    private var lastInput: UInt64 = 0
    private var lastInhibited: UInt64 = 0
    /// The deadline the timer is armed for (nil: disarmed).
    public private(set) var armedDeadline: UInt64?
    private var timer: EventSource?
    private var timerFD: Int32 = -1

    /// Makes the timer (tests: a descriptor the loop cannot watch).
    var makeTimerFD: () -> Int32 = { strata_timerfd_create() }

    init(display: Display) { self.display = display }

    deinit { stop() }

    /// Ends the timer (the compositor's teardown, before the loop goes).
    func stop() {
        timer?.remove()
        timer = nil
        if timerFD >= 0 { Descriptors.close(timerFD) }
        timerFD = -1
        armedDeadline = nil
    }

    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// How many notifications and inhibitors are live (tests, leak checks).
    public var notificationCount: Int { notifications.count }
    public var inhibitorCount: Int { inhibitors.count }

    // MARK: Activity

    /// User input happened: idle notifications resume and every countdown restarts.
    public func inputDidHappen() {
        lastInput = clock()
        if idleCount > 0 {
            idleCount = 0
            for notification in notifications where notification.isIdle { notification.resume() }
        }
        // Input only moves deadlines later: an armed timer stays right (its expiry looks again).
        if armedDeadline == nil { scheduleNext() }
    }

    /// Whether a visible surface holds idle off now.
    public var isInhibited: Bool { inhibitors.contains { $0.isEffective } }

    // MARK: Notifications and inhibitors

    func add(_ notification: IdleNotification) {
        notification.index = notifications.count
        notification.createdAt = clock()
        notifications.append(notification)
        let deadline = self.deadline(of: notification)
        if armedDeadline.map({ deadline < $0 }) ?? true { arm(for: deadline) }
    }

    func remove(_ notification: IdleNotification) {
        guard let index = notification.index, index < notifications.count, notifications[index] === notification else {
            return
        }
        if notification.isIdle { idleCount -= 1 }
        let last = notifications.removeLast()
        if last !== notification {
            notifications[index] = last
            last.index = index
        }
        notification.index = nil
    }

    func add(_ inhibitor: IdleInhibitor) {
        inhibitor.index = inhibitors.count
        inhibitors.append(inhibitor)
    }

    func remove(_ inhibitor: IdleInhibitor) {
        guard let index = inhibitor.index, index < inhibitors.count, inhibitors[index] === inhibitor else { return }
        // The time it held idle off ends now: countdowns of notifications that respect
        // inhibitors start again from here.
        if inhibitor.isEffective { lastInhibited = clock() }
        let last = inhibitors.removeLast()
        if last !== inhibitor {
            inhibitors[index] = last
            last.index = index
        }
        inhibitor.index = nil
    }

    // MARK: The timer

    /// While an inhibitor holds a notification off, it is looked at again after its timeout but
    /// at least this long after (a zero timeout would otherwise spin the loop): inhibitors lose
    /// their effect by their surface being hidden, which is not watched, so a short notification
    /// may become idle up to this long after the inhibitor stopped.
    public static let inhibitedRecheckNanoseconds: UInt64 = 1_000_000_000

    /// When `notification` becomes idle if nothing else happens: its timeout after the latest of
    /// its creation, the last input and (unless it ignores inhibitors) the last inhibited moment.
    private func deadline(of notification: IdleNotification) -> UInt64 {
        let start = max(notification.createdAt, lastInput)
        var timeout = notification.timeoutNanoseconds
        var from = start
        if notification.respectsInhibitors, lastInhibited >= start, lastInhibited > 0 {
            from = lastInhibited
            timeout = max(timeout, Self.inhibitedRecheckNanoseconds)
        }
        let (sum, overflow) = from.addingReportingOverflow(timeout)
        return overflow ? .max : sum
    }

    /// The timer's expiry (tests call it after moving `clock` on): every notification whose
    /// deadline passed becomes idle, unless it respects inhibitors and a visible surface holds
    /// idle off (then that moment counts as activity for it); the timer is armed for the next.
    public func deadlineDidPass() {
        armedDeadline = nil
        let now = clock()
        var inhibited: Bool?
        for notification in notifications where !notification.isIdle && deadline(of: notification) <= now {
            if notification.respectsInhibitors {
                if inhibited == nil { inhibited = isInhibited }
                if inhibited == true {
                    lastInhibited = now
                    continue
                }
            }
            notification.becomeIdle()
            idleCount += 1
        }
        scheduleNext()
    }

    private func scheduleNext() {
        var earliest: UInt64?
        for notification in notifications where !notification.isIdle {
            let deadline = self.deadline(of: notification)
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        if let earliest { arm(for: earliest) } else { disarm() }
    }

    private func arm(for deadline: UInt64) {
        if timer == nil {
            timerFD = makeTimerFD()
            guard timerFD >= 0 else { return }
            timer = EventSource(display: display, fd: timerFD) { [unowned self] _ in
                var expirations: UInt64 = 0
                _ = read(timerFD, &expirations, 8)
                deadlineDidPass()
            }
            // A timer the loop cannot watch is closed now: kept, the next arming would make
            // another over it (a descriptor leaked per notification, at the descriptor limit).
            if timer == nil {
                Descriptors.close(timerFD)
                timerFD = -1
                return
            }
        }
        guard timerFD >= 0 else { return }
        armedDeadline = deadline
        let now = clock()
        // At least 1 ns: 0 would disarm the timer.
        _ = strata_timerfd_arm(timerFD, deadline > now ? deadline - now : 1, 0)
    }

    private func disarm() {
        armedDeadline = nil
        if timerFD >= 0 { _ = strata_timerfd_arm(timerFD, 0, 0) }
    }
}
