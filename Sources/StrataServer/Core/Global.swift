import CWaylandServer

/// A `wl_global` whose bind calls a Swift closure. The Global owns itself through the
/// global's user data until `remove()`; removal follows the protocol's order: the global is
/// announced removed first and destroyed a while later, so a client racing a bind to a
/// just-removed global is not disconnected.
public final class Global {
    public typealias Bind = (_ client: OpaquePointer, _ version: UInt32, _ id: UInt32) -> Void
    private(set) var global: OpaquePointer?
    private let bind: Bind
    private var retained: Unmanaged<Global>?
    public let interfaceName: String
    public let version: UInt32
    /// When set, only clients for which this returns true see and bind the global (the
    /// display's global filter asks it; libwayland refuses binds to a hidden global).
    public var filter: ((OpaquePointer) -> Bool)? {
        didSet {
            if let global { display?.setFiltered(self, handle: global, filtered: filter != nil) }
        }
    }
    private weak var display: Display?

    public init?(display: Display, interface: UnsafePointer<wl_interface>, version: UInt32, bind: @escaping Bind) {
        self.bind = bind
        self.version = version
        self.interfaceName = String(cString: interface.pointee.name)
        let retained = Unmanaged.passRetained(self)
        guard
            let global = wl_global_create(
                display.display, interface, Int32(version), retained.toOpaque(),
                { client, data, version, id in
                    guard let client, let data else { return }
                    Unmanaged<Global>.fromOpaque(data).takeUnretainedValue().bind(client, version, id)
                })
        else {
            retained.release()
            return nil
        }
        self.retained = retained
        self.global = global
        self.display = display
    }

    /// Removes the global now and destroys it after `delay` seconds of the loop (libwayland
    /// ignores binds to a removed global; destroying it later avoids the race).
    public func remove(eventLoop: OpaquePointer, delay: Double = 5) {
        guard let global, pendingSource == nil else { return }
        wl_global_remove(global)
        let source = wl_event_loop_add_timer(
            eventLoop,
            { data in
                guard let data else { return 0 }
                Unmanaged<Global>.fromOpaque(data).takeUnretainedValue().destroyNow()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        if let source {
            wl_event_source_timer_update(source, Int32(delay * 1000))
            pendingSource = source
        } else {
            destroyNow()
        }
    }
    private var pendingSource: OpaquePointer?

    public var isRemoved: Bool { pendingSource != nil || global == nil }
    /// False once the wl_global is destroyed.
    public var isAlive: Bool { global != nil }

    /// Destroys the global at once (display teardown, or the delayed end of `remove`).
    public func destroyNow() {
        if let source = pendingSource {
            pendingSource = nil
            wl_event_source_remove(source)
        }
        if let global {
            self.global = nil
            display?.setFiltered(self, handle: global, filtered: false)
            wl_global_destroy(global)
        }
        // Last: this may release the final reference to self.
        let retained = self.retained
        self.retained = nil
        retained?.release()
    }
}
