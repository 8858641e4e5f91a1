import CStrataClientGlue
import CWaylandClient
import Foundation

/// The legacy shells in a test client: zxdg_shell_v6 (answering pings by itself) and wl_shell,
/// next to the xdg-shell fixture's wl_compositor and wl_shm (`xdg`), with factories for their
/// surfaces.
public final class TestLegacyShells {
    public let xdg: TestXdgShell
    public let v6Shell: OpaquePointer
    public let wlShell: OpaquePointer

    public init(client: TestClient) throws {
        xdg = try TestXdgShell(client: client)
        v6Shell = try client.bind(zxdg_shell_v6_interface_ptr())
        wlShell = try client.bind(wl_shell_interface_ptr())
        zxdg_shell_v6_add_listener(v6Shell, &Self.v6Listener, nil)
    }

    private static var v6Listener = zxdg_shell_v6_listener(ping: { _, shell, serial in
        if let shell { zxdg_shell_v6_pong(shell, serial) }
    })

    public var client: TestClient { xdg.client }

    /// A zxdg_toplevel_v6 whose surface has no buffer and was not committed yet.
    public func makeV6Toplevel() -> TestV6Surface? {
        TestV6Surface(shells: self, parent: nil, positioner: nil)
    }

    /// A zxdg_popup_v6 of `parent` placed by `positioner` (v6 anchor and gravity bit masks).
    public func makeV6Popup(parent: TestV6Surface, positioner: OpaquePointer) -> TestV6Surface? {
        TestV6Surface(shells: self, parent: parent.xdgSurface, positioner: positioner)
    }

    /// A complete zxdg_positioner_v6.
    public func makeV6Positioner(
        width: Int32, height: Int32, anchorRect: (x: Int32, y: Int32, width: Int32, height: Int32),
        anchor: UInt32 = 0, gravity: UInt32 = 0
    ) -> OpaquePointer? {
        guard let positioner = zxdg_shell_v6_create_positioner(v6Shell) else { return nil }
        zxdg_positioner_v6_set_size(positioner, width, height)
        zxdg_positioner_v6_set_anchor_rect(positioner, anchorRect.x, anchorRect.y, anchorRect.width, anchorRect.height)
        zxdg_positioner_v6_set_anchor(positioner, anchor)
        zxdg_positioner_v6_set_gravity(positioner, gravity)
        return positioner
    }

    /// A wl_shell_surface for a new wl_surface (no mode set, no buffer).
    public func makeShellSurface() -> TestShellSurface? {
        TestShellSurface(shells: self)
    }
}

/// A zxdg_surface_v6 with its toplevel or popup in a test client, recording configures,
/// popup_done and close.
public final class TestV6Surface {
    public let shells: TestLegacyShells
    public let surface: OpaquePointer
    public let xdgSurface: OpaquePointer
    /// The zxdg_toplevel_v6 or zxdg_popup_v6.
    public let role: OpaquePointer
    public let isPopup: Bool
    /// Serials of xdg_surface.configure events, in order.
    public private(set) var serials: [UInt32] = []
    /// The last zxdg_toplevel_v6.configure: size and states.
    public private(set) var toplevelConfigure: (width: Int32, height: Int32, states: [UInt32])?
    /// The last zxdg_popup_v6.configure: position relative to the parent and size.
    public private(set) var popupConfigure: (x: Int32, y: Int32, width: Int32, height: Int32)?
    public private(set) var doneCount = 0
    public private(set) var closeRequests = 0
    public private(set) var buffer: TestBuffer?

    init?(shells: TestLegacyShells, parent: OpaquePointer?, positioner: OpaquePointer?) {
        guard let surface = wl_compositor_create_surface(shells.xdg.compositor),
            let xdgSurface = zxdg_shell_v6_get_xdg_surface(shells.v6Shell, surface)
        else { return nil }
        let role: OpaquePointer?
        if let parent, let positioner {
            role = zxdg_surface_v6_get_popup(xdgSurface, parent, positioner)
        } else {
            role = zxdg_surface_v6_get_toplevel(xdgSurface)
        }
        guard let role else { return nil }
        self.shells = shells
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.role = role
        self.isPopup = parent != nil
        let me = Unmanaged.passUnretained(self).toOpaque()
        zxdg_surface_v6_add_listener(xdgSurface, &Self.surfaceListener, me)
        if isPopup {
            zxdg_popup_v6_add_listener(role, &Self.popupListener, me)
        } else {
            zxdg_toplevel_v6_add_listener(role, &Self.toplevelListener, me)
        }
    }

    deinit {
        if !isXdgSurfaceDestroyed { wl_proxy_set_user_data(xdgSurface, nil) }
        if !isRoleDestroyed { wl_proxy_set_user_data(role, nil) }
    }

    // Destroy the proxies through these: a destroyed proxy is freed and must not be touched.
    public private(set) var isRoleDestroyed = false
    public private(set) var isXdgSurfaceDestroyed = false

    public func destroyRole() {
        guard !isRoleDestroyed else { return }
        isRoleDestroyed = true
        if isPopup { zxdg_popup_v6_destroy(role) } else { zxdg_toplevel_v6_destroy(role) }
    }

    public func destroyXdgSurface() {
        guard !isXdgSurfaceDestroyed else { return }
        isXdgSurfaceDestroyed = true
        zxdg_surface_v6_destroy(xdgSurface)
    }

    public var client: TestClient { shells.client }
    /// xdg_toplevel.state activated (4, the same value in v6).
    public var isActivated: Bool { toplevelConfigure?.states.contains(4) ?? false }

    /// The initial commit, ack of the configure, a buffer of one colour (the configured size, or
    /// `width`×`height` when the configure leaves it to the client), commit, roundtrip.
    @discardableResult
    public func map(width: Int32 = 100, height: Int32 = 100, argb: UInt32) -> Bool {
        wl_surface_commit(surface)
        guard client.roundtrip(), let serial = serials.last else { return false }
        zxdg_surface_v6_ack_configure(xdgSurface, serial)
        var w = width, h = height
        if let c = toplevelConfigure, c.width > 0, c.height > 0 { (w, h) = (c.width, c.height) }
        if let c = popupConfigure { (w, h) = (c.width, c.height) }
        guard let buffer = shells.xdg.makeBuffer(width: w, height: h, argb: argb) else { return false }
        attach(buffer)
        wl_surface_commit(surface)
        return client.roundtrip()
    }

    /// Attaches `buffer` (nil: a null buffer) and damages the whole surface.
    public func attach(_ buffer: TestBuffer?) {
        self.buffer = buffer
        wl_surface_attach(surface, buffer?.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
    }

    /// A null buffer and a commit (unmaps), then a roundtrip.
    @discardableResult
    public func unmap() -> Bool {
        attach(nil)
        wl_surface_commit(surface)
        return client.roundtrip()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestV6Surface? {
        data.map { Unmanaged<TestV6Surface>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var surfaceListener = zxdg_surface_v6_listener(configure: { data, _, serial in
        from(data)?.serials.append(serial)
    })

    private static var toplevelListener = zxdg_toplevel_v6_listener(
        configure: { data, _, width, height, states in
            from(data)?.toplevelConfigure = (width, height, TestToplevel.values(states))
        },
        close: { data, _ in from(data)?.closeRequests += 1 })

    private static var popupListener = zxdg_popup_v6_listener(
        configure: { data, _, x, y, width, height in
            from(data)?.popupConfigure = (x, y, width, height)
        },
        popup_done: { data, _ in from(data)?.doneCount += 1 })
}

/// A wl_shell_surface in a test client, recording configure, ping and popup_done; it answers
/// pings unless told not to.
public final class TestShellSurface {
    public let shells: TestLegacyShells
    public let surface: OpaquePointer
    public let shellSurface: OpaquePointer
    public private(set) var configures: [(edges: UInt32, width: Int32, height: Int32)] = []
    public private(set) var pings: [UInt32] = []
    public private(set) var doneCount = 0
    public var answersPings = true
    public private(set) var buffer: TestBuffer?

    init?(shells: TestLegacyShells) {
        guard let surface = wl_compositor_create_surface(shells.xdg.compositor),
            let shellSurface = wl_shell_get_shell_surface(shells.wlShell, surface)
        else { return nil }
        self.shells = shells
        self.surface = surface
        self.shellSurface = shellSurface
        wl_shell_surface_add_listener(shellSurface, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_proxy_set_user_data(shellSurface, nil)
    }

    public var client: TestClient { shells.client }

    /// Attaches a buffer of one colour (or a null buffer), damages it and commits, then a roundtrip.
    @discardableResult
    public func commit(width: Int32 = 100, height: Int32 = 100, argb: UInt32?) -> Bool {
        buffer = argb.flatMap { shells.xdg.makeBuffer(width: width, height: height, argb: $0) }
        wl_surface_attach(surface, buffer?.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
        wl_surface_commit(surface)
        return client.roundtrip()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestShellSurface? {
        data.map { Unmanaged<TestShellSurface>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = wl_shell_surface_listener(
        ping: { data, shellSurface, serial in
            guard let me = from(data) else { return }
            me.pings.append(serial)
            if me.answersPings, let shellSurface { wl_shell_surface_pong(shellSurface, serial) }
        },
        configure: { data, _, edges, width, height in
            from(data)?.configures.append((edges, width, height))
        },
        popup_done: { data, _ in from(data)?.doneCount += 1 })
}
