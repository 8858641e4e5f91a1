import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// The scene follows the model: whatever changes a window (frame, visibility, level, close) is
/// repainted where it was and where it is, without the caller damaging anything, and the scene
/// places surfaces from the anchors the wire gave it, never from the shells' classes.
@Suite struct SceneTests {
    /// A mapped 50×50 red toplevel at (0, 0), painted; the server, its model window and the
    /// client side (the shell holds the client: the caller keeps it alive).
    private func paintedWindow() throws -> (TestServer, Window, TestToplevel, TestXdgShell) {
        let (server, shell) = try makeXdgFixture()
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 50, height: 50, argb: Colour.red))
        let window = try #require(server.windows.windows.last)
        server.windows.setFrame(window, Rect(x: 0, y: 0, width: 50, height: 50))
        server.repaint()
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
        return (server, window, toplevel, shell)
    }

    @Test func aFrameChangeInTheModelRepaintsTheOldAndTheNewPlace() throws {
        let (server, window, _, shell) = try paintedWindow()
        let output = try #require(server.compositor.scene.outputs.first)
        // The model alone, as a policy or the control socket would: no damage call.
        server.windows.setFrame(window, Rect(x: 100, y: 0, width: 50, height: 50))
        #expect(output.isFrameScheduled)
        server.repaint()
        #expect(output.lastPaintedArea == 2 * 50 * 50)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        #expect(server.pixel(x: 110, y: 10) == Colour.red)
        #expect(shell.client.roundtrip())
    }

    @Test func aHiddenWindowsAreaIsRepaintedWithWhatIsBelow() throws {
        let (server, window, _, shell) = try paintedWindow()
        let output = try #require(server.compositor.scene.outputs.first)
        server.windows.hide(window)
        #expect(output.isFrameScheduled)
        server.repaint()
        #expect(output.lastPaintedArea == 50 * 50)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        server.windows.show(window, makeKey: false)
        server.repaint()
        #expect(output.lastPaintedArea == 50 * 50)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
        #expect(shell.client.roundtrip())
    }

    @Test func aClosedWindowsAreaIsRepaintedThoughTheModelNoLongerKnowsIt() throws {
        let (server, window, toplevel, shell) = try paintedWindow()
        let output = try #require(server.compositor.scene.outputs.first)
        toplevel.destroyToplevel()
        #expect(toplevel.client.roundtrip())
        #expect(window.isClosed)
        server.repaint()
        #expect(output.lastPaintedArea == 50 * 50)
        #expect(server.pixel(x: 10, y: 10) == Colour.background)
        #expect(shell.client.roundtrip())
    }

    @Test func aLevelChangeRepaintsTheWindowAboveWhatCoveredIt() throws {
        let (server, shell) = try makeXdgFixture()
        let low = try #require(shell.makeToplevel())
        #expect(low.map(width: 50, height: 50, argb: Colour.red))
        let high = try #require(shell.makeToplevel())
        #expect(high.map(width: 50, height: 50, argb: Colour.blue))
        let windows = server.windows.windows
        #expect(windows.count == 2)
        let bottom = try #require(windows.first), top = try #require(windows.last)
        server.windows.setFrame(bottom, Rect(x: 0, y: 0, width: 50, height: 50))
        server.windows.setFrame(top, Rect(x: 0, y: 0, width: 50, height: 50))
        #expect(server.pixel(x: 10, y: 10) == Colour.blue)
        server.windows.setLevel(bottom, .alert)
        #expect(server.pixel(x: 10, y: 10) == Colour.red)
    }

    @Test func surfacesArePlacedFromTheirWindowsFrameAndTheirAnchors() throws {
        let (server, window, _, shell) = try paintedWindow()
        let output = try #require(server.compositor.scene.outputs.first)
        server.windows.setFrame(window, Rect(x: 70, y: 30, width: 50, height: 50))
        var placed: [(Int32, Int32)] = []
        server.compositor.scene.forEachVisibleSurface(on: output) { _, x, y in placed.append((x, y)) }
        #expect(placed.map(\.0) == [70] && placed.map(\.1) == [30])
        #expect(server.compositor.scene.surface(at: 75, 35, on: output)?.window === window)
        server.windows.hide(window)
        #expect(server.compositor.scene.surface(at: 75, 35, on: output) == nil)
        #expect(shell.client.roundtrip())
    }

    /// The frame path reads the model and the anchors only: no file of the scene names a shell's
    /// class (a new kind of window, X11's, needs no change there).
    @Test func theSceneNamesNoShellClass() throws {
        let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Sources/StrataServer/Scene")
        let files = try FileManager.default.contentsOfDirectory(atPath: scene.path).filter { $0.hasSuffix(".swift") }
            .sorted()
        #expect(files.contains("Scene.swift"))
        let shellClasses = [
            "XdgToplevel", "XdgPopup", "XdgSurface", "WlShellSurface", "LayerSurface", "InputPopupSurface",
            "Subsurface", "PlainSurfaceWindow",
        ]
        for file in files {
            let text = try String(contentsOf: scene.appendingPathComponent(file), encoding: .utf8)
            // Whole identifiers (`TreeLimits.maxSubsurfaceDepth` names no class).
            let words = Set(text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init))
            for name in shellClasses {
                #expect(!words.contains(name), "\(file) names \(name)")
            }
        }
    }
}
