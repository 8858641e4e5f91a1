import CStrataServerGlue
import CWaylandServer

/// wp_alpha_modifier_v1 v1 (every client; XML from wayland-protocols 1.35+): a surface's alpha
/// multiplied by a factor when the scene draws it (`Surface.alphaMultiplier`, double-buffered).
final class AlphaModifier: ResourceObject {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wp_alpha_modifier_v1_interface(), version: version) {
            client, version, id in
            _ = AlphaModifier(client: client, version: version, id: id)
        }
    }

    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_alpha_modifier_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleGetSurfaceRequest(id: UInt32, surface: Surface) throws(ProtocolError) {
        if let existing = surface.alphaModifierObject, !existing.isDestroyed {
            throw ProtocolError(
                code: WP_ALPHA_MODIFIER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has a wp_alpha_modifier_surface_v1")
        }
        // The resource owns the object; the surface only points at it.
        let object = AlphaModifierSurface(surface: surface, client: client, version: version, id: id)
        surface.alphaModifierObject = object
    }

    static let implementation = makeImplementation(
        wp_alpha_modifier_v1_interface(
            destroy: destroyRequest,
            get_surface: { _, resource, id, surface in
                handle(resource, as: AlphaModifier.self) { modifier throws(ProtocolError) in
                    guard let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try modifier.handleGetSurfaceRequest(id: id, surface: surface)
                }
            }))
}
