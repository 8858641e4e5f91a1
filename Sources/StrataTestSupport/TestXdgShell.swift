import CStrataClientGlue
import CWaylandClient
import Foundation

/// The globals an xdg-shell test client needs (wl_compositor, wl_subcompositor, wl_shm,
/// xdg_wm_base, which answers pings by itself), and factories for surfaces, buffers,
/// positioners, toplevels and popups. Holds its `TestClient` and that client's `TestServer`, so
/// the connection outlives every helper made here and the server outlives the connection.
public final class TestXdgShell {
    // Declared (and so released) in this order: the client disconnects while its server lives.
    public let client: TestClient
    public let server: TestServer
    public let compositor: OpaquePointer
    public let subcompositor: OpaquePointer
    public let shm: OpaquePointer
    public let wmBase: OpaquePointer

    public init(client: TestClient) throws {
        self.client = client
        self.server = client.server
        compositor = try client.bind(wl_compositor_interface_ptr())
        subcompositor = try client.bind(wl_subcompositor_interface_ptr())
        shm = try client.bind(wl_shm_interface_ptr())
        wmBase = try client.bind(xdg_wm_base_interface_ptr())
        xdg_wm_base_add_listener(wmBase, &Self.wmBaseListener, nil)
    }

    private static var wmBaseListener = xdg_wm_base_listener(ping: { _, wmBase, serial in
        if let wmBase { xdg_wm_base_pong(wmBase, serial) }
    })

    /// A new wl_surface.
    public func makeSurface() -> OpaquePointer? {
        wl_compositor_create_surface(compositor)
    }

    /// A wl_shm buffer of one colour (XRGB unless asked for ARGB).
    public func makeBuffer(width: Int32, height: Int32, argb: UInt32, hasAlpha: Bool = false) -> TestBuffer? {
        TestBuffer(shm: shm, width: width, height: height, argb: argb, format: hasAlpha ? 0 : 1)
    }

    /// A toplevel whose surface has no buffer and was not committed yet.
    public func makeToplevel() -> TestToplevel? {
        TestToplevel(shell: self)
    }

    /// A complete positioner (anchor and gravity: xdg_positioner enum values; constraints: bits).
    public func makePositioner(
        width: Int32, height: Int32, anchorRect: (x: Int32, y: Int32, width: Int32, height: Int32),
        anchor: xdg_positioner_anchor = XDG_POSITIONER_ANCHOR_NONE,
        gravity: xdg_positioner_gravity = XDG_POSITIONER_GRAVITY_NONE,
        constraints: UInt32 = 0, offset: (x: Int32, y: Int32) = (0, 0)
    ) -> OpaquePointer? {
        guard let positioner = xdg_wm_base_create_positioner(wmBase) else { return nil }
        xdg_positioner_set_size(positioner, width, height)
        xdg_positioner_set_anchor_rect(positioner, anchorRect.x, anchorRect.y, anchorRect.width, anchorRect.height)
        xdg_positioner_set_anchor(positioner, anchor.rawValue)
        xdg_positioner_set_gravity(positioner, gravity.rawValue)
        xdg_positioner_set_constraint_adjustment(positioner, constraints)
        if offset != (0, 0) { xdg_positioner_set_offset(positioner, offset.x, offset.y) }
        return positioner
    }

    /// A popup of `parent` (an xdg_surface) placed by `positioner`, not committed yet.
    public func makePopup(parent: OpaquePointer?, positioner: OpaquePointer) -> TestPopup? {
        TestPopup(shell: self, parent: parent, positioner: positioner)
    }
}
