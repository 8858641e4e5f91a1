import CStrataClientGlue
import CWaylandClient

/// A test client's zwp_keyboard_shortcuts_inhibitor_v1, recording "active" and "inactive".
public final class TestShortcutsInhibitor {
    public let inhibitor: OpaquePointer
    public private(set) var events: [String] = []

    public init?(manager: OpaquePointer, surface: OpaquePointer, seat: OpaquePointer) {
        guard let made = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(manager, surface, seat) else {
            return nil
        }
        inhibitor = made
        zwp_keyboard_shortcuts_inhibitor_v1_add_listener(
            made, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The events since the last call; clears them.
    public func takeEvents() -> [String] {
        defer { events.removeAll() }
        return events
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestShortcutsInhibitor? {
        data.map { Unmanaged<TestShortcutsInhibitor>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var listener = zwp_keyboard_shortcuts_inhibitor_v1_listener(
        active: { data, _ in from(data)?.events.append("active") },
        inactive: { data, _ in from(data)?.events.append("inactive") })
}

/// A test client's org_kde_kwin_server_decoration_manager and its decorations, recording the
/// modes they are told.
public final class TestServerDecorations {
    public let manager: OpaquePointer
    public private(set) var defaultModes: [UInt32] = []
    public private(set) var modes: [UInt32] = []

    public init(client: TestClient) throws {
        manager = try client.bind(org_kde_kwin_server_decoration_manager_interface_ptr(), version: 1)
        org_kde_kwin_server_decoration_manager_add_listener(
            manager, &Self.managerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// create on `surface`; its mode events are recorded in `modes`.
    public func create(surface: OpaquePointer) -> OpaquePointer? {
        guard let made = org_kde_kwin_server_decoration_manager_create(manager, surface) else { return nil }
        org_kde_kwin_server_decoration_add_listener(
            made, &Self.decorationListener, Unmanaged.passUnretained(self).toOpaque())
        return made
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestServerDecorations? {
        data.map { Unmanaged<TestServerDecorations>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var managerListener = org_kde_kwin_server_decoration_manager_listener(
        default_mode: { data, _, mode in from(data)?.defaultModes.append(mode) })
    private static var decorationListener = org_kde_kwin_server_decoration_listener(
        mode: { data, _, mode in from(data)?.modes.append(mode) })
}
