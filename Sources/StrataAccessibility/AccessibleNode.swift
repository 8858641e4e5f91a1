import CAtspi

/// One accessible object of a client (a button, a label, a window), held while the node lives:
/// what AT-SPI says of it, read when asked. Every call goes to the client over the accessibility
/// bus and may fail (the client went, or did not answer in time): a failed read gives the empty
/// answer (no name, no states, no extents), never a trap.
public final class AccessibleNode: AccessibleTreeNode {
    let object: UnsafeMutablePointer<AtspiAccessible>

    /// Takes a reference of its own to `object`.
    init(_ object: UnsafeMutablePointer<AtspiAccessible>) {
        self.object = object
        g_object_ref(UnsafeMutableRawPointer(object))
    }

    /// Adopts a reference the caller got from a libatspi call (a child, the desktop).
    init(adopting object: UnsafeMutablePointer<AtspiAccessible>) {
        self.object = object
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(object))
    }

    /// The accessible name ("OK", a window's title); empty when it has none.
    public var name: String {
        Self.string(atspi_accessible_get_name(object, nil))
    }

    /// The role's name as AT-SPI spells it ("push button", "frame", "text").
    public var role: String {
        Self.string(atspi_accessible_get_role_name(object, nil))
    }

    /// The toolkit of the application it is in ("GTK", "Qt", "Chromium"); empty when unknown.
    public var toolkitName: String {
        Self.string(atspi_accessible_get_toolkit_name(object, nil))
    }

    /// The process of the client that publishes it (0 when unknown).
    public var processID: Int32 {
        Int32(atspi_accessible_get_process_id(object, nil))
    }

    /// The names of the states it is in ("enabled", "focused", "showing", …), sorted.
    public var states: [String] {
        guard let set = atspi_accessible_get_state_set(object) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(set)) }
        guard let array = atspi_state_set_get_states(set) else { return [] }
        defer { g_array_unref(array) }
        let count = Int(array.pointee.len)
        guard count > 0, let data = array.pointee.data else { return [] }
        let values = UnsafeRawPointer(data).bindMemory(to: AtspiStateType.self, capacity: count)
        return (0..<count).map { AccessibleNode.stateName(values[$0]) }.sorted()
    }

    /// How many children it has (0 when the client does not answer).
    public var childCount: Int {
        max(0, Int(atspi_accessible_get_child_count(object, nil)))
    }

    /// Its child at `index`, or nil.
    public func child(at index: Int) -> AccessibleNode? {
        guard let child = atspi_accessible_get_child_at_index(object, Int32(clamping: index), nil) else { return nil }
        return AccessibleNode(adopting: child)
    }

    /// Its parent, or nil at an application's root.
    public var parent: AccessibleNode? {
        guard let parent = atspi_accessible_get_parent(object, nil) else { return nil }
        return AccessibleNode(adopting: parent)
    }

    /// The web page it is in (role "document web"): itself or its nearest such ancestor, at most
    /// `limit` levels up; nil when it is in none.
    public func webDocument(limit: Int = 64) -> AccessibleNode? {
        var node: AccessibleNode? = self
        var levels = 0
        while let current = node, levels <= limit {
            if current.role == "document web" { return current }
            node = current.parent
            levels += 1
        }
        return nil
    }

    /// Its rectangle relative to its toplevel window, as the toolkit reports it; nil when it has
    /// no component (no place on screen) or the client does not answer.
    public var windowExtents: AccessibleRect? {
        guard let component = atspi_accessible_get_component_iface(object) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(component)) }
        guard let rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_WINDOW, nil) else { return nil }
        defer { g_free(UnsafeMutableRawPointer(rect)) }
        return AccessibleRect(
            x: Int(rect.pointee.x), y: Int(rect.pointee.y), width: Int(rect.pointee.width),
            height: Int(rect.pointee.height))
    }

    /// The names of its actions ("click", "press", "activate"), in their order.
    public var actions: [String] {
        guard let action = atspi_accessible_get_action_iface(object) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(action)) }
        let count = min(32, max(0, Int(atspi_action_get_n_actions(action, nil))))
        return (0..<count).map { Self.string(atspi_action_get_action_name(action, Int32($0), nil)) }
    }

    /// Runs the action called `name`; false when it has none or the client refused.
    public func doAction(named name: String) -> Bool {
        guard let index = actions.firstIndex(of: name),
            let action = atspi_accessible_get_action_iface(object)
        else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(action)) }
        return atspi_action_do_action(action, Int32(index), nil) != 0
    }

    /// Asks the toolkit to give it the keyboard focus; false when it cannot.
    public func grabFocus() -> Bool {
        guard let component = atspi_accessible_get_component_iface(object) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(component)) }
        return atspi_component_grab_focus(component, nil) != 0
    }

    /// Its text (an entry's contents, a label's), at most `limit` characters; nil when it has no
    /// text interface.
    public func text(limit: Int = 4096) -> String? {
        guard let text = atspi_accessible_get_text_iface(object) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(text)) }
        let count = max(0, Int(atspi_text_get_character_count(text, nil)))
        return Self.string(atspi_text_get_text(text, 0, Int32(min(count, limit)), nil))
    }

    /// A string libatspi gave (and the caller must free), or "".
    static func string(_ pointer: UnsafeMutablePointer<gchar>?) -> String {
        guard let pointer else { return "" }
        defer { g_free(UnsafeMutableRawPointer(pointer)) }
        return String(cString: pointer)
    }

    /// A state's nick ("focused"), from the GLib enum type libatspi registers.
    static func stateName(_ state: AtspiStateType) -> String {
        guard let type = stateEnum, let value = g_enum_get_value(type, Int32(state.rawValue)),
            let nick = value.pointee.value_nick
        else { return "state-\(state.rawValue)" }
        return String(cString: nick)
    }

    nonisolated(unsafe) private static let stateEnum: UnsafeMutablePointer<GEnumClass>? = {
        g_type_class_ref(atspi_state_type_get_type())?.assumingMemoryBound(to: GEnumClass.self)
    }()
}

/// A rectangle in whole pixels.
public struct AccessibleRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
