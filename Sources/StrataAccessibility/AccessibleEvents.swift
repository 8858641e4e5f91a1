import CAtspi

/// Waits for the toolkits to say their trees changed (AT-SPI events: a child added or removed, a
/// name, a state, a window created), so that a search waiting for an element runs again when
/// something changed rather than on a timer. A toolkit that sends no event is still searched
/// again after `fallback` seconds.
public final class AccessibleEvents {
    /// The events that may make a search's answer change.
    public static let types = [
        "object:children-changed", "object:property-change:accessible-name", "object:state-changed",
        "object:text-changed", "window:create", "window:activate",
    ]

    private var listener: UnsafeMutablePointer<AtspiEventListener>?
    private var changed = false

    public init() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = atspi_event_listener_new(
            { event, data in
                if let event { g_boxed_free(atspi_event_get_type(), UnsafeMutableRawPointer(event)) }
                guard let data else { return }
                Unmanaged<AccessibleEvents>.fromOpaque(data).takeUnretainedValue().changed = true
            }, me, nil)
        for type in Self.types { atspi_event_listener_register(listener, type, nil) }
    }

    deinit {
        for type in Self.types { atspi_event_listener_deregister(listener, type, nil) }
        if let listener { g_object_unref(UnsafeMutableRawPointer(listener)) }
    }

    /// Runs libatspi's events until one of `types` arrives or `seconds` pass; whether one came.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        changed = false
        let timedOut = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        timedOut.initialize(to: false)
        defer { timedOut.deallocate() }
        let milliseconds = UInt32(max(1, min(60_000, (seconds * 1000).rounded())))
        let source = g_timeout_add(
            milliseconds,
            { data in
                data?.assumingMemoryBound(to: Bool.self).pointee = true
                return 0  // G_SOURCE_REMOVE
            }, timedOut)
        while !changed, !timedOut.pointee { g_main_context_iteration(nil, 1) }
        if !timedOut.pointee { g_source_remove(source) }
        return changed
    }
}
