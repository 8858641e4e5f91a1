import CStrataClientGlue
import CWaylandClient

/// The protocol descriptions (`wl_interface` tables) the server implements, looked up by name:
/// opcodes by request name for hand-made messages, and request signatures for the fuzzer.
///
/// The tables are found from the globals' interfaces by following every typed object and new_id
/// argument. wl_display and wl_registry are not in them (the raw client handles both itself).
/// A new global's interface must be added to `globalInterfaces`.
public enum WireProtocol {
    /// The interfaces of the globals Strata announces.
    public static let globalInterfaces: [UnsafePointer<wl_interface>] = [
        wl_compositor_interface_ptr(), wl_subcompositor_interface_ptr(), wl_shm_interface_ptr(),
        wl_seat_interface_ptr(), wl_output_interface_ptr(), wl_data_device_manager_interface_ptr(),
        xdg_wm_base_interface_ptr(), zxdg_output_manager_v1_interface_ptr(),
        zwp_text_input_manager_v3_interface_ptr(), zwp_input_method_manager_v2_interface_ptr(),
        zwp_primary_selection_device_manager_v1_interface_ptr(), gtk_primary_selection_device_manager_interface_ptr(),
        wl_shell_interface_ptr(), zxdg_shell_v6_interface_ptr(), zwlr_layer_shell_v1_interface_ptr(),
        strata_window_manager_v1_interface_ptr(), wp_viewporter_interface_ptr(),
        wp_single_pixel_buffer_manager_v1_interface_ptr(), wp_presentation_interface_ptr(),
        zxdg_decoration_manager_v1_interface_ptr(), zwp_relative_pointer_manager_v1_interface_ptr(),
        zwp_pointer_constraints_v1_interface_ptr(), wp_cursor_shape_manager_v1_interface_ptr(),
        wp_fractional_scale_manager_v1_interface_ptr(), xdg_activation_v1_interface_ptr(),
        zwlr_screencopy_manager_v1_interface_ptr(), zwlr_output_manager_v1_interface_ptr(),
        zwp_virtual_keyboard_manager_v1_interface_ptr(), zwlr_virtual_pointer_manager_v1_interface_ptr(),
        zwlr_foreign_toplevel_manager_v1_interface_ptr(), wp_security_context_manager_v1_interface_ptr(),
        zwlr_data_control_manager_v1_interface_ptr(), ext_data_control_manager_v1_interface_ptr(),
        ext_idle_notifier_v1_interface_ptr(), zwp_idle_inhibit_manager_v1_interface_ptr(),
        ext_session_lock_manager_v1_interface_ptr(), zwp_keyboard_shortcuts_inhibit_manager_v1_interface_ptr(),
        wp_content_type_manager_v1_interface_ptr(), wp_alpha_modifier_v1_interface_ptr(),
        org_kde_kwin_server_decoration_manager_interface_ptr(),
        xdg_wm_dialog_v1_interface_ptr(), zxdg_exporter_v2_interface_ptr(), zxdg_importer_v2_interface_ptr(),
        zxdg_exporter_v1_interface_ptr(), zxdg_importer_v1_interface_ptr(),
    ]

    /// Every interface reachable from the globals, by name.
    nonisolated(unsafe) public static let interfaces: [String: UnsafePointer<wl_interface>] = {
        var found: [String: UnsafePointer<wl_interface>] = [:]
        var queue = globalInterfaces
        while let interface = queue.popLast() {
            let name = String(cString: interface.pointee.name)
            guard found[name] == nil else { continue }
            found[name] = interface
            for message in requests(of: interface) + events(of: interface) {
                queue += message.types.compactMap { $0 }
            }
        }
        return found
    }()

    /// One request or event: its name, signature (without the version prefix) and the interface
    /// of each argument (nil where untyped).
    public struct Message {
        public let name: String
        public let signature: [Character]
        public let sinceVersion: UInt32
        public let types: [UnsafePointer<wl_interface>?]
    }

    public static func requests(of interface: UnsafePointer<wl_interface>) -> [Message] {
        messages(interface.pointee.methods, count: interface.pointee.method_count)
    }

    public static func events(of interface: UnsafePointer<wl_interface>) -> [Message] {
        messages(interface.pointee.events, count: interface.pointee.event_count)
    }

    private static func messages(_ list: UnsafePointer<wl_message>?, count: Int32) -> [Message] {
        guard let list else { return [] }
        return (0..<Int(count)).map { index in
            let message = list[index]
            let raw = String(cString: message.signature)
            let since = UInt32(raw.prefix { $0.isNumber }) ?? 1
            // Argument letters, with `?` (nullable) kept in front of the letter it qualifies.
            let signature = Array(raw.drop { $0.isNumber })
            let argumentCount = signature.filter { $0 != "?" }.count
            let types: [UnsafePointer<wl_interface>?] = (0..<argumentCount).map { message.types?[$0] }
            return Message(name: String(cString: message.name), signature: signature, sinceVersion: since, types: types)
        }
    }

    /// The opcode of `request` ("wl_surface.attach"); traps on a typo (a test bug).
    public static func opcode(_ request: String) -> UInt16 {
        switch request {
        case "wl_display.sync", "wl_registry.bind": return 0
        case "wl_display.get_registry": return 1
        default: break
        }
        let parts = request.split(separator: ".")
        guard parts.count == 2, let interface = interfaces[String(parts[0])],
            let index = requests(of: interface).firstIndex(where: { $0.name == parts[1] })
        else {
            preconditionFailure("no request \(request)")
        }
        return UInt16(index)
    }
}

extension RawClient {
    /// Sends one request by name: `client.request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))`.
    @discardableResult
    public func request(_ object: UInt32, _ name: String, _ arguments: WireArgument...) -> Bool {
        send(WireMessage(object: object, opcode: WireProtocol.opcode(name), arguments))
    }
}
