import CStrataServerGlue
import CWaylandServer

/// A `wl_listener` owned by a Swift object. It is removed when `remove()` is called or when the
/// Listener is deinitialised, so a listener never outlives its owner. Emission survives a
/// listener removing itself (libwayland's wl_signal_emit keeps the next link before calling).
public final class Listener {
    private let raw: UnsafeMutablePointer<strata_listener>
    private let callback: (UnsafeMutableRawPointer?) -> Void

    public init?(_ callback: @escaping (UnsafeMutableRawPointer?) -> Void) {
        self.callback = callback
        guard
            let raw = strata_listener_create(
                nil,
                { owner, data in
                    guard let owner else { return }
                    Unmanaged<Listener>.fromOpaque(owner).takeUnretainedValue().callback(data)
                })
        else { return nil }
        self.raw = raw
        raw.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { strata_listener_destroy(raw) }

    public func remove() { strata_listener_remove(raw) }

    public func listen(toResourceDestroy resource: OpaquePointer) { strata_listener_add_to_resource(raw, resource) }
    public func listen(toClientDestroy client: OpaquePointer) { strata_listener_add_to_client(raw, client) }
    public func listen(toDisplayDestroy display: OpaquePointer) { strata_listener_add_to_display(raw, display) }
    /// Told of every new client of `display` (the callback's data is the wl_client).
    public func listen(toClientCreated display: OpaquePointer) { strata_listener_add_to_client_created(raw, display) }
    public func listen(to signal: UnsafeMutablePointer<wl_signal>) { strata_listener_add_to_signal(raw, signal) }
}
