import CStrataServerGlue
import CWaylandServer

/// A file descriptor watched by the display's event loop (`wl_event_loop_add_fd`): the nested
/// backends' connections to their parent session, and anything else that must be read on the
/// loop's one thread.
///
/// The creator owns it: the fd is watched until `remove()` or deinit. The fd itself is not
/// closed (its owner closes it after removing the source). The handler may call `remove()`.
public final class EventSource {
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: UInt32(WL_EVENT_READABLE))
        public static let writable = Events(rawValue: UInt32(WL_EVENT_WRITABLE))
        /// Reported whether asked for or not.
        public static let hangup = Events(rawValue: UInt32(WL_EVENT_HANGUP))
        /// Reported whether asked for or not.
        public static let error = Events(rawValue: UInt32(WL_EVENT_ERROR))
    }

    public let fd: Int32
    public private(set) var events: Events
    private var source: OpaquePointer?
    private let handler: (Events) -> Void

    /// Watches `fd` for `events` on `display`'s loop; `handler` gets what happened.
    public init?(display: Display, fd: Int32, events: Events = .readable, handler: @escaping (Events) -> Void) {
        display.assertOnLoop()
        self.fd = fd
        self.events = events
        self.handler = handler
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard
            let source = wl_event_loop_add_fd(
                display.eventLoop, fd, events.rawValue,
                { _, mask, data in
                    guard let data else { return 0 }
                    let source = Unmanaged<EventSource>.fromOpaque(data).takeUnretainedValue()
                    // Keep the source alive through the handler, which may drop its owner's reference.
                    withExtendedLifetime(source) { source.handler(Events(rawValue: mask)) }
                    return 0
                }, me)
        else { return nil }
        self.source = source
    }

    deinit { remove() }

    /// Changes what is watched (e.g. add `.writable` while a flush is incomplete).
    public func update(_ events: Events) {
        guard let source, events != self.events else { return }
        self.events = events
        wl_event_source_fd_update(source, events.rawValue)
    }

    /// Stops watching; safe to call twice and from the handler.
    public func remove() {
        guard let source else { return }
        self.source = nil
        wl_event_source_remove(source)
    }

    public var isActive: Bool { source != nil }
}
