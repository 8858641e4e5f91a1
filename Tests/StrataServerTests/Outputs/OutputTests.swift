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
        server.windows.setTransform(.rotated90, for: server.compositor.scene.outputs[1].screen)
        #expect(client.roundtrip())
        #expect(records[1].sizes.last.map { $0 == (200, 300) } == true)
        withExtendedLifetime(records) {}
    }

    @Test func aClientBindingAJustRemovedOutputIsNotDisconnected() throws {
        let server = try TestServer(screens: 2)
        let client = try TestClient(server: server)
        let second = try #require(client.allGlobals.filter { $0.interface == "wl_output" }.map(\.name).max())
        // The server unplugs the screen; the client has not read global_remove yet and binds it.
        server.compositor.disconnectScreen(server.compositor.scene.outputs[1])
        _ = client.bind(name: second, wl_output_interface_ptr(), version: 4)
        #expect(client.roundtrip())
        #expect(client.connectionError == 0)
        #expect(client.removedGlobals.contains(second))
        #expect(server.compositor.scene.outputs.count == 1)
    }

    @Test func windowsOfAnUnpluggedScreenMoveToTheMainScreen() throws {
        let server = try TestServer(screens: 2)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 40, height: 40, argb: Colour.green))
        let window = try #require(server.windows.windows.last)
        let second = server.compositor.scene.outputs[1]
        #expect(server.windows.move(window, to: second.screen, origin: Point(x: 5, y: 5)))
        #expect(shell.client.roundtrip())
        server.compositor.disconnectScreen(second)
        #expect(shell.client.roundtrip())
        #expect(window.screen === server.compositor.scene.outputs[0].screen)
        #expect(server.pixel(x: 10, y: 10) == Colour.green)
    }
}

/// Screens changing under windows: modes, hotplug with a client committing all the time.
@Suite struct ScreenChangeTests {
    @Test func aModeChangeReconfiguresMaximizedAndFullscreenWindowsForTheNewSize() throws {
        let server = try TestServer(width: 640, height: 480)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let maximized = try #require(shell.makeToplevel())
        #expect(maximized.map(width: 100, height: 100, argb: Colour.red))
        xdg_toplevel_set_maximized(maximized.toplevel)
        let fullscreen = try #require(shell.makeToplevel())
        #expect(fullscreen.map(width: 100, height: 100, argb: Colour.blue))
        xdg_toplevel_set_fullscreen(fullscreen.toplevel, nil)
        #expect(shell.client.roundtrip())
        let screen = server.compositor.scene.outputs[0].screen
        try server.windows.setCustomMode(ScreenMode(width: 800, height: 600), for: screen)
        #expect(shell.client.roundtrip())
        let m = try #require(maximized.lastConfigure), f = try #require(fullscreen.lastConfigure)
        #expect(m.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && m.width == 800 && m.height == 600)
        #expect(f.has(XDG_TOPLEVEL_STATE_FULLSCREEN) && f.width == 800 && f.height == 600)
        // Turning the screen swaps its logical size: configured again.
        server.windows.setTransform(.rotated90, for: screen)
        #expect(shell.client.roundtrip())
        #expect(fullscreen.lastConfigure.map { $0.width == 600 && $0.height == 800 } == true)
    }

    @Test func screensComeAndGoWhileAClientCommitsEveryFrame() throws {
        let server = try TestServer(screens: 2, width: 320, height: 240)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let bystander = try TestXdgShell(client: try TestClient(server: server))
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 50, height: 50, argb: Colour.red))
        let other = try #require(bystander.makeToplevel())
        #expect(other.map(width: 30, height: 30, argb: Colour.green))
        // The first window mapped is the committing client's.
        let window = try #require(server.windows.windows.first { $0.frame.width == 50 })
        var order: [String] = []
        let token = server.windows.notifications.addObserver(phase: .recording) { posted in
            switch posted.notification {
            case .windowDidMoveToScreen, .screenDidDisconnect, .screenDidConnect: order.append(posted.notification.name)
            default: break
            }
        }
        defer { server.windows.notifications.removeObserver(token) }
        let colours = [Colour.red, Colour.blue, Colour.yellow]
        var acked = toplevel.lastConfigure?.serial
        /// A new frame: ack a configure only when a new one came, attach a new buffer, commit.
        func redraw(_ argb: UInt32) -> Bool {
            if let configure = toplevel.lastConfigure, configure.serial != acked {
                toplevel.ack(configure.serial)
                acked = configure.serial
            }
            toplevel.attach(shell.makeBuffer(width: 50, height: 50, argb: argb))
            toplevel.commit()
            return shell.client.roundtrip()
        }
        for round in 0..<12 {
            // Put the window on the newest screen, then unplug that screen mid-stream.
            if let newest = server.compositor.scene.outputs.last, newest !== server.compositor.scene.outputs.first {
                _ = server.windows.move(window, to: newest.screen, origin: Point(x: 10, y: 10))
            }
            for frame in 0..<3 {
                #expect(redraw(colours[(round + frame) % 3]))
                server.step(timeout: 0.001)
            }
            if round % 2 == 0, let last = server.compositor.scene.outputs.last,
                server.compositor.scene.outputs.count > 1
            {
                server.compositor.disconnectScreen(last)
            } else {
                server.backend.addScreen(to: server.compositor)
            }
            #expect(shell.client.roundtrip())
            #expect(bystander.client.roundtrip())
        }
        #expect(shell.client.connectionError == 0 && bystander.client.connectionError == 0)
        #expect(window.screen != nil && server.windows.screens.contains { $0 === window.screen })
        // Every disconnect with the window on it moved the window first.
        for (index, name) in order.enumerated() where name == "screenDidDisconnect" {
            #expect(index > 0 && order[index - 1] == "windowDidMoveToScreen")
        }
        #expect(order.filter { $0 == "screenDidDisconnect" }.count == 6)
        server.repaint()
        // The window, wherever the moves left it, shows the last colour drawn, exactly.
        let last = colours[(11 + 2) % 3]
        let output = try #require(server.compositor.scene.outputs.first { $0.screen === window.screen })
        let index = try #require(server.compositor.scene.outputs.firstIndex { $0 === output })
        let origin = window.frame
        // (Its top corners: the other client's newer 30×30 window may cover its lower right.)
        #expect(server.pixel(x: Int32(origin.x), y: Int32(origin.y), screen: index) == last)
        #expect(server.pixel(x: Int32(origin.x) + 49, y: Int32(origin.y) + 1, screen: index) == last)
        #expect(
            server.pixel(x: Int32(origin.x) + 50, y: Int32(origin.y) + 1, screen: index) != last, "no wider than 50")
    }
}
