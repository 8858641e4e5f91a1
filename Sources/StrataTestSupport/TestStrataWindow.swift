import CStrataClientGlue
import CWaylandClient
import Foundation

/// A test client's strata_window_manager_v1: screen events, and strata_window_v1 objects for its
/// toplevels.
public final class TestWindowManager {
    public let client: TestClient
    public let manager: OpaquePointer
    /// Screen events in order: "connected <id> <name>", "disconnected <id>".
    public private(set) var screenEvents: [String] = []

    public init(client: TestClient) throws {
        self.client = client
        manager = try client.bind(strata_window_manager_v1_interface_ptr())
        strata_window_manager_v1_add_listener(manager, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A strata_window_v1 for `toplevel`.
    public func window(for toplevel: TestToplevel) -> TestStrataWindow? {
        guard let object = strata_window_manager_v1_get_window(manager, toplevel.toplevel) else { return nil }
        return TestStrataWindow(object: object)
    }

    private static var listener = strata_window_manager_v1_listener(
        screen_connected: { data, _, id, name in
            guard let data else { return }
            let me = Unmanaged<TestWindowManager>.fromOpaque(data).takeUnretainedValue()
            me.screenEvents.append("connected \(id) \(name.map { String(cString: $0) } ?? "")")
        },
        screen_disconnected: { data, _, id in
            guard let data else { return }
            Unmanaged<TestWindowManager>.fromOpaque(data).takeUnretainedValue().screenEvents.append(
                "disconnected \(id)")
        })
}

/// A strata_window_v1 in a test client, recording its events as strings in order:
/// "did_become_key", "did_resign_key", "did_become_visible", "did_become_hidden",
/// "level_changed <level>", "level_denied <requested> <reason>", "screen_changed <id>".
public final class TestStrataWindow {
    public let object: OpaquePointer
    public private(set) var events: [String] = []
    public private(set) var isDestroyed = false

    init(object: OpaquePointer) {
        self.object = object
        strata_window_v1_add_listener(object, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if !isDestroyed { wl_proxy_set_user_data(object, nil) }
    }

    public func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        strata_window_v1_destroy(object)
    }

    /// Returns the events so far and forgets them.
    public func takeEvents() -> [String] {
        defer { events.removeAll() }
        return events
    }

    public func setLevel(_ level: Int32) { strata_window_v1_set_level(object, level) }
    public func setShowWithoutKey() { strata_window_v1_set_show_without_key(object) }
    public func setCanBecomeKey(_ value: UInt32) { strata_window_v1_set_can_become_key(object, value) }
    public func setScreen(_ id: UInt32) { strata_window_v1_set_screen(object, id) }
    public func makeKey() { strata_window_v1_make_key(object) }
    /// set_modal / unset_modal (version 2).
    public func setModal(_ modal: Bool) {
        if modal { strata_window_v1_set_modal(object) } else { strata_window_v1_unset_modal(object) }
    }

    private static func record(_ data: UnsafeMutableRawPointer?, _ event: String) {
        guard let data else { return }
        Unmanaged<TestStrataWindow>.fromOpaque(data).takeUnretainedValue().events.append(event)
    }

    private static var listener = strata_window_v1_listener(
        did_become_key: { data, _ in record(data, "did_become_key") },
        did_resign_key: { data, _ in record(data, "did_resign_key") },
        did_become_visible: { data, _ in record(data, "did_become_visible") },
        did_become_hidden: { data, _ in record(data, "did_become_hidden") },
        level_changed: { data, _, level in record(data, "level_changed \(level)") },
        level_denied: { data, _, requested, reason in record(data, "level_denied \(requested) \(reason)") },
        screen_changed: { data, _, screen in record(data, "screen_changed \(screen)") })
}
