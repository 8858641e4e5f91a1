import CStrataClientGlue
import CWaylandClient
import Foundation

/// An xdg_popup in a test client, recording its configure sequences, repositioned tokens and
/// popup_done.
public final class TestPopup {
    /// One complete configure sequence: the position relative to the parent's window geometry.
    public struct Configure {
        public var serial: UInt32
        public var x: Int32
        public var y: Int32
        public var width: Int32
        public var height: Int32
    }

    public let shell: TestXdgShell
    public let surface: OpaquePointer
    public let xdgSurface: OpaquePointer
    public let popup: OpaquePointer
    public private(set) var configures: [Configure] = []
    public private(set) var repositionedTokens: [UInt32] = []
    public private(set) var doneCount = 0
    /// Event names in arrival order ("repositioned", "configure", "xdg_surface.configure", "popup_done").
    public private(set) var events: [String] = []
    public private(set) var buffer: TestBuffer?
    private var latched: (x: Int32, y: Int32, width: Int32, height: Int32)?

    init?(shell: TestXdgShell, parent: OpaquePointer?, positioner: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(shell.compositor),
            let xdgSurface = xdg_wm_base_get_xdg_surface(shell.wmBase, surface),
            let popup = xdg_surface_get_popup(xdgSurface, parent, positioner)
        else { return nil }
        self.shell = shell
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.popup = popup
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, &Self.surfaceListener, me)
        xdg_popup_add_listener(popup, &Self.popupListener, me)
    }

    deinit {
        if !isXdgSurfaceDestroyed { wl_proxy_set_user_data(xdgSurface, nil) }
        if !isPopupDestroyed { wl_proxy_set_user_data(popup, nil) }
    }

    // Destroy the proxies through these (not the raw requests): a destroyed proxy is freed, and
    // the helper must not touch it afterwards.
    public private(set) var isPopupDestroyed = false
    public private(set) var isXdgSurfaceDestroyed = false
    public private(set) var isSurfaceDestroyed = false

    public func destroyPopup() {
        guard !isPopupDestroyed else { return }
        isPopupDestroyed = true
        xdg_popup_destroy(popup)
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
    public var isDone: Bool { doneCount > 0 }

    public func commit() { wl_surface_commit(surface) }

    public func ack(_ serial: UInt32? = nil) {
        guard let serial = serial ?? lastConfigure?.serial else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
    }

    public func attach(_ buffer: TestBuffer?) {
        self.buffer = buffer
        wl_surface_attach(surface, buffer?.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
    }

    /// The initial commit, then a roundtrip; true when a configure came back.
    @discardableResult
    public func commitInitial() -> Bool {
        let before = configures.count
        commit()
        return client.roundtrip() && configures.count > before
    }

    /// Initial commit, ack, a buffer of the configured size in one colour, commit, roundtrip.
    @discardableResult
    public func map(argb: UInt32) -> Bool {
        guard commitInitial() else { return false }
        return ackAndRedraw(argb: argb)
    }

    /// Acks the last configure and commits a buffer of its size.
    @discardableResult
    public func ackAndRedraw(argb: UInt32) -> Bool {
        guard let configure = lastConfigure, configure.width > 0, configure.height > 0,
            let buffer = shell.makeBuffer(width: configure.width, height: configure.height, argb: argb)
        else { return false }
        ack(configure.serial)
        attach(buffer)
        commit()
        return client.roundtrip()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestPopup? {
        data.map { Unmanaged<TestPopup>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var surfaceListener = xdg_surface_listener(configure: { data, _, serial in
        guard let me = from(data) else { return }
        me.events.append("xdg_surface.configure")
        let l = me.latched ?? (me.lastConfigure.map { ($0.x, $0.y, $0.width, $0.height) } ?? (0, 0, 0, 0))
        me.configures.append(Configure(serial: serial, x: l.0, y: l.1, width: l.2, height: l.3))
        me.latched = nil
    })

    private static var popupListener = xdg_popup_listener(
        configure: { data, _, x, y, width, height in
            guard let me = from(data) else { return }
            me.events.append("configure")
            me.latched = (x, y, width, height)
        },
        popup_done: { data, _ in
            guard let me = from(data) else { return }
            me.events.append("popup_done")
            me.doneCount += 1
        },
        repositioned: { data, _, token in
            guard let me = from(data) else { return }
            me.events.append("repositioned")
            me.repositionedTokens.append(token)
        })
}
