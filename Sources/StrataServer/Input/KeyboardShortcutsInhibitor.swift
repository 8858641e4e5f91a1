import CStrataServerGlue
import CWaylandServer

/// zwp_keyboard_shortcuts_inhibitor_v1: told `active` when its surface gets the keyboard focus
/// and `inactive` when it loses it (each only on a change). Inert once its surface is gone.
final class KeyboardShortcutsInhibitor: ResourceObject {
    private weak var surface: Surface?
    private(set) var isActive = false

    init?(surface: Surface, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.surface = surface
        super.init(
            client: client, interface: strata_zwp_keyboard_shortcuts_inhibitor_v1_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    func setActive(_ active: Bool) {
        guard active != isActive, !isDestroyed else { return }
        if active, surface.map({ $0.isDestroyed }) ?? true { return }
        isActive = active
        if active {
            zwp_keyboard_shortcuts_inhibitor_v1_send_active(resource)
        } else {
            zwp_keyboard_shortcuts_inhibitor_v1_send_inactive(resource)
        }
    }

    override func resourceDidDestroy() {
        if let surface, surface.shortcutsInhibitor === self { surface.shortcutsInhibitor = nil }
    }

    static let implementation = makeImplementation(
        zwp_keyboard_shortcuts_inhibitor_v1_interface(destroy: destroyRequest))
}
