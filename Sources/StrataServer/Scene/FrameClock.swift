import CStrataServerGlue
import Glibc

/// A screen's frame clock: a periodic timerfd on the display's loop, ticking at the refresh
/// period while frames are wanted, like a display's vertical blank.
///
/// Armed once when frames start (`start`) and left running: the kernel re-arms a periodic timer
/// itself, so a steady stream of frames costs one `read` of the timerfd a frame and no
/// `timerfd_settime` (a one-shot timer is disarmed after each tick and armed again at the next
/// commit: two system calls a frame, each reprogramming the timer hardware, which in a virtual
/// machine is a trip to the hypervisor). The owner stops it (`stop`) at a tick that finds nothing
/// to do, so an idle screen has no timer at all.
///
/// Under a manual `Clock` there is no timer: the clock keeps a deadline and `Clock.step` ticks
/// it when the virtual time reaches it.
final class FrameClock {
    private let fd: Int32
    private var source: EventSource?
    private let onTick: () -> Void
    /// The period it ticks at while running, in nanoseconds (0: stopped).
    private(set) var periodNanoseconds: UInt64 = 0
    var isRunning: Bool { periodNanoseconds != 0 }
    /// Manual mode: the virtual time of the next tick while running (nil: stopped, or realtime).
    private(set) var manualDeadline: UInt64?
    private let isManual: Bool

    /// Nil when the kernel gives no timerfd or the loop cannot watch it (the caller goes on
    /// without a frame clock: frames are then painted only on demand). `timerFD` (tests) is the
    /// timer to use instead of a new one, under a realtime clock; either way the clock owns it:
    /// closed once, by the failed init or by deinit.
    init?(display: Display, clock: Clock, timerFD: Int32? = nil, onTick: @escaping () -> Void) {
        self.onTick = onTick
        isManual = clock.isManual
        if isManual {
            fd = -1
            clock.register(self)
            return
        }
        let fd = timerFD ?? strata_timerfd_create()
        guard fd >= 0 else { return nil }
        let source = EventSource(display: display, fd: fd) { _ in
            // Clear the expirations (several when the loop was late: one frame for all of them).
            var expirations: UInt64 = 0
            _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
            onTick()
        }
        // `self.fd` is set only once the timer is watched: a failure before it is a failure
        // before full initialization, so deinit does not run and close the timer a second time.
        guard let source else {
            Descriptors.close(fd)
            return nil
        }
        self.fd = fd
        self.source = source
    }

    deinit {
        source?.remove()
        if fd >= 0 { Descriptors.close(fd) }
    }

    /// Ticks after `delay` nanoseconds (at least 1), then every `period` (a screen's refresh
    /// period: 16,666,667 ns at 60 Hz). Running at that period already, it keeps its phase.
    /// `now` is the clock's time (the manual deadline is counted from it).
    func start(afterNanoseconds delay: UInt64, periodNanoseconds period: UInt64, now: UInt64 = 0) {
        let period = max(1, period)
        guard period != periodNanoseconds else { return }
        periodNanoseconds = period
        if isManual {
            manualDeadline = now &+ max(1, delay)
        } else {
            arm(first: max(1, delay), interval: period)
        }
    }

    /// No more ticks until the next `start`.
    func stop() {
        guard isRunning else { return }
        periodNanoseconds = 0
        if isManual {
            manualDeadline = nil
        } else {
            arm(first: 0, interval: 0)
        }
    }

    /// Manual mode: the virtual time reached the deadline (`Clock.step`).
    func manualTick(now: UInt64) {
        guard let deadline = manualDeadline, deadline <= now else { return }
        // The next deadline a period on, as a periodic timer keeps its phase.
        var next = deadline &+ periodNanoseconds
        if next <= now { next = now &+ periodNanoseconds }
        manualDeadline = next
        onTick()
    }

    private func arm(first: UInt64, interval: UInt64) {
        _ = strata_timerfd_arm(fd, first, interval)
    }
}
