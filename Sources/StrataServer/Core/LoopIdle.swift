import CWaylandServer

/// Work for the loop's next idle turn (never from another thread): `schedule` adds it once
/// until it has run, `cancel` (or the idle going) removes a pending one. Its owner keeps it and
/// cancels it before the display goes (a pending idle is not freed with the loop); the loop
/// holds it unretained.
public final class LoopIdle {
    private let eventLoop: OpaquePointer
    private var source: OpaquePointer?
    private let run: () -> Void

    public init(eventLoop: OpaquePointer, run: @escaping () -> Void) {
        self.eventLoop = eventLoop
        self.run = run
    }

    deinit { cancel() }

    /// Whether it waits for the loop's next idle turn.
    public var isScheduled: Bool { source != nil }

    /// Runs `run` on the loop's next idle turn (once, however often it is scheduled before).
    public func schedule() {
        guard source == nil else { return }
        source = wl_event_loop_add_idle(
            eventLoop,
            { data in
                guard let data else { return }
                let idle = Unmanaged<LoopIdle>.fromOpaque(data).takeUnretainedValue()
                idle.source = nil  // libwayland removes a source once it has run
                idle.run()
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    public func cancel() {
        if let source { wl_event_source_remove(source) }
        source = nil
    }
}
