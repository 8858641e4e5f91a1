import Foundation
import StrataModel
import StrataServer

/// An in-process Strata with headless screens, stepped by the test (no threads, no sleeps):
/// clients connect through socket pairs and `TestClient.roundtrip()` interleaves both sides.
public final class TestServer {
    public let compositor: Compositor
    public let backend: HeadlessBackend

    public init(screens: Int = 1, width: Int = 640, height: Int = 480, policy: KeyWindowPolicy = UIKitKeyWindowPolicy()) throws {
        backend = HeadlessBackend(screens: screens, modes: [ScreenMode(width: width, height: height)])
        compositor = try Compositor(backend: backend, policy: policy)
        compositor.backgroundARGB = TestServer.background
    }

    /// The background colour tests compare against.
    public static let background: UInt32 = 0xff20_2428

    public var windows: WindowManager { compositor.windows }

    /// The live ResourceObjects of this server (the leak check: back at the baseline once a
    /// client is gone).
    public var liveCounts: ResourceObject.LiveCounts { ResourceObject.liveCounts(on: compositor.display.display) }

    /// One non-blocking step of the server loop.
    public func step(timeout: Double = 0) {
        compositor.dispatch(timeout: timeout)
    }

    /// Repaints every damaged screen now (instead of waiting for the frame clock).
    public func repaint() {
        compositor.repaintDamagedScreens()
    }

    /// The pixel at (x, y) of screen `index` as 0xAARRGGBB, after repainting.
    public func pixel(x: Int32, y: Int32, screen index: Int = 0) -> UInt32? {
        repaint()
        guard compositor.outputs.indices.contains(index) else { return nil }
        return compositor.outputs[index].canvas.pixel(x: x, y: y)
    }

    deinit {
        compositor.shutdown()
    }
}
