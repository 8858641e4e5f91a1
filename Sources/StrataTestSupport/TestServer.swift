import CWaylandServer
import Foundation
import StrataModel
import StrataServer
import Testing

/// An in-process Strata with headless screens, stepped by the test (no threads, no sleeps):
/// clients connect through socket pairs and `TestClient.roundtrip()` interleaves both sides.
public final class TestServer {
    public let compositor: Compositor
    public let backend: HeadlessBackend

    public convenience init(
        screens: Int = 1, width: Int = 640, height: Int = 480, policy: KeyWindowPolicy = UIKitKeyWindowPolicy(),
        clock: StrataServer.Clock.Mode = .realtime, keymapNames: KeymapNames = .standard
    ) throws {
        try self.init(
            screens: screens, modes: [ScreenMode(width: width, height: height)], policy: policy, clock: clock,
            keymapNames: keymapNames)
    }

    /// Headless screens offering `modes` (the first preferred), on the realtime clock or a
    /// manual one (`compositor.clock.step(frames:)`), with the keymap `keymapNames` give.
    public init(
        screens: Int = 1, modes: [ScreenMode], policy: KeyWindowPolicy = UIKitKeyWindowPolicy(),
        clock: StrataServer.Clock.Mode = .realtime, keymapNames: KeymapNames = .standard
    ) throws {
        backend = HeadlessBackend(screens: screens, modes: modes)
        compositor = try Compositor(
            backend: backend, policy: policy, clock: StrataServer.Clock(mode: clock), keymapNames: keymapNames)
        compositor.scene.backgroundARGB = TestServer.background
        // In-process clients are the test's own code, as they were when privilege followed the
        // process (they share Strata's pid): they see the privileged globals unless a test asks
        // for Strata's default (`.startedByStrata`) or `.nobody`.
        compositor.clientPrivilege = .everyone
    }

    /// Hosts a compositor built elsewhere (a nested Strata whose backend is a parent session), so
    /// test clients can connect to it; it is shut down with this server. `backend` is then an
    /// unused placeholder. `alsoStep` is stepped with it (the parent, on the same thread).
    public init(hosting compositor: Compositor, alsoStep: (() -> Void)? = nil) {
        backend = HeadlessBackend(screens: 0)
        self.compositor = compositor
        self.alsoStep = alsoStep
        compositor.clientPrivilege = .everyone
    }

    /// Stepped after each step of this server (`init(hosting:alsoStep:)`).
    public var alsoStep: (() -> Void)?

    /// The background colour tests compare against.
    public static let background: UInt32 = 0xff20_2428

    public var windows: WindowManager { compositor.windows }

    /// The live ResourceObjects of this server (the leak check: back at the baseline once a
    /// client is gone).
    public var liveCounts: ResourceObject.LiveCounts { ResourceObject.liveCounts(on: compositor.display.display) }

    /// One non-blocking step of the server loop.
    public func step(timeout: Double = 0) {
        compositor.display.dispatch(timeout: timeout)
        alsoStep?()
    }

    /// Repaints every damaged screen now (instead of waiting for the frame clock).
    public func repaint() {
        compositor.scene.repaintDamagedScreens()
    }

    /// The pixel at (x, y) of screen `index` as 0xAARRGGBB, after repainting.
    public func pixel(x: Int32, y: Int32, screen index: Int = 0) -> UInt32? {
        repaint()
        guard compositor.scene.outputs.indices.contains(index) else { return nil }
        return compositor.scene.outputs[index].canvas.pixel(x: x, y: y)
    }

    /// The socket made by `addSocket()`: real client processes connect with
    /// `XDG_RUNTIME_DIR=runtimeDirectory WAYLAND_DISPLAY=socketName`.
    public var runtimeDirectory: String? { socketFolder?.path }
    private var socketFolder: ScratchFolder?
    public let socketName = "wayland-test"

    /// Listens on `wayland-test` in a new private directory, so separate client processes can
    /// connect while the test steps the loop (`run(seconds:until:)`). Returns the environment
    /// such a process needs.
    @discardableResult
    public func addSocket() throws -> [String: String] {
        if let runtimeDirectory { return ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName] }
        let folder = try ScratchFolder(prefix: "strata-test")
        let directory = folder.path
        let path = directory + "/" + socketName
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClient.Failure.connect("socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw TestClient.Failure.connect("socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw TestClient.Failure.connect("cannot listen on \(path)")
        }
        try compositor.display.addSocket(listeningFD: fd)
        socketFolder = folder
        return ["XDG_RUNTIME_DIR": directory, "WAYLAND_DISPLAY": socketName]
    }

    /// Steps the loop (with short waits) until `condition` holds or `seconds` pass; returns
    /// whether it held.
    @discardableResult
    public func run(seconds: Double, until condition: () -> Bool = { false }) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            step(timeout: 0.005)
        }
        return true
    }

    /// How many clients the server has (a client the test let go counts until the server has
    /// seen it hang up).
    public var connectedClients: Int {
        guard let list = wl_display_get_client_list(compositor.display.display) else { return 0 }
        var count = 0
        var link = list.pointee.next
        while let current = link, current != list {
            count += 1
            link = current.pointee.next
        }
        return count
    }

    /// Steps until the server has `count` clients, for `seconds` at most; returns whether it
    /// came to that. A client released by the test is not gone after a fixed number of steps:
    /// its hang-up comes once every copy of its socket is closed, and the posix_spawn child of
    /// another test thread holds copies of every descriptor until its exec (late, under load).
    @discardableResult
    public func waitForClients(_ count: Int, seconds: Double = 10) -> Bool {
        run(seconds: seconds) { connectedClients == count }
    }

    /// Steps until the live ResourceObjects are back at `baseline` (the server has seen the
    /// clients the test let go hang up, and freed what they had), for `seconds` at most, and
    /// records an issue naming the counts if they are not. Under load the hang-up comes late:
    /// another test's posix_spawn child holds a copy of a client's socket until its exec.
    public func expectLiveCounts(
        backAt baseline: ResourceObject.LiveCounts, seconds: Double = 10, after what: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let back = run(seconds: seconds) { liveCounts == baseline }
        #expect(
            back, "live ResourceObjects \(liveCounts), expected \(baseline)\(what.map { " after \($0)" } ?? "")",
            sourceLocation: sourceLocation)
    }

    deinit {
        compositor.shutdown()
    }
}
