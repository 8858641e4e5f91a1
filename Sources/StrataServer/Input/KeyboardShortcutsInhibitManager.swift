import CStrataServerGlue
import CWaylandServer

/// zwp_keyboard_shortcuts_inhibit_manager_v1 v1 (every client): a surface asks that the
/// compositor's shortcuts pass to it while it has keyboard focus. Strata has no compositor
/// shortcuts yet, so an inhibitor is simply `active` while its surface has the keyboard focus
/// and `inactive` when it loses it (`Seat.keyboardFocusDidChange`).
final class KeyboardShortcutsInhibitManager: ResourceObject {
    static let version: UInt32 = 1
    private unowned let seat: Seat

    static func install(on compositor: Compositor) -> Global? {
        Global(
            display: compositor.display, interface: strata_zwp_keyboard_shortcuts_inhibit_manager_v1_interface(),
            version: version
        ) { [unowned compositor] client, version, id in
            _ = KeyboardShortcutsInhibitManager(seat: compositor.seat, client: client, version: version, id: id)
        }
    }

    init?(seat: Seat, client: OpaquePointer, version: UInt32, id: UInt32) {
        self.seat = seat
        super.init(
            client: client, interface: strata_zwp_keyboard_shortcuts_inhibit_manager_v1_interface(), version: version,
            id: id,
            implementation: Self.implementation)
    }

    func handleInhibitShortcutsRequest(id: UInt32, surface: Surface) throws(ProtocolError) {
        // One seat: the seat argument can only name it.
        if let existing = surface.shortcutsInhibitor, !existing.isDestroyed {
            throw ProtocolError(
                code: ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED.rawValue,
                "wl_surface@\(wl_resource_get_id(surface.resource)) already inhibits the seat's shortcuts")
        }
        guard let inhibitor = KeyboardShortcutsInhibitor(surface: surface, client: client, version: version, id: id)
        else { return }
        surface.shortcutsInhibitor = inhibitor
        if seat.keyboardFocus === surface { inhibitor.setActive(true) }
    }

    static let implementation = makeImplementation(
        zwp_keyboard_shortcuts_inhibit_manager_v1_interface(
            destroy: destroyRequest,
            inhibit_shortcuts: { _, resource, id, surface, _ in
                handle(resource, as: KeyboardShortcutsInhibitManager.self) { manager throws(ProtocolError) in
                    guard let surface = ResourceObject.from(surface, as: Surface.self) else { return }
                    try manager.handleInhibitShortcutsRequest(id: id, surface: surface)
                }
            }))
}
