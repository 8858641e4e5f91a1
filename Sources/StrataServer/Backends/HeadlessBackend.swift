import StrataModel
import StrataRender

/// Screens that exist only in memory. Frames are paced by each screen's frame clock; the images
/// are read back for screenshots and tests.
public final class HeadlessBackend: Backend {
    public let name = "headless"
    /// Nobody sees a headless screen: its first frame waits for a client, a screenshot or a copy.
    public var showsFrames: Bool { false }
    public var screenCount: Int
    public var modes: [ScreenMode]

    public init(screens: Int = 1, modes: [ScreenMode] = [ScreenMode(width: 1280, height: 720)]) {
        self.screenCount = max(0, screens)
        self.modes = modes.isEmpty ? [ScreenMode(width: 1280, height: 720)] : modes
    }

    public func start(_ compositor: Compositor) throws(ServerError) {
        for _ in 0..<screenCount {
            addScreen(to: compositor)
        }
    }

    /// Connects one more headless screen (hotplug in tests and from the control socket).
    @discardableResult
    public func addScreen(to compositor: Compositor, name: String? = nil, modes: [ScreenMode]? = nil) -> ScreenOutput? {
        let index = compositor.screensCreated + 1
        return compositor.connectScreen(
            name: name ?? "HEADLESS-\(index)", modes: modes ?? self.modes, backendName: "headless")
    }
}
