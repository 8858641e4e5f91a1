import CWaylandClient
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// The decision side of the XWM without an X server: an `X11WindowController` over X windows
/// whose X side records what would be written to X, fed the requests the XWM decodes (map,
/// configure request, state message, iconify, destroy); a Wayland client stands in for
/// Xwayland's surface. Checks the model's effects and the writes to X.
@Suite struct X11WindowControllerTests {
    /// The X side, recording: the last frame configured per window, the state writes, closes.
    final class RecordingXSide: X11WindowHost {
        let compositor: Compositor
        lazy var controller = X11WindowController(wm: self)
        var windows: [UInt32: X11Window] = [:]
        var configured: [UInt32: Rect] = [:]
        var configureCount = 0
        var stateWrites = 0
        var closes: [UInt32] = []
        var xwaylandClient: OpaquePointer? { nil }
        init(compositor: Compositor) { self.compositor = compositor }
        func window(_ id: UInt32) -> X11Window? { windows[id] }
        var managedWindows: [X11Window] { Array(windows.values) }
        func xClient(of xid: UInt32) -> UInt32 { xid & ~0x1f_ffff }
        func configure(_ window: X11Window, to frame: Rect) {
            window.x = Int32(frame.x)
            window.y = Int32(frame.y)
            window.width = Int32(frame.width)
            window.height = Int32(frame.height)
            configured[window.id] = frame
            configureCount += 1
        }
        func writeState(of window: X11Window) { stateWrites += 1 }
        func close(_ window: X11Window) { closes.append(window.id) }
        func windowDidChangeKeyState(_ window: X11Window, isKey: Bool) {}
        var logs: [String] = []
        func log(_ message: String) { logs.append(message) }

        func makeWindow(_ id: UInt32, width: Int32, height: Int32) -> X11Window {
            let window = X11Window(id: id, wm: self, overrideRedirect: false, x: 0, y: 0, width: width, height: height)
            windows[id] = window
            return window
        }
    }

    /// A committed surface of `width`×`height` from a Wayland client (as Xwayland would draw).
    static func drawnSurface(_ server: TestServer, _ shell: TestXdgShell, width: Int32, height: Int32) throws -> Surface
    {
        let surface = try #require(shell.makeSurface())
        let buffer = try #require(shell.makeBuffer(width: width, height: height, argb: 0xff20_40c0))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        #expect(shell.client.roundtrip())
        return try #require(server.compositor.surface(of: shell.client.serverClient, id: wl_proxy_get_id(surface)))
    }

    @Test func aMappedWindowIsPlacedShownAndToldToX() throws {
        let server = try TestServer()
        let side = RecordingXSide(compositor: server.compositor)
        let window = side.makeWindow(0x20_0001, width: 120, height: 80)
        window.title = "fed"
        window.appID = "Fed"
        side.controller.windowDidMap(window)
        let model = try #require(window.window)
        #expect(model.title == "fed" && model.appID == "Fed" && !model.isVisible)
        // Its surface drawn: shown, key, placed by the policy, and the frame told to X.
        let shell = try TestXdgShell(client: TestClient(server: server))
        #expect(window.associate(surface: try Self.drawnSurface(server, shell, width: 120, height: 80)))
        #expect(model.isVisible && model.isKeyWindow)
        #expect(model.frame.size == Size(width: 120, height: 80))
        #expect(side.configured[window.id] == model.frame)
        // Unmapped in X: hidden in the model; destroyed: closed.
        side.controller.windowDidUnmap(window)
        #expect(!model.isVisible)
        side.controller.windowDidDestroy(window)
        #expect(model.isClosed && window.window == nil)
    }

    @Test func aConfigureRequestGetsThePlacementFrameAndTheModelsOriginWithoutAnEcho() throws {
        let server = try TestServer()
        let side = RecordingXSide(compositor: server.compositor)
        let window = side.makeWindow(0x20_0001, width: 120, height: 80)
        // Not shown yet: what it asks.
        let early = side.controller.configureRequest(window, asks: XGeometry(x: 5, y: 6, width: 70, height: 50))
        #expect(early == Rect(x: 5, y: 6, width: 70, height: 50))
        side.controller.windowDidMap(window)
        let shell = try TestXdgShell(client: TestClient(server: server))
        #expect(window.associate(surface: try Self.drawnSurface(server, shell, width: 120, height: 80)))
        let model = try #require(window.window)
        let configures = side.configureCount
        // Shown: the policy's frame for the requested origin; the model takes the origin now,
        // the size at the surface's next commit, and nothing goes back to X from the model.
        let frame = side.controller.configureRequest(window, asks: XGeometry(x: 200, y: 150, width: 160, height: 100))
        #expect(frame.size == Size(width: 160, height: 100))
        #expect(model.frame == Rect(x: frame.x, y: frame.y, width: 120, height: 80))
        #expect(window.frameGivenToModel == model.frame)
        #expect(side.configureCount == configures)
    }

    @Test func stateIconifyAndCloseRequestsDecideInTheModel() throws {
        let server = try TestServer()
        let side = RecordingXSide(compositor: server.compositor)
        let window = side.makeWindow(0x20_0001, width: 120, height: 80)
        side.controller.windowDidMap(window)
        let shell = try TestXdgShell(client: TestClient(server: server))
        #expect(window.associate(surface: try Self.drawnSurface(server, shell, width: 120, height: 80)))
        let model = try #require(window.window)
        let placed = model.frame
        // Maximize (both directions): the policy's maximized frame is configured to X.
        side.controller.stateRequest(
            window, NetWMStateRequest(action: .add, states: [.maximizedVertically, .maximizedHorizontally]))
        #expect(model.isMaximized && window.isMaximized && side.stateWrites > 0)
        let maximized = try #require(server.compositor.windows.placedFrame(of: model))
        #expect(side.configured[window.id] == maximized && model.frame.origin == maximized.origin)
        // One direction removed: not maximized, back to the placed frame.
        side.controller.stateRequest(window, NetWMStateRequest(action: .remove, states: [.maximizedHorizontally]))
        #expect(!model.isMaximized && side.configured[window.id] == placed)
        // Iconify minimizes it in the model; a close request goes to X.
        side.controller.iconifyRequest(window)
        #expect(model.isHidden && model.isMinimized)
        window.closeRequest()
        #expect(side.closes == [window.id])
    }
}
