import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

final class DecorationRecord {
    var modes: [UInt32] = []
}

/// zxdg_decoration_manager_v1: server-side by default (Strata draws none), client-side when
/// the compositor is told so; the errors the spec names.
@Suite struct DecorationTests {
    static var listener = zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
        guard let data else { return }
        Unmanaged<DecorationRecord>.fromOpaque(data).takeUnretainedValue().modes.append(mode)
    })

    func fixture(mode: DecorationMode = .serverSide) throws -> (TestServer, TestXdgShell, OpaquePointer) {
        let (server, shell) = try makeXdgFixture()
        server.compositor.decorationMode = mode
        let manager = try shell.client.bind(zxdg_decoration_manager_v1_interface_ptr(), version: 1)
        return (server, shell, manager)
    }

    func decoration(_ manager: OpaquePointer, _ toplevel: TestToplevel, _ record: DecorationRecord) -> OpaquePointer? {
        let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        zxdg_toplevel_decoration_v1_add_listener(
            decoration, &Self.listener, Unmanaged.passUnretained(record).toOpaque())
        return decoration
    }

    @Test func theInitialConfigureAsksForServerSideDecorationsByDefault() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        let record = DecorationRecord()
        _ = decoration(manager, toplevel, record)
        #expect(toplevel.commitInitial())
        #expect(record.modes == [ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue])
        #expect(toplevel.configures.count == 1)
    }

    @Test func withClientSideDecorationsTheClientIsToldToDecorateItself() throws {
        let (_, shell, manager) = try fixture(mode: .clientSide)
        let toplevel = try #require(shell.makeToplevel())
        let record = DecorationRecord()
        let object = decoration(manager, toplevel, record)
        #expect(toplevel.commitInitial())
        #expect(record.modes == [ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue])
        // Asking for server side is heard and answered with Strata's mode, in a new configure.
        zxdg_toplevel_decoration_v1_set_mode(object, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        shell.client.roundtrip()
        #expect(
            record.modes == [
                ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue,
                ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue,
            ])
        #expect(toplevel.configures.count == 2)
    }

    @Test func aDecorationMadeAfterTheInitialConfigureComesWithANewConfigure() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        let record = DecorationRecord()
        _ = decoration(manager, toplevel, record)
        shell.client.roundtrip()
        #expect(record.modes == [ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue])
        #expect(toplevel.configures.count == 2)
    }

    @Test func aSecondDecorationIsAnAlreadyConstructedError() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        expectXdgProtocolError(
            shell.client, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED.rawValue,
            interface: "zxdg_decoration_manager_v1")
    }

    @Test func aDecorationForAToplevelWithABufferIsAnUnconfiguredBufferError() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 50, height: 50, argb: Colour.red))
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        expectXdgProtocolError(
            shell.client, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER.rawValue,
            interface: "zxdg_decoration_manager_v1")
    }

    @Test func destroyingTheToplevelBeforeItsDecorationIsAnOrphanedError() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        #expect(toplevel.commitInitial())
        toplevel.destroyToplevel()
        expectXdgProtocolError(
            shell.client, code: ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED.rawValue,
            interface: "zxdg_toplevel_decoration_v1")
    }

    @Test func destroyingTheDecorationFirstIsFine() throws {
        let (_, shell, manager) = try fixture()
        let toplevel = try #require(shell.makeToplevel())
        let object = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel.toplevel)
        #expect(toplevel.commitInitial())
        zxdg_toplevel_decoration_v1_destroy(object)
        toplevel.destroyToplevel()
        #expect(shell.client.roundtrip())
    }
}
