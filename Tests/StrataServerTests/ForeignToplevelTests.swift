import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// zwlr_foreign_toplevel_manager_v1: a taskbar lists, activates, minimizes and closes windows.
@Suite struct ForeignToplevelTests {
    final class Taskbar {
        final class Entry {
            let proxy: OpaquePointer
            var title = "", appID = "", states: [UInt32] = [], dones = 0, closed = false, outputs = 0
            init(_ proxy: OpaquePointer) { self.proxy = proxy }
            var isActivated: Bool { states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue) }
            var isMinimized: Bool { states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED.rawValue) }
        }
        var entries: [Entry] = []
        func entry(_ title: String) -> Entry? { entries.first { $0.title == title } }
    }

    static func taskbar(_ data: UnsafeMutableRawPointer?) -> Taskbar { Unmanaged<Taskbar>.fromOpaque(data!).takeUnretainedValue() }
    static func entry(_ data: UnsafeMutableRawPointer?, _ proxy: OpaquePointer?) -> Taskbar.Entry? {
        taskbar(data).entries.first { $0.proxy == proxy }
    }

    static var managerListener = zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in
            guard let handle else { return }
            taskbar(data).entries.append(Taskbar.Entry(handle))
            zwlr_foreign_toplevel_handle_v1_add_listener(handle, &handleListener, data)
        },
        finished: { _, _ in })

    static var handleListener = zwlr_foreign_toplevel_handle_v1_listener(
        title: { data, proxy, title in entry(data, proxy)?.title = String(cString: title!) },
        app_id: { data, proxy, appID in entry(data, proxy)?.appID = String(cString: appID!) },
        output_enter: { data, proxy, _ in entry(data, proxy)?.outputs += 1 },
        output_leave: { data, proxy, _ in entry(data, proxy)?.outputs -= 1 },
        state: { data, proxy, array in
            guard let array, let entry = entry(data, proxy) else { return }
            let count = array.pointee.size / 4
            entry.states = (0..<count).map { array.pointee.data.load(fromByteOffset: $0 * 4, as: UInt32.self) }
        },
        done: { data, proxy in entry(data, proxy)?.dones += 1 },
        closed: { data, proxy in entry(data, proxy)?.closed = true },
        parent: { _, _, _ in })

    @Test func aTaskbarListsActivatesMinimizesAndClosesWindows() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let first = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(first.toplevel, "first")
        xdg_toplevel_set_app_id(first.toplevel, "org.example.first")
        #expect(first.map(argb: 0xffff_0000))
        let second = try #require(shell.makeToplevel())
        xdg_toplevel_set_title(second.toplevel, "second")
        #expect(second.map(argb: 0xff00_ff00))
        _ = try client.bind(wl_output_interface_ptr(), version: 4)
        let seat = try client.bind(wl_seat_interface_ptr(), version: 8)
        let manager = try client.bind(zwlr_foreign_toplevel_manager_v1_interface_ptr(), version: 3)
        let bar = Taskbar()
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, &Self.managerListener, Unmanaged.passUnretained(bar).toOpaque())
        #expect(client.roundtrip())
        let one = try #require(bar.entry("first")), two = try #require(bar.entry("second"))
        #expect(one.appID == "org.example.first" && one.outputs == 1 && one.dones == 1)
        #expect(two.isActivated && !one.isActivated)
        // Activate: the model makes the first window key.
        zwlr_foreign_toplevel_handle_v1_activate(one.proxy, seat)
        #expect(client.roundtrip())
        #expect(server.windows.keyWindow?.title == "first")
        #expect(one.isActivated && !two.isActivated)
        // Minimize hides; activate shows and makes key again.
        zwlr_foreign_toplevel_handle_v1_set_minimized(one.proxy)
        #expect(client.roundtrip())
        #expect(one.isMinimized && server.windows.windows.first { $0.title == "first" }?.isHidden == true)
        zwlr_foreign_toplevel_handle_v1_activate(one.proxy, seat)
        #expect(client.roundtrip())
        #expect(!one.isMinimized && one.isActivated)
        // A new title is re-sent.
        xdg_toplevel_set_title(second.toplevel, "renamed")
        #expect(client.roundtrip())
        #expect(two.title == "renamed")
        // Close asks the client; its toplevel going away sends closed.
        zwlr_foreign_toplevel_handle_v1_close(two.proxy)
        #expect(client.roundtrip())
        #expect(second.closeRequests == 1)
        second.destroyToplevel()
        #expect(client.roundtrip())
        #expect(two.closed)
        withExtendedLifetime((first, second)) {}
    }

    @Test func unprivilegedClientsDoNotSeeTheManager() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        #expect(try TestClient(server: server).globals["zwlr_foreign_toplevel_manager_v1"] == nil)
    }
}
