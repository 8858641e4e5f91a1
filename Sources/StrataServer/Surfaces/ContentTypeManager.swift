import CStrataServerGlue
import CWaylandServer

/// wp_content_type_manager_v1 v1 (every client): a surface says what it shows (none, photo,
/// video, game). Strata stores it (`Surface.contentType`, double-buffered) and changes nothing
/// for it.
final class ContentTypeManager: ResourceObject {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wp_content_type_manager_v1_interface(), version: version)
        { client, version, id in
            _ = ContentTypeManager(client: client, version: version, id: id)
        }
    }

    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_content_type_manager_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleGetSurfaceContentTypeRequest(id: UInt32, surface: Surface) throws(ProtocolError) {
        if let existing = surface.contentTypeObject, !existing.isDestroyed {
            throw ProtocolError(
                code: WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already has a wp_content_type_v1")
        }
        // The resource owns the object; the surface only points at it.
        let object = ContentTypeObject(surface: surface, client: client, version: version, id: id)
        surface.contentTypeObject = object
    }

    static let implementation = makeImplementation(
        wp_content_type_manager_v1_interface(
            destroy: destroyRequest,
            get_surface_content_type: { _, resource, id, surface in
                handle(resource, as: ContentTypeManager.self) { manager throws(ProtocolError) in
                    guard let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try manager.handleGetSurfaceContentTypeRequest(id: id, surface: surface)
                }
            }))
}
