import Glibc

/// The compositor's one source of time: frame times (frame callbacks, wp_presentation feedback,
/// screencopy), input event timestamps and the frame clocks' pacing all read it.
///
/// `.realtime` (the default) is CLOCK_MONOTONIC. `.manual` is a virtual clock that starts at 0
/// and moves only when asked (`step`, the control socket's `step`): the frame clocks do not run
/// on timers then, each step is one frame, so two runs of the same clients with the same steps
/// see the same times and draw the same pictures (docs/experiments.md, "A clock you can step").
public final class Clock {
    public enum Mode: String, CaseIterable, Sendable {
        case realtime, manual
    }

    public let mode: Mode
    private var virtualNanoseconds: UInt64 = 0
    /// Frame clocks ticking from this clock in manual mode (`FrameClock`), in the order they were
    /// made (screens in connection order).
    private var manualTickers: [Weak<FrameClock>] = []
    /// The step used when no frame clock is running (one frame at 60 Hz).
    public static let idleStepNanoseconds: UInt64 = 16_666_667

    public init(mode: Mode = .realtime) {
        self.mode = mode
    }

    public var isManual: Bool { mode == .manual }

    /// Now, in nanoseconds: CLOCK_MONOTONIC, or the virtual time.
    public var nanoseconds: UInt64 {
        guard mode == .realtime else { return virtualNanoseconds }
        return Self.monotonicNanoseconds()
    }

    /// Now in the 32-bit milliseconds of input events and frame callbacks (wrapping).
    public var milliseconds: UInt32 {
        UInt32(truncatingIfNeeded: nanoseconds / 1_000_000)
    }

    /// Now in microseconds (zwp_relative_pointer_v1's 64-bit timestamps).
    public var microseconds: UInt64 { nanoseconds / 1000 }

    /// Now as seconds and nanoseconds (wp_presentation, screencopy's `ready`).
    public var secondsAndNanoseconds: (seconds: UInt64, nanoseconds: UInt32) {
        let now = nanoseconds
        return (now / 1_000_000_000, UInt32(now % 1_000_000_000))
    }

    /// CLOCK_MONOTONIC in nanoseconds (what the realtime clock reads).
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(max(0, ts.tv_sec)) * 1_000_000_000 + UInt64(max(0, ts.tv_nsec))
    }

    // MARK: Manual mode

    /// Takes a frame clock that ticks from this clock (manual mode).
    func register(_ ticker: FrameClock) {
        manualTickers.removeAll { $0.value == nil }
        manualTickers.append(Weak(ticker))
    }

    /// Advances the virtual clock by `frames` frames and returns the time reached. One frame:
    /// the time moves to the earliest deadline of the running frame clocks (or by 1/60 s when
    /// none runs), and every frame clock due by then ticks. Nil under the realtime clock.
    @discardableResult
    public func step(frames: Int) -> UInt64? {
        guard mode == .manual else { return nil }
        for _ in 0..<max(0, frames) {
            var next: UInt64?
            for ticker in manualTickers {
                if let due = ticker.value?.manualDeadline { next = min(next ?? due, due) }
            }
            virtualNanoseconds = max(virtualNanoseconds, next ?? virtualNanoseconds &+ Self.idleStepNanoseconds)
            if next == nil { continue }
            // A tick may start or stop other clocks (or this one): walk a copy.
            let tickers = manualTickers
            for ticker in tickers {
                guard let clock = ticker.value, let due = clock.manualDeadline, due <= virtualNanoseconds else {
                    continue
                }
                clock.manualTick(now: virtualNanoseconds)
            }
        }
        return virtualNanoseconds
    }
}
