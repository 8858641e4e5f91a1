import CStrataClientGlue
import CWaylandClient
import Foundation

/// A zwlr_layer_surface_v1 in a test client (its own zwlr_layer_shell_v1 binding), recording
/// configure sizes and `closed`.
public final class TestLayerSurface {
    public struct Configure: Equatable {
        public var serial: UInt32
        public var width: UInt32
        public var height: UInt32
    }

    public let shell: TestXdgShell
    public let layerShell: OpaquePointer
    public let surface: OpaquePointer
    public let layerSurface: OpaquePointer
    public private(set) var configures: [Configure] = []
    public private(set) var closedCount = 0
    public private(set) var buffer: TestBuffer?
    public private(set) var isLayerSurfaceDestroyed = false

    /// layer: 0 background, 1 bottom, 2 top, 3 overlay.
    public init?(shell: TestXdgShell, layer: UInt32, namespace: String = "test", output: OpaquePointer? = nil) {
        guard let layerShell = try? shell.client.bind(zwlr_layer_shell_v1_interface_ptr()),
            let surface = wl_compositor_create_surface(shell.compositor),
            let layerSurface = zwlr_layer_shell_v1_get_layer_surface(layerShell, surface, output, layer, namespace)
        else { return nil }
        self.shell = shell
        self.layerShell = layerShell
        self.surface = surface
        self.layerSurface = layerSurface
        zwlr_layer_surface_v1_add_listener(layerSurface, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if !isLayerSurfaceDestroyed { wl_proxy_set_user_data(layerSurface, nil) }
    }

    public var client: TestClient { shell.client }
    public var lastConfigure: Configure? { configures.last }

    public func setSize(_ width: UInt32, _ height: UInt32) {
        zwlr_layer_surface_v1_set_size(layerSurface, width, height)
    }
    public func setAnchor(_ anchor: UInt32) { zwlr_layer_surface_v1_set_anchor(layerSurface, anchor) }
    public func setExclusiveZone(_ zone: Int32) { zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, zone) }
    public func setMargin(top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0, left: Int32 = 0) {
        zwlr_layer_surface_v1_set_margin(layerSurface, top, right, bottom, left)
    }
    public func setKeyboardInteractivity(_ value: UInt32) {
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, value)
    }

    public func destroyLayerSurface() {
        guard !isLayerSurfaceDestroyed else { return }
        isLayerSurfaceDestroyed = true
        zwlr_layer_surface_v1_destroy(layerSurface)
    }

    /// Initial commit, ack of the configure, a buffer of the configured size (or the given one
    /// where the configure says 0), commit, roundtrip. Returns false if the connection failed.
    @discardableResult
    public func map(width: Int32 = 100, height: Int32 = 100, argb: UInt32) -> Bool {
        let before = configures.count
        wl_surface_commit(surface)
        guard client.roundtrip(), configures.count > before, let configure = lastConfigure else { return false }
        zwlr_layer_surface_v1_ack_configure(layerSurface, configure.serial)
        let w = configure.width > 0 ? Int32(clamping: configure.width) : width
        let h = configure.height > 0 ? Int32(clamping: configure.height) : height
        guard let buffer = shell.makeBuffer(width: w, height: h, argb: argb) else { return false }
        self.buffer = buffer
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, w, h)
        wl_surface_commit(surface)
        return client.roundtrip()
    }

    private static var listener = zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in
            guard let data else { return }
            let me = Unmanaged<TestLayerSurface>.fromOpaque(data).takeUnretainedValue()
            me.configures.append(Configure(serial: serial, width: width, height: height))
        },
        closed: { data, _ in
            guard let data else { return }
            Unmanaged<TestLayerSurface>.fromOpaque(data).takeUnretainedValue().closedCount += 1
        })
}
