import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// Privilege follows the connection: decided once, when Strata makes the connection, and read
/// by the global filter; the process behind the socket is never asked.
@Suite struct ClientPrivilegeTests {
    static let privilegedGlobals = [
        "zwlr_screencopy_manager_v1", "zwlr_output_manager_v1", "zwp_virtual_keyboard_manager_v1",
        "zwlr_virtual_pointer_manager_v1", "zwlr_foreign_toplevel_manager_v1", "zwp_input_method_manager_v2",
        "zwlr_data_control_manager_v1", "ext_data_control_manager_v1",
        "ext_foreign_toplevel_list_v1", "ext_image_copy_capture_manager_v1",
        "ext_output_image_capture_source_manager_v1", "ext_foreign_toplevel_image_capture_source_manager_v1",
    ]

    /// Both clients run in the test's process, which is Strata's: the old rule (Strata's pid or
    /// a descendant's) admitted both; only the connection Strata made for a started process is
    /// privileged now.
    @Test func aConnectionStrataMadeIsPrivilegedAndAnotherFromTheSameProcessIsNot() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let started = try TestClient(server: server, origin: .startedByStrata)
        let ordinary = try TestClient(server: server)
        for name in Self.privilegedGlobals {
            #expect(started.globals[name] != nil, "\(name) hidden from the started client")
            #expect(ordinary.globals[name] == nil, "\(name) shown to an ordinary client")
        }
        #expect(ordinary.globals["wl_compositor"] != nil && ordinary.globals["wp_security_context_manager_v1"] != nil)
        #expect(server.compositor.display.origin(of: started.serverClient) == .startedByStrata)
        #expect(server.compositor.display.origin(of: ordinary.serverClient) == .socket)
    }

    /// The ordinary client names the hidden global by the number the privileged one was told:
    /// libwayland refuses the bind ("invalid global", code 0 on wl_registry) and the started
    /// client goes on.
    @Test func anOrdinaryClientBindingAPrivilegedGlobalByNameIsRefused() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let started = try TestClient(server: server, origin: .startedByStrata)
        let ordinary = try TestClient(server: server)
        let name = try #require(started.globals["zwlr_screencopy_manager_v1"]).name
        _ = ordinary.bind(name: name, zwlr_screencopy_manager_v1_interface_ptr(), version: 1)
        #expect(!ordinary.roundtrip())
        let error = try #require(ordinary.protocolError)
        #expect(error.interface == "wl_registry" && error.code == WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue)
        _ = try started.bind(zwlr_screencopy_manager_v1_interface_ptr())
        #expect(started.roundtrip())
    }

    /// A second registry of each client gets the same answer: the origin is stored per
    /// connection, not recomputed per registry.
    @Test func everyRegistryOfAConnectionGetsTheSameAnswer() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let started = try TestClient(server: server, origin: .startedByStrata)
        let ordinary = try TestClient(server: server)
        for _ in 0..<3 {
            let startedAgain = RegistryCount(client: started)
            let ordinaryAgain = RegistryCount(client: ordinary)
            #expect(startedAgain.names.isSuperset(of: Self.privilegedGlobals))
            #expect(ordinaryAgain.names.isDisjoint(with: Self.privilegedGlobals))
        }
    }

    /// `--allow-privileged` admits every connection that is not sandboxed; `.nobody` none.
    @Test func theSettingDecidesForOrdinaryConnectionsOnly() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .everyone
        #expect(try TestClient(server: server).globals["zwlr_screencopy_manager_v1"] != nil)
        server.compositor.clientPrivilege = .nobody
        #expect(try TestClient(server: server, origin: .startedByStrata).globals["zwlr_screencopy_manager_v1"] == nil)
        #expect(ClientPrivilege.everyone.allows(.sandboxed(SecurityContextMetadata())) == false)
        #expect(ClientPrivilege.startedByStrata.allows(.sandboxed(SecurityContextMetadata())) == false)
    }

    /// The table of origins holds only live clients: back to empty once they are gone, so an
    /// address reused by a later client carries nothing over.
    @Test func originsAreForgottenWhenTheirClientsDisconnect() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let display = server.compositor.display
        var clients = try (0..<5).map { _ in try TestClient(server: server, origin: .startedByStrata) }
        let raw = try RawClient(server: server, origin: .startedByStrata)
        #expect(display.clientsWithOrigin == 6)
        clients.removeAll()
        withExtendedLifetime(raw) {}
        server.step()
        #expect(display.clientsWithOrigin == 1)
        let later = try TestClient(server: server)
        #expect(display.origin(of: later.serverClient) == .socket)
        #expect(later.globals["zwlr_screencopy_manager_v1"] == nil)
    }
}
