import Foundation
import StrataModel
import StrataNestedBackends
import StrataRender
import StrataServer
import Testing

/// Strata nested in Debian's Weston (headless, pixman): the parent's own screenshots show what
/// reached it. Weston's headless backend has no input devices, so input is tested under Xvfb
/// and with Strata as the parent (StrataParentTests).
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(if: ParentWeston.isInstalled, Comment(rawValue: ParentWeston.missingMessage)))
struct WestonParentTests {
    static let colour: UInt32 = 0xff3c_b371

    /// Pixels of the parent's screenshot that have exactly `argb`.
    func count(_ argb: UInt32, in shot: PNGFile.Pixels) -> Int {
        shot.argb.reduce(0) { $0 + ($1 | 0xff00_0000 == argb ? 1 : 0) }
    }

    func nested(in weston: ParentWeston, screens: Int = 1, width: Int = 320, height: Int = 200) throws
        -> (WaylandBackend, Compositor)
    {
        let backend = try WaylandBackend(
            displayName: weston.socketPath, screens: screens,
            modes: [ScreenMode(width: width, height: height)])
        let compositor = try Compositor(backend: backend)
        compositor.scene.backgroundARGB = Self.colour
        return (backend, compositor)
    }

    @Test func eachScreenBecomesAParentWindowShowingTheCanvas() throws {
        let weston = try ParentWeston()
        let (backend, compositor) = try nested(in: weston)
        defer { compositor.shutdown() }
        let output = try #require(compositor.scene.outputs.first)
        #expect(output.screen.name == "WL-1")
        #expect(step(compositor) { backend.isConfigured(output) && backend.committedFrames(for: output) >= 1 })
        #expect(output.width == 320 && output.height == 200, "Weston's desktop shell leaves the size to the client")
        let shot = try #require(
            try settled(compositor, read: weston.screenshot) { count(Self.colour, in: $0) == 320 * 200 })
        #expect(count(Self.colour, in: shot) == 320 * 200, "the whole canvas, and nothing else, has the colour")
    }

    @Test func onlyTheDamagedPartIsSentAndTheParentShowsIt() throws {
        let weston = try ParentWeston()
        let (backend, compositor) = try nested(in: weston)
        defer { compositor.shutdown() }
        let output = try #require(compositor.scene.outputs.first)
        #expect(step(compositor) { backend.committedFrames(for: output) >= 1 })
        settle(compositor, seconds: 0.2)
        let before = backend.committedFrames(for: output)
        // A new colour on a 50×40 corner only: the rest must keep the old colour in the parent,
        // which proves the frame went through the other (double-buffered) buffer's catch-up.
        compositor.scene.backgroundARGB = 0xffc8_3232
        output.damage.addRect(x: 0, y: 0, width: 50, height: 40)
        compositor.scene.scheduleFrame(output)
        #expect(step(compositor) { backend.committedFrames(for: output) > before })
        let shot = try #require(
            try settled(compositor, read: weston.screenshot) {
                count(0xffc8_3232, in: $0) == 50 * 40 && count(Self.colour, in: $0) == 320 * 200 - 50 * 40
            })
        #expect(count(0xffc8_3232, in: shot) == 50 * 40)
        #expect(count(Self.colour, in: shot) == 320 * 200 - 50 * 40)
    }

    @Test func aFullscreenConfigureFromTheParentBecomesTheScreensMode() throws {
        let weston = try ParentWeston(width: 640, height: 480)
        let (backend, compositor) = try nested(in: weston)
        defer { compositor.shutdown() }
        let output = try #require(compositor.scene.outputs.first)
        #expect(step(compositor) { backend.committedFrames(for: output) >= 1 })
        backend.setFullscreen(true, for: output)
        #expect(step(compositor) { output.width == 640 && output.height == 480 })
        #expect(output.screen.currentMode == ScreenMode(width: 640, height: 480))
        #expect(
            output.screen.availableModes == [ScreenMode(width: 320, height: 200), ScreenMode(width: 640, height: 480)])
        let shot = try #require(
            try settled(compositor, read: weston.screenshot) { count(Self.colour, in: $0) == 640 * 480 })
        #expect(count(Self.colour, in: shot) == 640 * 480)
        backend.setFullscreen(false, for: output)
        #expect(step(compositor) { output.width == 320 && output.height == 200 }, "Weston restores the size it had")
    }

    @Test func twoScreensAreTwoParentWindows() throws {
        let weston = try ParentWeston(width: 800, height: 600)
        let (backend, compositor) = try nested(in: weston, screens: 2, width: 200, height: 100)
        defer { compositor.shutdown() }
        #expect(compositor.scene.outputs.map(\.screen.name) == ["WL-1", "WL-2"])
        #expect(step(compositor) { compositor.scene.outputs.allSatisfy { backend.committedFrames(for: $0) >= 1 } })
        let shot = try #require(
            try settled(compositor, read: weston.screenshot) { count(Self.colour, in: $0) >= 200 * 100 })
        // Weston may stack the two windows over each other; at least one whole window shows.
        #expect(count(Self.colour, in: shot) >= 200 * 100)
    }

    @Test func losingTheParentEndsStrataWithAMessage() throws {
        let weston = try ParentWeston()
        let (backend, compositor) = try nested(in: weston)
        defer { compositor.shutdown() }
        var message: String?
        backend.onParentLost = { message = $0 }
        let output = try #require(compositor.scene.outputs.first)
        #expect(step(compositor) { backend.committedFrames(for: output) >= 1 })
        weston.stop()
        #expect(step(compositor) { message != nil })
        #expect(
            message?.hasPrefix("lost the connection to the parent compositor (WAYLAND_DISPLAY=\(weston.socketPath)): ")
                == true)
        #expect(backend.failure == message)
        // Repaints after the loss are ignored, not crashes.
        compositor.scene.damageAll(output)
        compositor.scene.repaintDamagedScreens()
    }

    @Test func theParentsWaylandDisplayIsNotLeftForStrataChildren() throws {
        let weston = try ParentWeston()
        setenv("WAYLAND_DISPLAY", weston.socketPath, 1)
        defer { unsetenv("WAYLAND_DISPLAY") }
        let backend = try BackendChoice.make(
            name: nil, environment: ProcessInfo.processInfo.environment, screens: 1,
            modes: [ScreenMode(width: 100, height: 100)])
        #expect(backend is WaylandBackend)
        #expect(getenv("WAYLAND_DISPLAY") == nil)
        let compositor = try Compositor(backend: backend)
        compositor.shutdown()
    }
}
