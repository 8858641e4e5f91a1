import CStrataServerGlue
import CWaylandServer
import StrataRender

/// wp_viewporter v1: crop and scale of surfaces (wp_viewport), double-buffered with the
/// surface's state. See docs/breadth.md.
enum Viewporter {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wp_viewporter_interface(), version: version) {
            client, version, id in
            _ = ViewporterBinding(client: client, version: version, id: id)
        }
    }
}

final class ViewporterBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_viewporter_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_viewporter_interface(
            destroy: destroyRequest,
            get_viewport: { client, resource, id, surfaceResource in
                handle(resource, as: ViewporterBinding.self) { manager throws(ProtocolError) in
                    guard let client, let surface = ResourceObject.from(surfaceResource, as: Surface.self) else {
                        return
                    }
                    guard surface.viewportObject == nil else {
                        throw ProtocolError(
                            code: WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS.rawValue,
                            "the surface already has a wp_viewport")
                    }
                    // The resource holds the object; the surface only points at it.
                    let viewport = SurfaceViewport(client: client, version: manager.version, id: id, surface: surface)
                    surface.viewportObject = viewport
                }
            }))
}

/// wp_viewport: sets the pending source rectangle and destination size of one surface. Inert
/// (every request but destroy raises no_surface) once the surface is gone; destroying it unsets
/// both in the surface's pending state.
final class SurfaceViewport: ResourceObject {
    private(set) weak var surface: Surface?

    init?(client: OpaquePointer, version: UInt32, id: UInt32, surface: Surface) {
        self.surface = surface
        super.init(
            client: client, interface: strata_wp_viewport_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    override func resourceDidDestroy() {
        guard let surface, !surface.isDestroyed else { return }
        surface.pending.viewportSourceChanged = true
        surface.pending.viewportSource = nil
        surface.pending.viewportDestinationChanged = true
        surface.pending.viewportDestination = nil
        if surface.viewportObject === self { surface.viewportObject = nil }
    }

    private func liveSurface() throws(ProtocolError) -> Surface {
        guard let surface, !surface.isDestroyed else {
            throw ProtocolError(code: WP_VIEWPORT_ERROR_NO_SURFACE.rawValue, "the wp_viewport's surface is destroyed")
        }
        return surface
    }

    func handleSetSourceRequest(x: Int32, y: Int32, width: Int32, height: Int32) throws(ProtocolError) {
        let surface = try liveSurface()
        if x == -256, y == -256, width == -256, height == -256 {  // all -1.0: unset
            surface.pending.viewportSourceChanged = true
            surface.pending.viewportSource = nil
            return
        }
        guard x >= 0, y >= 0, width > 0, height > 0 else {
            throw ProtocolError(
                code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue,
                "set_source: x and y must be non-negative and the size positive (or all -1)")
        }
        func value(_ fixed: Int32) -> Double { Double(fixed) / 256 }
        surface.pending.viewportSourceChanged = true
        surface.pending.viewportSource = Viewport.Source(
            x: value(x), y: value(y), width: value(width), height: value(height))
    }

    func handleSetDestinationRequest(width: Int32, height: Int32) throws(ProtocolError) {
        let surface = try liveSurface()
        if width == -1, height == -1 {
            surface.pending.viewportDestinationChanged = true
            surface.pending.viewportDestination = nil
            return
        }
        guard width > 0, height > 0 else {
            throw ProtocolError(
                code: WP_VIEWPORT_ERROR_BAD_VALUE.rawValue,
                "set_destination: the size must be positive (or both -1)")
        }
        surface.pending.viewportDestinationChanged = true
        surface.pending.viewportDestination = Viewport.Size(width: width, height: height)
    }

    static let implementation = makeImplementation(
        wp_viewport_interface(
            destroy: destroyRequest,
            set_source: { _, resource, x, y, width, height in
                handle(resource, as: SurfaceViewport.self) {
                    try $0.handleSetSourceRequest(x: x, y: y, width: width, height: height)
                }
            },
            set_destination: { _, resource, width, height in
                handle(resource, as: SurfaceViewport.self) {
                    try $0.handleSetDestinationRequest(width: width, height: height)
                }
            }))
}
