import Foundation
import Testing

/// Debian's real clients under Strata.
@Suite struct ClientTests {
    @Test(
        .enabled(
            if: StrataRun.isInstalled("wayland-info"), "wayland-info is not installed (apt-get install wayland-utils)"))
    func waylandInfoListsTheGlobalsAtTheirVersions() async throws {
        let result = try await StrataRun.run([], command: ["wayland-info"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        var versions: [String: Int] = [:]
        for line in result.stdout.split(separator: "\n") {
            // interface: 'wl_compositor',        version:  5, name:  2
            guard let range = line.range(of: "interface: '") else { continue }
            let rest = line[range.upperBound...]
            guard let quote = rest.firstIndex(of: "'"), let v = rest.range(of: "version:") else { continue }
            let number = rest[v.upperBound...].prefix { $0 != "," }.trimmingCharacters(in: .whitespaces)
            versions[String(rest[..<quote])] = Int(number)
        }
        let expected = [
            "wl_compositor": 5, "wl_subcompositor": 1, "wl_shm": 1, "wl_output": 4, "wl_seat": 8,
            "xdg_wm_base": 5, "wl_data_device_manager": 3, "zxdg_output_manager_v1": 3,
            "wp_viewporter": 1, "wp_single_pixel_buffer_manager_v1": 1, "wp_presentation": 1,
            "zxdg_decoration_manager_v1": 1, "zwp_primary_selection_device_manager_v1": 1,
            "zwp_relative_pointer_manager_v1": 1, "gtk_primary_selection_device_manager": 1,
            "zwp_text_input_manager_v3": 1, "wp_fractional_scale_manager_v1": 1,
            "zxdg_shell_v6": 1, "wl_shell": 1,
            "zwp_pointer_constraints_v1": 1, "wp_cursor_shape_manager_v1": 1, "wp_security_context_manager_v1": 1,
            "zwp_pointer_gestures_v1": 3, "zwp_tablet_manager_v2": 1,
            "ext_idle_notifier_v1": 2, "zwp_idle_inhibit_manager_v1": 1, "ext_session_lock_manager_v1": 1,
            "zwp_keyboard_shortcuts_inhibit_manager_v1": 1, "wp_content_type_manager_v1": 1, "wp_alpha_modifier_v1": 1,
            "org_kde_kwin_server_decoration_manager": 1,
            "strata_window_manager_v1": 2, "xdg_wm_dialog_v1": 1, "zxdg_exporter_v2": 1, "zxdg_importer_v2": 1,
            "zxdg_exporter_v1": 1, "zxdg_importer_v1": 1,
            // Privileged, and wayland-info is the command strata started.
            "zwlr_data_control_manager_v1": 2, "ext_data_control_manager_v1": 1,
            "ext_foreign_toplevel_list_v1": 1, "ext_image_copy_capture_manager_v1": 1,
            "ext_output_image_capture_source_manager_v1": 1, "ext_foreign_toplevel_image_capture_source_manager_v1": 1,
        ]
        for (interface, version) in expected {
            #expect(
                versions[interface] == version, "\(interface): \(versions[interface].map(String.init) ?? "missing")")
        }
    }
}
