import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Override-redirect windows (menus, tooltips) are ordered with the window they belong to: its
/// `WM_TRANSIENT_FOR`, else their client's key or frontmost window, at that window's level,
/// never key; with none, at the popup level.
@Suite(
    "The XWM's override-redirect windows", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMOverrideRedirectTests {
    private typealias H = XTestHarness

    private static func mapped(
        _ server: TestServer, _ c: OpaquePointer, _ name: String, x: Int16 = 0,
        overrideRedirect: Bool = false, transientFor: xcb_window_t = 0
    ) throws -> (xcb_window_t, Window) {
        let window = H.createWindow(c, x: x, y: 0, width: 60, height: 40, overrideRedirect: overrideRedirect)
        H.setClass(c, window, name)
        if transientFor != 0 {
            H.set(
                c, window, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32,
                H.bytes([transientFor]))
        }
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).contains { $0.appID == name && $0.isVisible } })
        return (window, try #require(H.x11Windows(server).first { $0.appID == name }))
    }

    @Test func aMenuTransientForAWindowShowsDirectlyAboveItAtItsLevelAndFollowsItToTheFront() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (first, firstModel) = try Self.mapped(server, c, "first")
        let (_, secondModel) = try Self.mapped(server, c, "second")
        let alert = server.windows.createWindow(appID: "alert", title: "", pid: 0, level: .alert)
        server.windows.show(alert, makeKey: false)
        #expect(secondModel.isKeyWindow)
        let (_, menu) = try Self.mapped(server, c, "menu", overrideRedirect: true, transientFor: first)
        // The class arrives with the properties: wait for its transient parent too.
        #expect(
            server.run(seconds: 20) { server.windows.windows.map(\.appID) == ["first", "menu", "second", "alert"] })
        #expect(menu.level == .normal)
        #expect(!menu.isKeyWindow)
        #expect(secondModel.isKeyWindow)
        server.windows.orderFront(firstModel)
        #expect(server.windows.windows.map(\.appID) == ["second", "first", "menu", "alert"])
        // A level change of the parent takes the menu along.
        server.windows.setLevel(firstModel, .statusBar)
        #expect(server.windows.windows.map(\.appID) == ["second", "alert", "first", "menu"])
        #expect(menu.level == .statusBar)
    }

    @Test func aMenuWithoutTransientParentGoesAboveItsClientsFrontmostWindowAndASubmenuAboveIt() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let other = try #require(H.connect(xwayland))
        defer { xcb_disconnect(other) }
        _ = try Self.mapped(server, c, "mine")
        _ = try Self.mapped(server, other, "theirs")
        #expect(server.windows.keyWindow?.appID == "theirs")
        _ = try Self.mapped(server, c, "menu", overrideRedirect: true)
        #expect(server.run(seconds: 20) { server.windows.windows.map(\.appID) == ["mine", "menu", "theirs"] })
        _ = try Self.mapped(server, c, "submenu", x: 60, overrideRedirect: true)
        #expect(
            server.run(seconds: 20) { server.windows.windows.map(\.appID) == ["mine", "menu", "submenu", "theirs"] })
        // A tooltip of a client with no window of its own: the popup level, above everything.
        let lonely = try #require(H.connect(xwayland))
        defer { xcb_disconnect(lonely) }
        let (_, tooltip) = try Self.mapped(server, lonely, "tooltip", overrideRedirect: true)
        #expect(tooltip.level.rawValue == 3000)
        #expect(server.windows.windows.last === tooltip)
    }

    @Test func hugeAndSelfReferentialOverrideRedirectWindowsAreClampedAndOrderedSafely() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        _ = try Self.mapped(server, c, "main")
        // Larger than the screen, one transient for itself; one at the far corner of X's
        // coordinates, transient for a window that does not exist; one as wide as X allows.
        let far = H.createWindow(c, x: -1000, y: -1000, width: 3000, height: 2000, overrideRedirect: true)
        H.set(c, far, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32, H.bytes([far]))
        let ghost = H.createWindow(c, x: 32000, y: -32000, width: 20, height: 20, overrideRedirect: true)
        H.set(
            c, ghost, XCB_ATOM_WM_TRANSIENT_FOR.rawValue, type: XCB_ATOM_WINDOW.rawValue, format: 32,
            H.bytes([0x7fff_fff0]))
        let wide = H.createWindow(c, x: 0, y: 100, width: 32767, height: 1, overrideRedirect: true)
        for window in [far, ghost, wide] { xcb_map_window(c, window) }
        xcb_flush(c)
        #expect(server.run(seconds: 30) { H.x11Windows(server).filter(\.isVisible).count == 4 })
        let popups = H.x11Windows(server).filter { !$0.canBecomeKey }
        #expect(popups.count == 3)
        #expect(popups.allSatisfy { $0.level == .normal && !$0.isKeyWindow })
        #expect(popups.map(\.frame).contains(Rect(x: -1000, y: -1000, width: 3000, height: 2000)))
        #expect(popups.map(\.frame).contains(Rect(x: 0, y: 100, width: 32767, height: 1)))
        #expect(server.windows.keyWindow?.appID == "main")
        // The main window first, its popups above it.
        #expect(server.windows.windows.first?.appID == "main")
        for window in [far, ghost, wide] { xcb_destroy_window(c, window) }
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).count == 1 })
    }
}
