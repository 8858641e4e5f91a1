import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// ext_foreign_toplevel_list_v1: every mapped toplevel a handle with a stable identifier.
@Suite struct ForeignToplevelListTests {
    final class TopList {
        final class Entry {
            let proxy: OpaquePointer
            var identifier = "", title = "", appID = "", dones = 0, closed = false
            init(_ proxy: OpaquePointer) { self.proxy = proxy }
        }
        var entries: [Entry] = []
        var finished = false
        func entry(_ title: String) -> Entry? { entries.last { $0.title == title } }
    }

    static func list(_ data: UnsafeMutableRawPointer?) -> TopList {
        Unmanaged<TopList>.fromOpaque(data!).takeUnretainedValue()
    }
    static func entry(_ data: UnsafeMutableRawPointer?, _ proxy: OpaquePointer?) -> TopList.Entry? {
        list(data).entries.first { $0.proxy == proxy }
    }

    static var listListener = ext_foreign_toplevel_list_v1_listener(
        toplevel: { data, _, handle in
            guard let handle else { return }
            list(data).entries.append(TopList.Entry(handle))
            ext_foreign_toplevel_handle_v1_add_listener(handle, &handleListener, data)
        },
        finished: { data, _ in list(data).finished = true })

    static var handleListener = ext_foreign_toplevel_handle_v1_listener(
        closed: { data, proxy in entry(data, proxy)?.closed = true },
        done: { data, proxy in entry(data, proxy)?.dones += 1 },
        title: { data, proxy, title in entry(data, proxy)?.title = String(cString: title!) },
        app_id: { data, proxy, appID in entry(data, proxy)?.appID = String(cString: appID!) },
        identifier: { data, proxy, identifier in entry(data, proxy)?.identifier = String(cString: identifier!) })

    /// Binds the list on `client` and reads what it sends first.
    static func bindList(_ client: TestClient) throws -> (OpaquePointer, TopList) {
        let proxy = try client.bind(ext_foreign_toplevel_list_v1_interface_ptr(), version: 1)
        let list = TopList()
        ext_foreign_toplevel_list_v1_add_listener(proxy, &listListener, Unmanaged.passUnretained(list).toOpaque())
        #expect(client.roundtrip())
        return (proxy, list)
    }

    @Test func everyMappedToplevelIsAHandleWithIdentifierTitleAndAppID() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let first = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(first.toplevel, "first")
        xdg_toplevel_set_app_id(first.toplevel, "org.example.first")
        #expect(first.map(argb: 0xffff_0000))
        let (_, list) = try Self.bindList(client)
        defer { withExtendedLifetime(list) {} }
        let second = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(second.toplevel, "second")
        #expect(second.map(argb: 0xff00_ff00))
        #expect(client.roundtrip())
        #expect(list.entries.count == 2)
        let one = try #require(list.entry("first")), two = try #require(list.entry("second"))
        #expect(one.appID == "org.example.first" && one.dones == 1 && two.appID == "" && two.dones == 1)
        #expect(!one.identifier.isEmpty && one.identifier.utf8.count <= 32 && one.identifier != two.identifier)
        #expect(one.identifier.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f })
        // A title change: title, app id, done.
        xdg_toplevel_set_title(first.toplevel, "renamed")
        #expect(client.roundtrip())
        #expect(one.title == "renamed" && one.dones == 2 && !one.closed)
        // A second list of the same client sees the same identifiers.
        let (_, again) = try Self.bindList(client)
        defer { withExtendedLifetime(again) {} }
        #expect(Set(again.entries.map(\.identifier)) == [one.identifier, two.identifier])
    }

    @Test func anUnmapClosesTheHandleAndTheRemapIsANewIdentifier() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(toplevel.toplevel, "app")
        #expect(toplevel.map(argb: 0xffff_0000))
        let (_, list) = try Self.bindList(client)
        defer { withExtendedLifetime(list) {} }
        let before = try #require(list.entry("app"))
        // Minimized by the model: still mapped, still listed.
        let window = try #require(server.windows.windows.first { $0.title == "app" })
        server.windows.hide(window)
        #expect(client.roundtrip())
        #expect(!before.closed)
        server.windows.show(window, makeKey: true)
        #expect(toplevel.unmap())
        #expect(before.closed)
        #expect(toplevel.map(argb: 0xff00_ff00))
        #expect(list.entries.count == 2)
        let after = try #require(list.entries.last)
        #expect(after.title == "app" && !after.closed && after.identifier != before.identifier)
        // Closing the window closes the handle; its identifier is never seen again.
        toplevel.destroyToplevel()
        #expect(client.roundtrip())
        #expect(after.closed && after.dones == 1)
    }

    @Test func aWlShellToplevelIsListedUntilItsNullBuffer() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shells = try TestLegacyShells(client: client)
        let shellSurface = try #require(shells.makeShellSurface())
        wl_shell_surface_set_toplevel(shellSurface.shellSurface)
        wl_shell_surface_set_title(shellSurface.shellSurface, "old")
        #expect(shellSurface.commit(width: 50, height: 50, argb: 0xffff_0000))
        let (_, list) = try Self.bindList(client)
        defer { withExtendedLifetime(list) {} }
        let entry = try #require(list.entry("old"))
        #expect(!entry.closed && entry.dones == 1)
        #expect(shellSurface.commit(argb: nil))
        #expect(entry.closed)
    }

    @Test func layerSurfacesAreNotToplevels() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let panel = try #require(TestLayerSurface(shell: shell, layer: 2, namespace: "panel"))
        panel.setSize(100, 20)
        #expect(panel.map(argb: 0xff00_00ff))
        let toplevel = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(toplevel.toplevel, "app")
        #expect(toplevel.map(argb: 0xffff_0000))
        let (_, list) = try Self.bindList(client)
        defer { withExtendedLifetime(list) {} }
        #expect(list.entries.map(\.title) == ["app"])
    }

    @Test func stopEndsTheListWithFinished() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let (proxy, list) = try Self.bindList(client)
        defer { withExtendedLifetime(list) {} }
        ext_foreign_toplevel_list_v1_stop(proxy)
        ext_foreign_toplevel_list_v1_stop(proxy)
        #expect(client.roundtrip())
        #expect(list.finished)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(argb: 0xffff_0000))
        #expect(list.entries.isEmpty)
        ext_foreign_toplevel_list_v1_destroy(proxy)
        #expect(client.roundtrip())
    }

    @Test func unprivilegedClientsSeeNeitherTheListNorTheCaptureGlobals() throws {
        let server = try TestServer()
        let names = [
            "ext_foreign_toplevel_list_v1", "ext_image_copy_capture_manager_v1",
            "ext_output_image_capture_source_manager_v1", "ext_foreign_toplevel_image_capture_source_manager_v1",
        ]
        let privileged = try TestClient(server: server)
        #expect(names.allSatisfy { privileged.globals[$0]?.version == 1 })
        server.compositor.clientPrivilege = .nobody
        let other = try TestClient(server: server)
        #expect(names.allSatisfy { other.globals[$0] == nil })
        #expect(other.globals["wl_compositor"] != nil)
    }
}
