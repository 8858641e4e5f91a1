import CStrataWLCS
import CWaylandServer
import Foundation
import Glibc
import StrataModel
import StrataServer

/// One WLCS display server: a Strata compositor with a headless screen, owned by a thread of its
/// own that runs the compositor's loop. Every call from WLCS's test thread is marshalled onto
/// that loop (`perform`) and waited for, so the compositor stays single-threaded.
///
/// The thread starts when WLCS creates the server, because WLCS reads the descriptor (the
/// compositor's globals) before it calls `start`; the loop itself runs from `start` to `stop`.
final class WLCSDisplayServer {
    /// The screen WLCS's compositor space maps onto (one screen at the origin).
    static let screenMode = ScreenMode(width: 1920, height: 1080)

    private let cServer: OpaquePointer
    private let mailbox = LoopMailbox()
    private var thread = pthread_t()
    private var hasThread = false
    private var isJoined = false
    private let ready = DispatchSemaphore(value: 0)
    private let startGate = DispatchSemaphore(value: 0)
    private var shouldRun = false

    // Loop thread only.
    private var compositor: Compositor?
    /// Server-side clients by the client's end of their socket pair (what WLCS's wl_display holds).
    private var clients: [Int32: WLCSClient] = [:]
    /// The pointer's position in the global compositor space.
    private(set) var pointerX = 0.0
    private(set) var pointerY = 0.0
    private var nextTouchID: Int32 = 0

    init(cServer: OpaquePointer) {
        self.cServer = cServer
        let box = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let server = Unmanaged<WLCSDisplayServer>.fromOpaque(argument).takeRetainedValue()
                server.threadMain()
                return nil
            }, box)
        if result == 0 {
            hasThread = true
            ready.wait()
        } else {
            Unmanaged<WLCSDisplayServer>.fromOpaque(box).release()
            Self.log("cannot start the compositor thread: \(String(cString: strerror(result)))")
        }
    }

    // MARK: WLCS's calls (test thread)

    func start() {
        guard hasThread, !isJoined else { return }
        shouldRun = true
        startGate.signal()
    }

    /// Ends the loop and waits for the thread (the compositor is torn down on it).
    func stop() {
        guard hasThread, !isJoined else { return }
        if shouldRun {
            _ = perform { $0.display.terminate() }
        } else {
            startGate.signal()
        }
        pthread_join(thread, nil)
        isJoined = true
    }

    func createClientSocket() -> Int32 {
        perform { compositor in self.createClient(on: compositor) } ?? -1
    }

    /// Moves the window that shows surface `surfaceID` of the client connected through
    /// `clientFD` so that its top-left corner is at (x, y) of the global compositor space.
    func positionWindow(clientFD: Int32, surfaceID: UInt32, x: Int, y: Int) {
        _ = perform { compositor in
            guard let client = self.clients[clientFD]?.client,
                let surface = compositor.surface(of: client, id: surfaceID),
                let window = compositor.scene.window(showing: surface)
            else {
                Self.log("position_window_absolute: no window shows surface \(surfaceID)")
                return
            }
            let point = Point(x: Double(x), y: Double(y))
            let screen =
                compositor.windows.screens.first { $0.bounds.contains(point) } ?? window.screen
                ?? compositor.windows.mainScreen
            if let screen, screen !== window.screen { compositor.windows.move(window, to: screen) }
            let origin = window.screen?.origin ?? .zero
            var frame = window.frame
            frame.x = x - Int(origin.x)
            frame.y = y - Int(origin.y)
            compositor.windows.setFrame(window, frame)
        }
    }

    func makeTouchID() -> Int32 {
        perform { _ in
            self.nextTouchID += 1
            return self.nextTouchID
        } ?? 0
    }

    /// Runs `body` on the loop thread with the compositor and waits for its result; nil when the
    /// loop is not running (before start, after stop, or the compositor could not be made).
    @discardableResult
    func perform<T>(_ body: @escaping (Compositor) -> T) -> T? {
        var result: T?
        let done = DispatchSemaphore(value: 0)
        let posted = mailbox.post { [unowned self] in
            if let compositor = self.compositor { result = body(compositor) }
            done.signal()
        }
        guard posted else { return nil }
        done.wait()
        return result
    }

    // MARK: Pointer and touch (loop thread)

    /// The screen under a point of the global space and the point in its coordinates; a point
    /// outside every screen is clamped to the nearest one.
    func screenPoint(x: Double, y: Double, in compositor: Compositor) -> (output: ScreenOutput, x: Double, y: Double)? {
        var best: (output: ScreenOutput, x: Double, y: Double, distance: Double)?
        for output in compositor.scene.outputs {
            let b = output.screen.bounds
            guard b.width > 0, b.height > 0 else { continue }
            let left = Double(b.x), top = Double(b.y)
            let cx = min(max(x, left), left + Double(b.width) - 1.0 / 256)
            let cy = min(max(y, top), top + Double(b.height) - 1.0 / 256)
            let distance = abs(cx - x) + abs(cy - y)
            if best == nil || distance < best!.distance {
                best = (output, cx - left, cy - top, distance)
            }
        }
        return best.map { ($0.output, $0.x, $0.y) }
    }

    func movePointer(x: Double, y: Double, relative: Bool, in compositor: Compositor) {
        if relative, let current = compositor.seat.pointerPosition {
            // Relative motion goes through the seat as a mouse's would: a locked pointer stays, a
            // confined one stays in its region, and the position is the seat's.
            compositor.seat.pointerMotion(dx: x, dy: y, time: Self.now())
            let p = compositor.seat.pointerPosition ?? current
            pointerX = p.output.screen.origin.x + p.x
            pointerY = p.output.screen.origin.y + p.y
            return
        }
        let targetX = relative ? pointerX + x : x
        let targetY = relative ? pointerY + y : y
        guard let p = screenPoint(x: targetX, y: targetY, in: compositor) else { return }
        let origin = p.output.screen.origin
        pointerX = origin.x + p.x
        pointerY = origin.y + p.y
        compositor.seat.pointerMotion(on: p.output, x: p.x, y: p.y, time: Self.now())
    }

    static func now() -> UInt32 {
        UInt32(truncatingIfNeeded: Clock.monotonicNanoseconds() / 1_000_000)
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("strata-wlcs: \(message)\n".utf8))
    }

    // MARK: The loop thread

    private func threadMain() {
        do {
            let backend = HeadlessBackend(screens: 1, modes: [Self.screenMode])
            let compositor = try Compositor(backend: backend)
            // WLCS 1.5's surface helpers attach the first buffer without waiting for (or acking)
            // the initial configure; see XdgHandshake.lenient and docs/wlcs.md.
            compositor.xdgHandshake = .lenient
            if mailbox.open(on: compositor.display) {
                self.compositor = compositor
                for global in compositor.advertisedGlobals {
                    strata_wlcs_server_add_extension(cServer, global.name, global.version)
                }
            } else {
                Self.log("cannot watch the mailbox's eventfd")
                compositor.shutdown()
            }
        } catch {
            Self.log("cannot create the compositor: \(error)")
        }
        ready.signal()
        startGate.wait()
        if shouldRun, let compositor {
            compositor.display.run()
        }
        mailbox.close()
        clients.removeAll()
        compositor?.shutdown()
        compositor = nil
    }

    private func createClient(on compositor: Compositor) -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return -1
        }
        // WLCS hands the other end to its test client, as Strata hands WAYLAND_SOCKET to a process
        // it starts: a connection Strata made, privileged (WLCS tests the input method and
        // virtual input protocols).
        guard let client = compositor.display.createClient(fd: fds[0], origin: .startedByStrata) else {
            close(fds[0])
            close(fds[1])
            return -1
        }
        clients[fds[1]] = WLCSClient(client: client)
        return fds[1]
    }
}

/// A server-side wl_client WLCS connected; `client` turns nil when libwayland destroys it.
final class WLCSClient {
    private(set) var client: OpaquePointer?
    private var listener: Listener?

    init(client: OpaquePointer) {
        self.client = client
        listener = Listener { [weak self] _ in
            self?.client = nil
            self?.listener?.remove()
        }
        listener?.listen(toClientDestroy: client)
    }
}
