import CStrataClientGlue
import CWaylandClient

/// A test client's zxdg_imported_v2 (or v1), counting its `destroyed` events.
public final class TestImported {
    public let object: OpaquePointer
    public let isVersion1: Bool
    public private(set) var destroyedEvents = 0
    public private(set) var isDestroyed = false

    init(object: OpaquePointer, isVersion1: Bool) {
        self.object = object
        self.isVersion1 = isVersion1
        let me = Unmanaged.passUnretained(self).toOpaque()
        if isVersion1 {
            zxdg_imported_v1_add_listener(object, &Self.listenerV1, me)
        } else {
            zxdg_imported_v2_add_listener(object, &Self.listenerV2, me)
        }
    }

    deinit {
        if !isDestroyed { wl_proxy_set_user_data(object, nil) }
    }

    /// set_parent_of: the imported toplevel becomes the parent of `surface`'s toplevel.
    public func setParent(of surface: OpaquePointer) {
        if isVersion1 {
            zxdg_imported_v1_set_parent_of(object, surface)
        } else {
            zxdg_imported_v2_set_parent_of(object, surface)
        }
    }

    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if isVersion1 { zxdg_imported_v1_destroy(object) } else { zxdg_imported_v2_destroy(object) }
    }

    private static func record(_ data: UnsafeMutableRawPointer?) {
        guard let data else { return }
        Unmanaged<TestImported>.fromOpaque(data).takeUnretainedValue().destroyedEvents += 1
    }

    private static var listenerV2 = zxdg_imported_v2_listener(destroyed: { data, _ in record(data) })
    private static var listenerV1 = zxdg_imported_v1_listener(destroyed: { data, _ in record(data) })
}
