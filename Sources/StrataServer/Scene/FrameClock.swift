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
final class FrameClock {
    private let fd: Int32
    private var source: EventSource?
    /// The period it ticks at while running, in nanoseconds (0: stopped).
    private(set) var periodNanoseconds: UInt64 = 0
    var isRunning: Bool { periodNanoseconds != 0 }

    /// Nil when the kernel gives no timerfd (the caller goes on without a frame clock: frames
    /// are then painted only on demand).
    init?(display: Display, onTick: @escaping () -> Void) {
        fd = strata_timerfd_create()
        guard fd >= 0 else { return nil }
        let fd = fd
        source = EventSource(display: display, fd: fd) { _ in
            // Clear the expirations (several when the loop was late: one frame for all of them).
            var expirations: UInt64 = 0
            _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
            onTick()
        }
        guard source != nil else {
            close(fd)
            return nil
        }
    }

    deinit {
        source?.remove()
        close(fd)
    }

    /// Ticks after `delay` nanoseconds (at least 1), then every `period` (a screen's refresh
    /// period: 16,666,667 ns at 60 Hz). Running at that period already, it keeps its phase.
    func start(afterNanoseconds delay: UInt64, periodNanoseconds period: UInt64) {
        let period = max(1, period)
        guard period != periodNanoseconds else { return }
        periodNanoseconds = period
        arm(first: max(1, delay), interval: period)
    }

    /// No more ticks until the next `start`.
    func stop() {
        guard isRunning else { return }
        periodNanoseconds = 0
        arm(first: 0, interval: 0)
    }

    private func arm(first: UInt64, interval: UInt64) {
        _ = strata_timerfd_arm(fd, first, interval)
    }
}
