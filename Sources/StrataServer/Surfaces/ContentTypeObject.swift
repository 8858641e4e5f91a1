import CStrataServerGlue
import CWaylandServer

/// wp_content_type_v1: sets its surface's pending content type (applied at the next commit). A
/// value outside the enum is taken as none (the spec names no error for it); destroying the
/// object sets none, double-buffered like set_content_type. Inert once its surface is gone.
final class ContentTypeObject: ResourceObject {
    private weak var surface: Surface?

    init?(surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.surface = surface
        super.init(
            client: client, interface: strata_wp_content_type_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    private func setPending(_ type: UInt32) {
        guard let surface, !surface.isDestroyed else { return }
        surface.pending.contentTypeChanged = true
        surface.pending.contentType =
            type <= WP_CONTENT_TYPE_V1_TYPE_GAME.rawValue ? type : WP_CONTENT_TYPE_V1_TYPE_NONE.rawValue
    }

    override func resourceDidDestroy() {
        setPending(WP_CONTENT_TYPE_V1_TYPE_NONE.rawValue)
        if let surface, surface.contentTypeObject === self { surface.contentTypeObject = nil }
    }

    static let implementation = makeImplementation(
        wp_content_type_v1_interface(
            destroy: destroyRequest,
            set_content_type: { _, resource, type in
                handle(resource, as: ContentTypeObject.self) { $0.setPending(type) }
            }))
}
