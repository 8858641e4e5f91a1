import CStrataClientGlue
import CWaylandClient
import StrataModel
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
            var isMaximized: Bool { states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED.rawValue) }
            var isFullscreen: Bool { states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue) }
        }
        var entries: [Entry] = []
        func entry(_ title: String) -> Entry? { entries.first { $0.title == title } }
    }

    static func taskbar(_ data: UnsafeMutableRawPointer?) -> Taskbar {
        Unmanaged<Taskbar>.fromOpaque(data!).takeUnretainedValue()
    }
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
        zwlr_foreign_toplevel_manager_v1_add_listener(
            manager, &Self.managerListener, Unmanaged.passUnretained(bar).toOpaque())
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
        // A minimized window's new title and app id still reach the taskbar (the model posts them).
        xdg_toplevel_set_title(first.toplevel, "first, minimized")
        xdg_toplevel_set_app_id(first.toplevel, "org.example.minimized")
        #expect(client.roundtrip())
        #expect(one.title == "first, minimized" && one.appID == "org.example.minimized")
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

    /// One client with an xdg toplevel ("app", mapped 100×100 unless `map` is false) and a bound
    /// taskbar (WLCS's ForeignToplevelHandleTest fixture, with the configure dance done right).
    /// Torn down in order: the toplevel (its buffer), the client, then the server it steps.
    final class Fixture {
        private(set) var toplevel: TestToplevel!
        private(set) var shell: TestXdgShell!
        private(set) var server: TestServer!
        let bar = Taskbar()
        let seat: OpaquePointer
        var client: TestClient { shell.client }
        var window: Window? { server.windows.windows.first { $0.title == "app" } }
        func entry() throws -> Taskbar.Entry { try #require(bar.entry("app")) }

        init(map: Bool = true) throws {
            let server = try TestServer()
            let shell = try TestXdgShell(client: TestClient(server: server))
            let toplevel = try #require(shell.makeToplevel())
            xdg_toplevel_set_title(toplevel.toplevel, "app")
            if map { #expect(toplevel.map(argb: 0xffff_0000)) }
            seat = try shell.client.bind(wl_seat_interface_ptr(), version: 8)
            let manager = try shell.client.bind(zwlr_foreign_toplevel_manager_v1_interface_ptr(), version: 3)
            zwlr_foreign_toplevel_manager_v1_add_listener(
                manager, &ForeignToplevelTests.managerListener, Unmanaged.passUnretained(bar).toOpaque())
            #expect(shell.client.roundtrip())
            (self.server, self.shell, self.toplevel) = (server, shell, toplevel)
        }

        deinit {
            toplevel = nil
            shell = nil
            server = nil
        }
    }

    static func fixture() throws -> Fixture { try Fixture() }

    @Test func aTaskbarMaximizesAndRestoresAWindowThroughItsConfigure() throws {
        let f = try Self.fixture()
        let entry = try f.entry(), window = try #require(f.window)
        #expect(!entry.isMaximized && window.frame.size == Size(width: 100, height: 100))
        zwlr_foreign_toplevel_handle_v1_set_maximized(entry.proxy)
        #expect(f.client.roundtrip())
        // The configure asks for the usable area; the taskbar hears at once.
        let maximized = try #require(f.toplevel.lastConfigure)
        #expect(maximized.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && maximized.width == 640 && maximized.height == 480)
        #expect(entry.isMaximized)
        #expect(f.toplevel.ackAndRedraw(argb: 0xffff_0000))
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        zwlr_foreign_toplevel_handle_v1_unset_maximized(entry.proxy)
        #expect(f.client.roundtrip())
        let restored = try #require(f.toplevel.lastConfigure)
        #expect(!restored.has(XDG_TOPLEVEL_STATE_MAXIMIZED) && restored.width == 100 && restored.height == 100)
        #expect(!entry.isMaximized)
        #expect(f.toplevel.ackAndRedraw(argb: 0xffff_0000))
        #expect(window.frame.size == Size(width: 100, height: 100))
        withExtendedLifetime(f) {}
    }

    @Test func aTaskbarMakesAWindowFullscreenInFrontOfItsLevel() throws {
        let f = try Self.fixture()
        let entry = try f.entry(), window = try #require(f.window)
        // Another window of the same level, shown later, is in front.
        let other = try #require(f.shell.makeToplevel())
        xdg_toplevel_set_title(other.toplevel, "other")
        #expect(other.map(argb: 0xff00_ff00))
        #expect(f.client.roundtrip())
        #expect(f.server.windows.windows.map(\.title) == ["app", "other"])
        zwlr_foreign_toplevel_handle_v1_set_fullscreen(entry.proxy, nil)
        #expect(f.client.roundtrip())
        let fullscreen = try #require(f.toplevel.lastConfigure)
        #expect(fullscreen.has(XDG_TOPLEVEL_STATE_FULLSCREEN) && fullscreen.width == 640 && fullscreen.height == 480)
        #expect(entry.isFullscreen)
        // The stacking changes when the client draws its fullscreen state.
        #expect(f.toplevel.ackAndRedraw(argb: 0xff00_00ff))
        #expect(window.frame == Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(f.server.windows.windows.map(\.title) == ["other", "app"])
        #expect(window.level == .normal)
        #expect(f.server.pixel(x: 50, y: 50) == 0xff00_00ff)
        zwlr_foreign_toplevel_handle_v1_unset_fullscreen(entry.proxy)
        #expect(f.client.roundtrip())
        #expect(!(f.toplevel.lastConfigure?.has(XDG_TOPLEVEL_STATE_FULLSCREEN) ?? true) && !entry.isFullscreen)
        #expect(f.toplevel.ackAndRedraw(argb: 0xff00_00ff))
        #expect(window.frame.size == Size(width: 100, height: 100))
        withExtendedLifetime(other) {}
        withExtendedLifetime(f) {}
    }

    @Test func maximizingAFullscreenWindowKeepsItFullscreenUntilItLeavesFullscreen() throws {
        let f = try Self.fixture()
        let entry = try f.entry()
        xdg_toplevel_set_fullscreen(f.toplevel.toplevel, nil)
        #expect(f.client.roundtrip())
        #expect(entry.isFullscreen && !entry.isMaximized)
        zwlr_foreign_toplevel_handle_v1_set_maximized(entry.proxy)
        #expect(f.client.roundtrip())
        let both = try #require(f.toplevel.lastConfigure)
        #expect(both.has(XDG_TOPLEVEL_STATE_FULLSCREEN) && both.width == 640 && entry.isFullscreen && entry.isMaximized)
        zwlr_foreign_toplevel_handle_v1_unset_fullscreen(entry.proxy)
        #expect(f.client.roundtrip())
        let maximized = try #require(f.toplevel.lastConfigure)
        #expect(!maximized.has(XDG_TOPLEVEL_STATE_FULLSCREEN) && maximized.has(XDG_TOPLEVEL_STATE_MAXIMIZED))
        #expect(!entry.isFullscreen && entry.isMaximized)
        withExtendedLifetime(f) {}
    }

    @Test func theClientsOwnMaximizeFullscreenAndMinimizeReachTheTaskbar() throws {
        let f = try Self.fixture()
        let entry = try f.entry()
        xdg_toplevel_set_maximized(f.toplevel.toplevel)
        #expect(f.client.roundtrip())
        #expect(entry.isMaximized)
        xdg_toplevel_unset_maximized(f.toplevel.toplevel)
        xdg_toplevel_set_fullscreen(f.toplevel.toplevel, nil)
        #expect(f.client.roundtrip())
        #expect(!entry.isMaximized && entry.isFullscreen)
        xdg_toplevel_unset_fullscreen(f.toplevel.toplevel)
        xdg_toplevel_set_minimized(f.toplevel.toplevel)
        #expect(f.client.roundtrip())
        #expect(!entry.isFullscreen && entry.isMinimized)
        withExtendedLifetime(f) {}
    }

    @Test func unminimizingMakesKeyAndKeepsTheMaximizedState() throws {
        let f = try Self.fixture()
        let entry = try f.entry(), window = try #require(f.window)
        xdg_toplevel_set_maximized(f.toplevel.toplevel)
        #expect(f.client.roundtrip())
        xdg_toplevel_set_minimized(f.toplevel.toplevel)
        #expect(f.client.roundtrip())
        #expect(entry.isMinimized && entry.isMaximized && !entry.isActivated && !window.isKeyWindow)
        zwlr_foreign_toplevel_handle_v1_unset_minimized(entry.proxy)
        #expect(f.client.roundtrip())
        #expect(!entry.isMinimized && entry.isMaximized && entry.isActivated && window.isKeyWindow)
        #expect(f.toplevel.lastConfigure?.has(XDG_TOPLEVEL_STATE_MAXIMIZED) == true)
        withExtendedLifetime(f) {}
    }

    @Test func maximizingFullscreeningOrActivatingShowsAMinimizedWindow() throws {
        let requests: [(String, (Fixture, Taskbar.Entry) -> Void)] = [
            ("set_maximized", { _, e in zwlr_foreign_toplevel_handle_v1_set_maximized(e.proxy) }),
            ("set_fullscreen", { _, e in zwlr_foreign_toplevel_handle_v1_set_fullscreen(e.proxy, nil) }),
            ("activate", { f, e in zwlr_foreign_toplevel_handle_v1_activate(e.proxy, f.seat) }),
        ]
        for (name, request) in requests {
            let f = try Self.fixture()
            let entry = try f.entry()
            xdg_toplevel_set_minimized(f.toplevel.toplevel)
            #expect(f.client.roundtrip())
            #expect(entry.isMinimized, "\(name)")
            request(f, entry)
            #expect(f.client.roundtrip())
            #expect(!entry.isMinimized && entry.isActivated && f.window?.isVisible == true, "\(name)")
            withExtendedLifetime(f) {}
        }
    }

    @Test func anUnmappedWindowStaysHiddenWhateverTheTaskbarAsks() throws {
        let f = try Self.fixture()
        let entry = try f.entry(), window = try #require(f.window)
        #expect(f.toplevel.unmap())
        #expect(entry.isMinimized && window.isHidden)
        zwlr_foreign_toplevel_handle_v1_unset_minimized(entry.proxy)
        zwlr_foreign_toplevel_handle_v1_activate(entry.proxy, f.seat)
        zwlr_foreign_toplevel_handle_v1_set_maximized(entry.proxy)
        #expect(f.client.roundtrip())
        #expect(window.isHidden && entry.isMinimized && !entry.isMaximized)
        withExtendedLifetime(f) {}
    }

    @Test func unprivilegedClientsDoNotSeeTheManager() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        #expect(try TestClient(server: server).globals["zwlr_foreign_toplevel_manager_v1"] == nil)
    }
}
