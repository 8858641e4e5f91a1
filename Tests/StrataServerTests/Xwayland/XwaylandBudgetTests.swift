import CXCB
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// Xwayland's budget, per X client: an X client holding thousands of pixmaps (each a wl_shm pool
/// on Xwayland's connection) or windows takes neither Xwayland nor the other X clients down.
@Suite(
    "Xwayland's budget per X client", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XwaylandBudgetTests {
    private typealias H = XTestHarness

    /// A round trip: the X server has handled everything `c` sent (false: the connection is gone).
    @discardableResult
    private static func sync(_ c: OpaquePointer) -> Bool {
        guard let reply = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil) else { return false }
        free(reply)
        return xcb_connection_has_error(c) == 0
    }

    /// An xcb connection used by one other thread while the test's thread runs the server.
    private struct Connection: @unchecked Sendable { let c: OpaquePointer }

    /// Xwayland's live wl_shm pool mappings.
    private static func pools(_ xwayland: Xwayland) -> Int {
        xwayland.client.flatMap { ClientBudget.of($0) }?.pools ?? -1
    }

    /// Creates `count` depth-24 pixmaps of 16×16 on the root, in batches of `batch`, letting the
    /// server take Xwayland's pools after each batch; stops early when `stop` holds or the client is
    /// gone. How many were made.
    @discardableResult
    private static func makePixmaps(
        _ c: OpaquePointer, count: Int, batch: Int, server: TestServer, xwayland: Xwayland,
        stop: () -> Bool = { false }
    ) -> Int {
        let root = H.root(c)
        let start = pools(xwayland)
        var made = 0
        while made < count, xcb_connection_has_error(c) == 0, !stop() {
            for _ in 0..<min(batch, count - made) {
                xcb_create_pixmap(c, 24, xcb_generate_id(c), root, 16, 16)
                made += 1
            }
            guard sync(c) else { break }
            _ = server.run(seconds: 10) { pools(xwayland) >= start + made || stop() || xwayland.client == nil }
        }
        return made
    }

    private static func mapWindow(_ c: OpaquePointer, name: String) -> xcb_window_t {
        let window = H.createWindow(c, x: 10, y: 10, width: 60, height: 40)
        H.setClass(c, window, name)
        xcb_map_window(c, window)
        xcb_flush(c)
        return window
    }

    /// 2,000 pixmaps of depth 24 from one client (an ordinary client's cap is 1,024 pools): each
    /// is a pool on Xwayland's connection, Xwayland stays, and another client's window still maps.
    @Test func twoThousandPixmapsLeaveXwaylandRunning() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let pid = xwayland.pid
        let before = Self.pools(xwayland)
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        #expect(Self.makePixmaps(c, count: 2000, batch: 100, server: server, xwayland: xwayland) == 2000)
        #expect(Self.pools(xwayland) >= before + 2000, "Xwayland makes a pool for each pixmap of depth 24")
        #expect(Self.pools(xwayland) > Int(ClientBudget.maxPools))
        #expect(xwayland.client != nil && xwayland.pid == pid)
        let other = try #require(H.connect(xwayland))
        defer { xcb_disconnect(other) }
        _ = Self.mapWindow(other, name: "bystander")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "bystander" && $0.isVisible } })
        #expect(Self.sync(c), "the client with the pixmaps is still connected")
    }

    /// With Xwayland's budget lowered to an ordinary client's (1,024 pools; its high-water mark
    /// 512), a client making 2,000 pixmaps is disconnected past the mark, named in the log with
    /// its pid; Xwayland and a bystander holding a few pixmaps and a window go on.
    @Test func theXClientHoldingTheMostPixmapsIsDroppedNotXwayland() throws {
        let (server, xwayland) = try H.start(budget: .client)
        defer { xwayland.shutdown() }
        var lines: [String] = []
        xwayland.log = { lines.append($0) }
        let pid = xwayland.pid
        let bystander = try #require(H.connect(xwayland))
        defer { xcb_disconnect(bystander) }
        Self.makePixmaps(bystander, count: 20, batch: 20, server: server, xwayland: xwayland)
        _ = Self.mapWindow(bystander, name: "bystander")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "bystander" && $0.isVisible } })
        let hostile = try #require(H.connect(xwayland))
        defer { xcb_disconnect(hostile) }
        let dropped = { lines.contains { $0.contains("disconnected") } }
        let made = Self.makePixmaps(hostile, count: 2000, batch: 50, server: server, xwayland: xwayland, stop: dropped)
        #expect(server.run(seconds: 20) { dropped() })
        #expect(made < 2000)
        #expect(!Self.sync(hostile), "the hostile client is disconnected")
        let line = try #require(lines.first { $0.contains("disconnected") })
        #expect(line.contains("pid \(getpid())"), "\(line)")
        #expect(line.contains("pixmaps") && line.contains("1024 wl_shm pools"), "\(line)")
        #expect(xwayland.client != nil && xwayland.pid == pid, "Xwayland did not end")
        #expect(Self.sync(bystander), "the bystander is still connected")
        _ = Self.mapWindow(bystander, name: "after")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "after" && $0.isVisible } })
        #expect(server.run(seconds: 20) { Self.pools(xwayland) < 512 }, "the dropped client's pools are gone")
    }

    /// At Xwayland's real budget (16,384 pools, the mark at 8,192), a client making 12,000
    /// pixmaps is dropped past the mark, and Xwayland keeps running.
    @Test func pastHalfOfXwaylandsRealBudgetTheClientIsDropped() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        var lines: [String] = []
        xwayland.log = { lines.append($0) }
        let pid = xwayland.pid
        let hostile = try #require(H.connect(xwayland))
        defer { xcb_disconnect(hostile) }
        let dropped = { lines.contains { $0.contains("disconnected") } }
        let made = Self.makePixmaps(
            hostile, count: 12_000, batch: 500, server: server, xwayland: xwayland, stop: dropped)
        #expect(server.run(seconds: 20) { dropped() })
        #expect(made > 8192 && made < 12_000, "\(made)")
        #expect(xwayland.client != nil && xwayland.pid == pid, "Xwayland did not end")
        #expect(server.run(seconds: 20) { Self.pools(xwayland) < 100 }, "the dropped client's pools are gone")
        let other = try #require(H.connect(xwayland))
        defer { xcb_disconnect(other) }
        _ = Self.mapWindow(other, name: "after")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "after" && $0.isVisible } })
    }

    /// One client creates more windows than its cap: its window past the cap is never mapped (and
    /// logged once), while a second client's window maps.
    @Test func aClientPastItsWindowCapDoesNotDenyAnotherClientsWindow() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        var lines: [String] = []
        xwayland.log = { lines.append($0) }
        let greedy = try #require(H.connect(xwayland))
        defer { xcb_disconnect(greedy) }
        for index in 0..<XWM.maxWindowsPerClient {
            _ = H.createWindow(greedy, x: 0, y: 0, width: 1, height: 1)
            if index % 512 == 511 {
                Self.sync(greedy)
                _ = server.run(seconds: 10) { (xwayland.wm?.windowCount ?? 0) > index }
            }
        }
        let extra = Self.mapWindow(greedy, name: "extra")
        Self.sync(greedy)
        #expect(server.run(seconds: 20) { lines.contains { $0.contains("the cap of one X client") } })
        let other = try #require(H.connect(xwayland))
        defer { xcb_disconnect(other) }
        _ = Self.mapWindow(other, name: "other")
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == "other" && $0.isVisible } })
        #expect(!H.x11Windows(server).contains { $0.appID == "extra" })
        let attributes = xcb_get_window_attributes_reply(greedy, xcb_get_window_attributes(greedy, extra), nil)
        defer { free(attributes) }
        #expect(attributes?.pointee.map_state == UInt8(XCB_MAP_STATE_UNMAPPED.rawValue))
        #expect(lines.filter { $0.contains("the cap of one X client") }.count == 1)
    }
}
