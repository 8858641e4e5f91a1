import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport

/// The soak (issue 17): for a long while, clients connect, map windows, build subsurface trees,
/// commit frames, set selections and die at random (cleanly or mid-stream), and hostile wire
/// programs (the fuzzer's) run among them, against one in-process compositor with two screens;
/// X programs under Xwayland start, have their windows changed and die beside them
/// (`SoakXClients`). The compositor's resident memory, open descriptors and live objects, and
/// Xwayland's memory and descriptors, are read once the first round of churn is over and everyone
/// left (the start), and again at the end when everyone left: they must match within the stated
/// margin. Seeded: a run replays from its seed (the X programs' own timing is not).
public final class Soak {
    public struct Reading: CustomStringConvertible {
        public var rssKiB: Int
        public var fds: Int
        public var resources: Int
        public var objects: Int
        /// Xwayland's (-1 without X clients) and the X windows in the model.
        public var xwaylandRSSKiB = -1
        public var xwaylandFds = -1
        public var xWindows = 0
        /// Xwayland's budget in the compositor: its objects, surfaces and wl_shm pools.
        public var xwaylandObjects = -1
        public var xwaylandSurfaces = -1
        public var xwaylandPools = -1
        /// Live objects per class (what differs, when a count does).
        public var types = ""
        public var description: String {
            "RSS \(rssKiB) KiB, \(fds) fds, \(resources) resources, \(objects) objects"
                + (xwaylandFds < 0
                    ? ""
                    : "; Xwayland RSS \(xwaylandRSSKiB) KiB, \(xwaylandFds) fds, \(xWindows) X windows, "
                        + "\(xwaylandObjects) objects, \(xwaylandSurfaces) surfaces, \(xwaylandPools) pools")
        }
    }

    public struct Report {
        public var start: Reading
        public var end: Reading
        public var seconds: Double
        public var sessions: Int
        public var actions: Int
        public var hostilePrograms: Int
        public var peakRSSKiB: Int
        public var xProgramsStarted = 0
    }

    let server: TestServer
    let fuzzer: WireFuzzer
    var random: UInt64
    var sessions: [Session] = []
    var sessionCount = 0
    var actions = 0
    var hostile = 0
    /// Nil when Xwayland is not installed or X clients were not asked for.
    let x: SoakXClients?

    /// One well-behaved client: a mapped toplevel, subsurfaces under it, an optional selection.
    final class Session {
        let shell: TestXdgShell
        let toplevel: TestToplevel
        var children: [(surface: OpaquePointer, subsurface: OpaquePointer, buffer: TestBuffer?)] = []
        var buffers: [TestBuffer] = []
        var source: TestDataSource?
        var dataManager: OpaquePointer?
        var seat: OpaquePointer?

        /// The connection ends as it would when the process dies: the socket is shut first, so
        /// the compositor tears down everything the client made without a destroy request.
        var diesAbruptly = false

        deinit {
            if diesAbruptly { shutdown(wl_display_get_fd(shell.client.display), Int32(SHUT_RDWR)) }
            // Client-side objects go before the connection (their destructors send requests).
            source?.destroy()
            source = nil
            buffers.removeAll()
            for child in children { wl_subsurface_destroy(child.subsurface); wl_surface_destroy(child.surface) }
            children.removeAll()
            toplevel.destroyToplevel()
            toplevel.destroyXdgSurface()
            toplevel.destroySurface()
            if let dataManager { wl_proxy_destroy(dataManager) }
            // The shell's bound globals, client side only (the connection, released after this,
            // takes the server's objects): the test support leaves them to the test, which may
            // still use them after its shell's last use.
            for proxy in [shell.compositor, shell.subcompositor, shell.shm, shell.wmBase] { wl_proxy_destroy(proxy) }
        }

        init?(server: TestServer, colour: UInt32) {
            guard let client = try? TestClient(server: server), let shell = try? TestXdgShell(client: client),
                let toplevel = shell.makeToplevel(), toplevel.map(width: 120, height: 90, argb: colour)
            else { return nil }
            self.shell = shell
            self.toplevel = toplevel
        }

        /// A subsurface with content, under the toplevel or under the last child.
        func addChild(chain: Bool, x: Int32, y: Int32, colour: UInt32) {
            guard let surface = shell.makeSurface() else { return }
            let parent = chain ? (children.last?.surface ?? toplevel.surface) : toplevel.surface
            guard let subsurface = wl_subcompositor_get_subsurface(shell.subcompositor, surface, parent) else { return }
            wl_subsurface_set_position(subsurface, x, y)
            wl_subsurface_set_desync(subsurface)
            let buffer = shell.makeBuffer(width: 16, height: 16, argb: colour)
            if let buffer { wl_surface_attach(surface, buffer.buffer, 0, 0) }
            wl_surface_damage_buffer(surface, 0, 0, 16, 16)
            wl_surface_commit(surface)
            children.append((surface, subsurface, buffer))
        }

        func removeChildren() {
            for child in children.reversed() {
                wl_subsurface_destroy(child.subsurface)
                wl_surface_destroy(child.surface)
            }
            children.removeAll()
        }

        /// A new frame: a fresh buffer, damage, a frame callback the session never waits for.
        func redraw(colour: UInt32) {
            guard let buffer = shell.makeBuffer(width: 120, height: 90, argb: colour) else { return }
            toplevel.attach(buffer)
            wl_surface_damage_buffer(toplevel.surface, 0, 0, 120, 90)
            if let callback = wl_surface_frame(toplevel.surface) { wl_callback_destroy(callback) }
            toplevel.commit()
            buffers.append(buffer)
            if buffers.count > 3 { buffers.removeFirst() }
        }

        func select(types: Int) {
            if dataManager == nil {
                dataManager = try? shell.client.bind(wl_data_device_manager_interface_ptr())
            }
            guard let dataManager else { return }
            source?.destroy()
            source = try? TestDataSource(
                manager: dataManager, mimeTypes: (0..<types).map { "text/soak-\($0)" },
                payload: Array("soak".utf8))
        }
    }

    /// `xClients`: Xwayland and X programs too; `colorClient` is strata-x11-color-client's path.
    public init(seed: UInt64, xClients: Bool = true, colorClient: String? = nil) throws {
        server = try TestServer(screens: 2, width: 800, height: 600)
        fuzzer = WireFuzzer(server: server)
        random = seed
        x = xClients ? SoakXClients(server: server, colorClient: colorClient) : nil
        // Xwayland's frames keep the live counts moving: a hostile program's end does not wait
        // for them to be back (the soak compares its own start and end).
        if x != nil { fuzzer.baselineWait = 0 }
    }

    /// Whether X programs run in the soak (Xwayland started), and which.
    public var xPrograms: [String]? { x?.programs.map { $0[0] } }

    func next() -> UInt64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    func anySession() -> Session? { sessions.isEmpty ? nil : sessions[below(sessions.count)] }

    func colour() -> UInt32 { 0xff00_0000 | UInt32(truncatingIfNeeded: next()) & 0x00ff_ffff }

    /// One random action.
    func act(maxSessions: Int) {
        actions += 1
        switch below(x == nil ? 10 : 12) {
        case 0, 1:
            if sessions.count < maxSessions, let session = Session(server: server, colour: colour()) {
                sessions.append(session)
                sessionCount += 1
            }
        case 2:
            guard let session = anySession() else { return }
            let chain = below(2) == 0
            for _ in 0..<(1 + below(40)) {
                session.addChild(chain: chain, x: Int32(below(400)) - 100, y: Int32(below(300)) - 100, colour: colour())
            }
        case 3:
            anySession()?.removeChildren()
        case 4, 5:
            anySession()?.redraw(colour: colour())
        case 6:
            anySession()?.select(types: 1 + below(20))
        case 7:
            // Death: the connection closes with everything it made still alive (the server
            // tears it all down), or after destroying part of it.
            guard !sessions.isEmpty else { return }
            let index = below(sessions.count)
            if below(2) == 0 { sessions[index].removeChildren() } else { sessions[index].diesAbruptly = true }
            sessions.remove(at: index)
        case 8:
            // A hostile program from the fuzzer's generator.
            let bytes = (0..<(64 + below(512))).map { _ in UInt8(truncatingIfNeeded: next()) }
            _ = fuzzer.run(bytes)
            hostile += 1
        case 10:
            // An X program starts (at most 4 live) or one is killed.
            guard let x else { return }
            x.reap()
            if x.live.count < 4, below(3) != 0 { x.spawn(below(64)) } else { x.kill(below(64), hard: below(2) == 0) }
        case 11:
            x?.change(below(64), pick: below(64), x: below(600), y: below(400))
        default:
            server.repaint()
        }
        for session in sessions { _ = session.shell.client.roundtrip() }
        server.step()
    }

    func leaveAll() {
        x?.leaveAll()
        sessions.removeAll()
        for _ in 0..<5 { server.step() }
        server.repaint()
    }

    /// glibc's malloc_trim (in <malloc.h>, which the Glibc module does not bring), found at run time.
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }

    func read() -> Reading {
        // Free memory glibc's malloc still keeps in its arenas goes back first, so the reading is
        // what is held, not what the allocator cached.
        // (STRATA_SOAK_NO_TRIM=1 reads without it: what the process holds, allocator caches included.)
        if ProcessInfo.processInfo.environment["STRATA_SOAK_NO_TRIM"] == nil { _ = Soak.mallocTrim?(0) }
        let memory = Measure.memory()
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        let counts = server.liveCounts
        var reading = Reading(
            rssKiB: memory["VmRSS"] ?? -1, fds: fds, resources: counts.resources, objects: counts.objects)
        reading.types = counts.description
        if let x {
            (reading.xwaylandRSSKiB, reading.xwaylandFds) = x.reading()
            reading.xWindows = x.windows.count
            if let client = x.xwayland.client, let budget = ClientBudget.of(client) {
                reading.xwaylandObjects = budget.objects
                reading.xwaylandSurfaces = budget.surfaces
                reading.xwaylandPools = budget.pools
            }
        }
        return reading
    }

    /// Churns for `warmUp` seconds (allocators and caches reach their working size), reads the
    /// start with everyone gone, churns for `seconds` more, and reads the end with everyone gone.
    public func run(seconds: Double, warmUp: Double, maxSessions: Int, progress: (String) -> Void) -> Report {
        x?.spawnEach()
        let warmUpEnd = Measure.wallNanoseconds() + UInt64(warmUp * 1e9)
        while Measure.wallNanoseconds() < warmUpEnd { act(maxSessions: maxSessions) }
        leaveAll()
        let start = read()
        progress("start: \(start)")
        var peak = start.rssKiB
        let began = Measure.wallNanoseconds()
        let end = began + UInt64(seconds * 1e9)
        var nextReport = began + 60_000_000_000
        while Measure.wallNanoseconds() < end {
            act(maxSessions: maxSessions)
            if actions % 200 == 0 { peak = max(peak, read().rssKiB) }
            if Measure.wallNanoseconds() >= nextReport {
                nextReport += 60_000_000_000
                progress(
                    "\(Int(Double(Measure.wallNanoseconds() - began) / 1e9)) s: \(sessions.count) sessions live, \(read())"
                )
            }
        }
        leaveAll()
        let finish = read()
        x?.shutdown()
        return Report(
            start: start, end: finish, seconds: Double(Measure.wallNanoseconds() - began) / 1e9,
            sessions: sessionCount, actions: actions, hostilePrograms: hostile, peakRSSKiB: peak,
            xProgramsStarted: x?.started ?? 0)
    }
}
