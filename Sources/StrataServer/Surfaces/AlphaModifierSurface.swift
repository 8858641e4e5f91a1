import CStrataServerGlue
import CWaylandServer

/// wp_alpha_modifier_surface_v1: sets its surface's pending alpha factor (0 transparent …
/// UInt32.max unchanged), applied at the next commit; destroying it sets UInt32.max the same
/// way. A request after the surface died is `no_surface`.
final class AlphaModifierSurface: ResourceObject {
    private weak var surface: Surface?

    init?(surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.surface = surface
        super.init(
            client: client, interface: strata_wp_alpha_modifier_surface_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func handleSetMultiplierRequest(_ factor: UInt32) throws(ProtocolError) {
        guard let surface, !surface.isDestroyed else {
            throw ProtocolError(
                code: WP_ALPHA_MODIFIER_SURFACE_V1_ERROR_NO_SURFACE.rawValue,
                "set_multiplier after the wl_surface was destroyed")
        }
        surface.pending.alphaMultiplierChanged = true
        surface.pending.alphaMultiplier = factor
    }

    override func resourceDidDestroy() {
        guard let surface, !surface.isDestroyed else { return }
        surface.pending.alphaMultiplierChanged = true
        surface.pending.alphaMultiplier = .max
        if surface.alphaModifierObject === self { surface.alphaModifierObject = nil }
    }

    static let implementation = makeImplementation(
        wp_alpha_modifier_surface_v1_interface(
            destroy: destroyRequest,
            set_multiplier: { _, resource, factor in
                handle(resource, as: AlphaModifierSurface.self) { try $0.handleSetMultiplierRequest(factor) }
            }))
}
