import CStrataClientGlue
import CWaylandClient
import Foundation

/// An xdg_toplevel in a test client: a wl_surface, its xdg_surface and toplevel, and a record of
/// everything the compositor sent (configure sequences with their states and serials, bounds,
/// capabilities, close), with the steps of the configure/ack/commit dance.
public final class TestToplevel {
    /// One complete configure sequence (ended by xdg_surface.configure).
    public struct Configure {
        public var serial: UInt32
        public var width: Int32
        public var height: Int32
        /// xdg_toplevel.state values.
        public var states: [UInt32]
        public func has(_ state: xdg_toplevel_state) -> Bool { states.contains(state.rawValue) }
    }

    public let shell: TestXdgShell
    public let surface: OpaquePointer
    public let xdgSurface: OpaquePointer
    public let toplevel: OpaquePointer
    public private(set) var configures: [Configure] = []
    /// Event names in arrival order ("wm_capabilities", "configure_bounds", "configure",
    /// "xdg_surface.configure", "close").
    public private(set) var events: [String] = []
    public private(set) var capabilities: [UInt32]?
    public private(set) var bounds: (width: Int32, height: Int32)?
    public private(set) var closeRequests = 0
    /// The buffer last attached by `map`/`attach`, kept alive while it may be read.
    public private(set) var buffer: TestBuffer?
    private var latched: (width: Int32, height: Int32, states: [UInt32])?

    init?(shell: TestXdgShell) {
        guard let surface = wl_compositor_create_surface(shell.compositor),
            let xdgSurface = xdg_wm_base_get_xdg_surface(shell.wmBase, surface),
            let toplevel = xdg_surface_get_toplevel(xdgSurface)
        else { return nil }
        self.shell = shell
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, &Self.surfaceListener, me)
        xdg_toplevel_add_listener(toplevel, &Self.toplevelListener, me)
    }

    deinit {
        // The buffer's destructor sends requests: it goes while `shell` (and so the connection)
        // is still held, whatever order Swift releases the stored properties in.
        buffer = nil
        // Events that still arrive for these proxies find no object and are dropped.
        if !isXdgSurfaceDestroyed { wl_proxy_set_user_data(xdgSurface, nil) }
        if !isToplevelDestroyed { wl_proxy_set_user_data(toplevel, nil) }
    }

    // Destroy the proxies through these (not the raw requests): a destroyed proxy is freed, and
    // the helper must not touch it afterwards.
    public private(set) var isToplevelDestroyed = false
    public private(set) var isXdgSurfaceDestroyed = false
    public private(set) var isSurfaceDestroyed = false

    public func destroyToplevel() {
        guard !isToplevelDestroyed else { return }
        isToplevelDestroyed = true
        xdg_toplevel_destroy(toplevel)
    }

    public func destroyXdgSurface() {
        guard !isXdgSurfaceDestroyed else { return }
        isXdgSurfaceDestroyed = true
        xdg_surface_destroy(xdgSurface)
    }

    public func destroySurface() {
        guard !isSurfaceDestroyed else { return }
        isSurfaceDestroyed = true
        wl_surface_destroy(surface)
    }

    public var client: TestClient { shell.client }
    public var lastConfigure: Configure? { configures.last }
    public var isActivated: Bool { lastConfigure?.has(XDG_TOPLEVEL_STATE_ACTIVATED) ?? false }

    public func commit() { wl_surface_commit(surface) }

    /// Acknowledges `serial`, or the last configure's.
    public func ack(_ serial: UInt32? = nil) {
        guard let serial = serial ?? lastConfigure?.serial else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
    }

    /// Attaches `buffer` (nil: a null buffer) and damages the whole surface.
    public func attach(_ buffer: TestBuffer?) {
        self.buffer = buffer
        wl_surface_attach(surface, buffer?.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
    }

    /// The initial commit without a buffer, then a roundtrip; true when a configure came back.
    @discardableResult
    public func commitInitial() -> Bool {
        let before = configures.count
        commit()
        return client.roundtrip() && configures.count > before
    }

    /// The whole dance: initial commit, ack, a buffer of one colour (the configured size, or
    /// `width`×`height` when the configure leaves it to the client), commit, roundtrip.
    /// Returns false if the connection failed.
    @discardableResult
    public func map(width: Int32 = 100, height: Int32 = 100, argb: UInt32) -> Bool {
        guard commitInitial(), let configure = lastConfigure else { return false }
        ack(configure.serial)
        let w = configure.width > 0 ? configure.width : width
        let h = configure.height > 0 ? configure.height : height
        guard let buffer = shell.makeBuffer(width: w, height: h, argb: argb) else { return false }
        attach(buffer)
        commit()
        return client.roundtrip()
    }

    /// Attaches a null buffer and commits (unmaps), then a roundtrip.
    @discardableResult
    public func unmap() -> Bool {
        attach(nil)
        commit()
        return client.roundtrip()
    }

    /// Acks the last configure and commits a new buffer of its size (or the given one).
    @discardableResult
    public func ackAndRedraw(width: Int32 = 100, height: Int32 = 100, argb: UInt32) -> Bool {
        guard let configure = lastConfigure else { return false }
        ack(configure.serial)
        let w = configure.width > 0 ? configure.width : width
        let h = configure.height > 0 ? configure.height : height
        guard let buffer = shell.makeBuffer(width: w, height: h, argb: argb) else { return false }
        attach(buffer)
        commit()
        return client.roundtrip()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestToplevel? {
        data.map { Unmanaged<TestToplevel>.fromOpaque($0).takeUnretainedValue() }
    }

    static func values(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt32] {
        guard let array, let data = array.pointee.data else { return [] }
        let count = array.pointee.size / MemoryLayout<UInt32>.size
        return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
    }

    private static var surfaceListener = xdg_surface_listener(configure: { data, _, serial in
        guard let me = from(data) else { return }
        me.events.append("xdg_surface.configure")
        let latched = me.latched ?? (me.lastConfigure.map { ($0.width, $0.height, $0.states) } ?? (0, 0, []))
        me.configures.append(Configure(serial: serial, width: latched.0, height: latched.1, states: latched.2))
        me.latched = nil
    })

    private static var toplevelListener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            guard let me = from(data) else { return }
            me.events.append("configure")
            me.latched = (width, height, values(states))
        },
        close: { data, _ in
            guard let me = from(data) else { return }
            me.events.append("close")
            me.closeRequests += 1
        },
        configure_bounds: { data, _, width, height in
            guard let me = from(data) else { return }
            me.events.append("configure_bounds")
            me.bounds = (width, height)
        },
        wm_capabilities: { data, _, capabilities in
            guard let me = from(data) else { return }
            me.events.append("wm_capabilities")
            me.capabilities = values(capabilities)
        })
}
