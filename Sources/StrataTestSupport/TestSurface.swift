import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel

extension TestClient {
    /// The object id of a proxy (how `TestSeat.Event`s name surfaces).
    public func id(of proxy: OpaquePointer) -> UInt32 { wl_proxy_get_id(proxy) }

    /// TEST SCAFFOLDING (see the server's `PlainSurfaceWindow`): shows a committed surface as a
    /// window at (x, y) of the main screen without xdg-shell. Returns the model's window.
    @discardableResult
    public func showPlainSurface(
        _ surface: TestSurface, x: Int, y: Int, level: WindowLevel = .normal,
        makeKey: Bool = true
    ) -> Window? {
        roundtrip()
        let window = server.compositor.showPlainSurface(
            client: serverClient, surfaceID: surface.id, x: x, y: y,
            level: level, makeKey: makeKey)
        roundtrip()
        return window
    }

    /// A new surface with a `width`×`height` buffer of one colour attached and committed
    /// (and, if `inputRegion` is given, that input region).
    public func makeSurface(
        width: Int32, height: Int32, argb: UInt32 = 0xff80_8080,
        inputRegion: (x: Int32, y: Int32, width: Int32, height: Int32)? = nil
    ) throws -> TestSurface {
        let compositor = try bind(wl_compositor_interface_ptr(), version: 5)
        let shm = try bind(wl_shm_interface_ptr())
        guard let surface = wl_compositor_create_surface(compositor),
            let buffer = TestBuffer(shm: shm, width: width, height: height, argb: argb)
        else {
            throw Failure.connect("cannot make a surface")
        }
        if let inputRegion, let region = wl_compositor_create_region(compositor) {
            wl_region_add(region, inputRegion.x, inputRegion.y, inputRegion.width, inputRegion.height)
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        roundtrip()
        return TestSurface(surface: surface, buffer: buffer)
    }
}

/// A client surface and the buffer it shows.
public struct TestSurface {
    public let surface: OpaquePointer
    public let buffer: TestBuffer
    public var id: UInt32 { wl_proxy_get_id(surface) }
}
