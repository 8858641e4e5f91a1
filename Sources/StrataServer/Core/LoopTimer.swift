import CWaylandServer

/// A timer on the event loop that calls `fire` each time it expires (never from another
/// thread); `schedule` arms it, `cancel` (or the timer going) removes it from the loop.
public final class LoopTimer {
    private var source: OpaquePointer?
    private let fire: () -> Void

    /// nil when the loop refuses a timer.
    public init?(eventLoop: OpaquePointer, fire: @escaping () -> Void) {
        self.fire = fire
        source = wl_event_loop_add_timer(
            eventLoop,
            { data in
                guard let data else { return 0 }
                Unmanaged<LoopTimer>.fromOpaque(data).takeUnretainedValue().fire()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        if source == nil { return nil }
    }

    deinit { cancel() }

    /// Fires once, `milliseconds` from now (at least 1).
    public func schedule(milliseconds: Int32) {
        if let source { wl_event_source_timer_update(source, max(1, milliseconds)) }
    }

    public func cancel() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }
}
