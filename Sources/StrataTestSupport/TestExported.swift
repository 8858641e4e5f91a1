import CStrataClientGlue
import CWaylandClient

/// A test client's zxdg_exported_v2 (or v1), holding the handle it was given.
public final class TestExported {
    public let object: OpaquePointer
    public let isVersion1: Bool
    public private(set) var handle: String?
    public private(set) var handleEvents = 0
    public private(set) var isDestroyed = false

    init(object: OpaquePointer, isVersion1: Bool) {
        self.object = object
        self.isVersion1 = isVersion1
        let me = Unmanaged.passUnretained(self).toOpaque()
        if isVersion1 {
            zxdg_exported_v1_add_listener(object, &Self.listenerV1, me)
        } else {
            zxdg_exported_v2_add_listener(object, &Self.listenerV2, me)
        }
    }

    deinit {
        if !isDestroyed { wl_proxy_set_user_data(object, nil) }
    }

    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if isVersion1 { zxdg_exported_v1_destroy(object) } else { zxdg_exported_v2_destroy(object) }
    }

    private static func record(_ data: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?) {
        guard let data else { return }
        let me = Unmanaged<TestExported>.fromOpaque(data).takeUnretainedValue()
        me.handle = text.map { String(cString: $0) }
        me.handleEvents += 1
    }

    private static var listenerV2 = zxdg_exported_v2_listener(handle: { data, _, text in record(data, text) })
    private static var listenerV1 = zxdg_exported_v1_listener(handle: { data, _, text in record(data, text) })
}
