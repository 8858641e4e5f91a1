import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The pid of an X window: `_NET_WM_PID`, else X-Resource's LocalClientPID of its client.
@Suite("The XWM's pid fallback", .serialized, .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMPidTests {
    private typealias H = XTestHarness

    @Test func aWindowWithoutNetWMPidGetsItsClientsPidFromXResAndAnExplicitPidWins() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let bare = H.createWindow(c, x: 0, y: 0, width: 30, height: 30)
        H.setClass(c, bare, "bare")
        let named = H.createWindow(c, x: 40, y: 0, width: 30, height: 30)
        H.setClass(c, named, "named")
        H.set(c, named, H.atom(c, "_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 32, H.bytes([4242]))
        // A pid of -1 is no pid either.
        let negative = H.createWindow(c, x: 80, y: 0, width: 30, height: 30)
        H.setClass(c, negative, "negative")
        H.set(
            c, negative, H.atom(c, "_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 32, H.bytes([0xffff_ffff]))
        for window in [bare, named, negative] { xcb_map_window(c, window) }
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).filter(\.isVisible).count == 3 })
        func pid(_ name: String) -> Int32? { H.x11Windows(server).first { $0.appID == name }?.pid }
        #expect(server.run(seconds: 20) { pid("bare") == getpid() && pid("negative") == getpid() })
        #expect(pid("named") == 4242)
        // The client sets a pid later: it wins over X-Resource's.
        H.set(c, bare, H.atom(c, "_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 32, H.bytes([777]))
        xcb_flush(c)
        #expect(server.run(seconds: 20) { pid("bare") == 777 })
    }
}
