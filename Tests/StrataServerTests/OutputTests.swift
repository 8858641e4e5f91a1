import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// wl_output and zxdg_output_v1 as screens come, change and go.
@Suite struct OutputTests {
    final class XdgOutputRecord {
        var positions: [(Int32, Int32)] = []
        var sizes: [(Int32, Int32)] = []
        var names: [String] = []
    }

    static var xdgOutputListener = zxdg_output_v1_listener(
        logical_position: { data, _, x, y in
            guard let data else { return }
            Unmanaged<XdgOutputRecord>.fromOpaque(data).takeUnretainedValue().positions.append((x, y))
        },
        logical_size: { data, _, w, h in
            guard let data else { return }
            Unmanaged<XdgOutputRecord>.fromOpaque(data).takeUnretainedValue().sizes.append((w, h))
        },
        done: { _, _ in },
        name: { data, _, name in
            guard let data, let name else { return }
            Unmanaged<XdgOutputRecord>.fromOpaque(data).takeUnretainedValue().names.append(String(cString: name))
        },
        description: { _, _, _ in })

    @Test func xdgOutputGivesEachScreensLogicalPlaceInTheLayout() throws {
        let server = try TestServer(screens: 2, width: 300, height: 200)
        let client = try TestClient(server: server)
        let manager = try client.bind(zxdg_output_manager_v1_interface_ptr(), version: 3)
        #expect(client.globals["zxdg_output_manager_v1"]?.version == 3)
        // Bind both wl_outputs by their global names.
        let outputNames = client.allGlobals.filter { $0.interface == "wl_output" }.map(\.name).sorted()
        #expect(outputNames.count == 2)
        var records: [XdgOutputRecord] = []
        for name in outputNames {
            let output = try #require(client.bind(name: name, wl_output_interface_ptr(), version: 4))
            let xdg = zxdg_output_manager_v1_get_xdg_output(manager, output)
            let record = XdgOutputRecord()
            zxdg_output_v1_add_listener(xdg, &Self.xdgOutputListener, Unmanaged.passUnretained(record).toOpaque())
            records.append(record)
        }
        #expect(client.roundtrip())
        #expect(records[0].positions.first.map { $0 == (0, 0) } == true)
        #expect(records[1].positions.first.map { $0 == (300, 0) } == true)
        #expect(records[1].sizes.first.map { $0 == (300, 200) } == true)
        #expect(records[0].names == ["HEADLESS-1"] && records[1].names == ["HEADLESS-2"])
        // Turning the second screen re-announces its logical size.
        server.windows.setTransform(.rotated90, for: server.compositor.outputs[1].screen)
        #expect(client.roundtrip())
        #expect(records[1].sizes.last.map { $0 == (200, 300) } == true)
        withExtendedLifetime(records) {}
    }

    @Test func aClientBindingAJustRemovedOutputIsNotDisconnected() throws {
        let server = try TestServer(screens: 2)
        let client = try TestClient(server: server)
        let second = try #require(client.allGlobals.filter { $0.interface == "wl_output" }.map(\.name).max())
        // The server unplugs the screen; the client has not read global_remove yet and binds it.
        server.compositor.disconnectScreen(server.compositor.outputs[1])
        _ = client.bind(name: second, wl_output_interface_ptr(), version: 4)
        #expect(client.roundtrip())
        #expect(client.connectionError == 0)
        #expect(client.removedGlobals.contains(second))
        #expect(server.compositor.outputs.count == 1)
    }

    @Test func windowsOfAnUnpluggedScreenMoveToTheMainScreen() throws {
        let server = try TestServer(screens: 2)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 40, height: 40, argb: Colour.green))
        let window = try #require(server.windows.windows.last)
        let second = server.compositor.outputs[1]
        #expect(server.windows.move(window, to: second.screen, origin: Point(x: 5, y: 5)))
        #expect(shell.client.roundtrip())
        server.compositor.disconnectScreen(second)
        #expect(shell.client.roundtrip())
        #expect(window.screen === server.compositor.outputs[0].screen)
        #expect(server.pixel(x: 10, y: 10) == Colour.green)
    }
}
