import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer

/// The fuzzer's model of a client: it reads an input's bytes as a program of wire requests with
/// chosen arguments, sent by a `RawClient` to an in-process server, and checks afterwards that the
/// server let go of everything the client made. Structure-aware: requests are drawn from the
/// protocol tables, object arguments from the live objects of the right interface, new ids in
/// order, numbers from a table of edge values, serials from the events the server sent, fds as
/// memfds (which later ops may truncate under the server), pipe ends or listening sockets.
///
/// `scripts/fuzz.sh` drives it with libFuzzer (`fuzz/strata-fuzz`); `FuzzRegressionTests` replays
/// the corpus and every crash found.
public final class WireFuzzer {
    public let server: TestServer
    private let baseline: ResourceObject.LiveCounts
    /// Requests sent by the last `run` (how deep inputs get).
    public private(set) var requestsSent = 0
    /// The structured states the last `run` reached (`Milestone`): what the seed corpus's
    /// structure-aware inputs are checked to reach.
    public private(set) var reached: Set<Milestone> = []

    /// States a structure-aware seed is made to reach.
    public enum Milestone: String, CaseIterable, Sendable {
        /// A chain of at least three subsurfaces with content, each the next one's parent.
        case subsurfaceChain = "subsurface-chain"
        /// A surface with at least four child subsurfaces with content.
        case subsurfaceFan = "subsurface-fan"
        /// A subsurface placed at least 2^30 away from its parent.
        case farSubsurface = "far-subsurface"
        /// A buffer at least 32768 pixels wide or tall, committed with a buffer transform.
        case hugeBufferTransformed = "huge-buffer-transformed"
        /// A viewport with a source or destination from the edge values.
        case viewport = "viewport"
        /// A surface with a buffer scale above 1 and a transform, committed.
        case scaledTransformedSurface = "scaled-transformed-surface"
        /// A screen at a fractional scale while windows are shown.
        case fractionalScreen = "fractional-screen"
    }

    /// The scale every screen has between inputs (`scripts/fuzz.sh --scale`: fractional and
    /// integer scaled screens reach the scaled placement and drawing paths from the start).
    public let screenScale: Double

    /// Whether every input must also leave the process's open descriptors as it found them.
    public let checksDescriptors: Bool
    /// How long a program's end waits for the live counts to be back at the baseline (a second;
    /// 0 where other clients keep changing them and the check is not wanted: the soak's X
    /// programs, whose frames come and go).
    public var baselineWait: Double = 1
    /// The process's descriptors after the warm-up (nil: not checked).
    public private(set) var descriptorBaseline: OpenDescriptors?

    /// `checksDescriptors`: after each input, once the server is back at its live-count
    /// baseline, the process's open descriptors (`/proc/self/fd`) must be back at theirs too,
    /// so a descriptor the server keeps per request (a memfd, a pipe, a timer) is a finding.
    /// That count is exact only where nothing else opens or closes descriptors meanwhile: the
    /// fuzzer's own process (single-threaded), never the parallel test suite, hence off by
    /// default. Before the baseline is taken, `warmUp()` runs the paths that make a descriptor
    /// once and keep it for good.
    public init(server: TestServer, screenScale: Double = 1, checksDescriptors: Bool = false) {
        self.server = server
        self.screenScale = screenScale
        self.checksDescriptors = checksDescriptors
        for output in server.compositor.scene.outputs { server.windows.setScale(screenScale, for: output.screen) }
        server.step()
        baseline = server.liveCounts
        if checksDescriptors {
            warmUpProblem = play { $0.warmUp() }
            descriptorBaseline = OpenDescriptors.current()
        }
    }

    /// What the warm-up left behind (nil: nothing; the fuzzer stops on anything else).
    public private(set) var warmUpProblem: String?

    /// Runs one input. Returns a description of what leaked, or nil when the server is back at
    /// its baseline. (A crash of the server is a crash of the process: what the fuzzer looks for.)
    public func run(_ bytes: [UInt8]) -> String? {
        if let problem = play({ $0.run() }, bytes) { return problem }
        guard let problem = descriptorsLeft() else { return nil }
        return problem + again(bytes)
    }

    /// Connects a client, lets `body` drive it with `bytes`, and checks the server is back at its
    /// live-count baseline once the client is gone.
    private func play(_ body: (Program) -> Void, _ bytes: [UInt8] = []) -> String? {
        do {
            let client = try RawClient(server: server)
            let program = Program(client: client, input: ByteReader(bytes), screenScale: screenScale)
            body(program)
            requestsSent = program.requests
            reached = program.reached
        } catch {
            return "cannot connect: \(error)"
        }
        for _ in 0..<3 { server.step() }
        // A process another test thread is starting holds a copy of every descriptor until its
        // exec (posix_spawn's child), the client's socket too: the hang-up can come a little
        // later than three steps. A real leak stays; this waits at most a second for it.
        if baselineWait > 0 { _ = server.run(seconds: baselineWait) { server.liveCounts == baseline } }
        // The client was a sandbox engine too: its committed security contexts outlive it (the
        // spec) until their close_fd hangs up, which one that is a listening socket never does.
        // The engine is gone, so its sandboxes end; their descriptors must all be closed then.
        server.compositor.securityContexts.stopListenersWithoutCreator()
        server.repaint()
        let counts = server.liveCounts
        if counts != baseline { return "live ResourceObjects \(counts), baseline \(baseline)" }
        if !server.windows.windows.isEmpty { return "\(server.windows.windows.count) windows left" }
        return nil
    }

    /// With `checksDescriptors`: the descriptors opened since the baseline and still open, and
    /// the baseline's that were closed (a close of a descriptor someone else owns), after
    /// stepping the server for at most a second (as the live counts wait); nil when back.
    private func descriptorsLeft() -> String? {
        guard let baseline = descriptorBaseline else { return nil }
        var now = OpenDescriptors.current()
        if now != baseline {
            _ = server.run(seconds: 1) {
                now = OpenDescriptors.current()
                return now == baseline
            }
        }
        guard let now, now != baseline else { return nil }
        let opened = now.subtracting(baseline), closed = baseline.subtracting(now)
        var message = "descriptors: \(now.targets.count) open, baseline \(baseline.targets.count)"
        if !opened.isEmpty { message += "; opened and still open: " + OpenDescriptors.describe(opened) }
        if !closed.isEmpty { message += "; baseline descriptors closed: " + OpenDescriptors.describe(closed) }
        leftBehind = now
        return message
    }

    /// The descriptors after the input that left some behind.
    private var leftBehind: OpenDescriptors?

    /// After a descriptor finding: whether the same input, played once more, leaves more
    /// behind (a leak per request) or not (a descriptor made on first use and kept, which
    /// `warmUp()` should make before the baseline).
    private func again(_ bytes: [UInt8]) -> String {
        guard let before = leftBehind else { return "" }
        if let problem = play({ $0.run() }, bytes) { return "; played again: \(problem)" }
        var after = OpenDescriptors.current()
        if after != before {
            _ = server.run(seconds: 1) {
                after = OpenDescriptors.current()
                return after == before
            }
        }
        guard let after else { return "" }
        let more = after.subtracting(before)
        if more.isEmpty {
            return "; played again it left no more (kept from a first use? WireFuzzer.warmUp should reach it)"
        }
        return "; played again it left \(more.count) more: " + OpenDescriptors.describe(more)
    }
}

extension WireFuzzer {
    /// A program that reaches `milestone`, found by trying seeded random programs made of the
    /// shortcut ops (most of all the structure op) with random bytes between: the way the seed
    /// corpus's `structured-*` inputs were made (FuzzRegressionTests checks each still reaches
    /// its milestone, and writes missing ones with STRATA_WRITE_SEEDS=1). Nil after `tries`.
    public func program(reaching milestone: Milestone, seed: UInt64, tries: Int = 2000) -> [UInt8]? {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let ops: [UInt8] = [19, 19, 19, 39, 59, 14, 14, 17, 18, 12]
        for _ in 0..<tries {
            var bytes: [UInt8] = []
            for _ in 0..<(4 + Int(next() % 12)) {
                bytes.append(ops[Int(next() % UInt64(ops.count))])
                for _ in 0..<Int(next() % 24) { bytes.append(UInt8(truncatingIfNeeded: next())) }
            }
            if run(bytes) == nil, reached.contains(milestone) { return bytes }
        }
        return nil
    }
}

/// The input, read a byte or a word at a time; zeros once it is used up.
struct ByteReader {
    private let bytes: [UInt8]
    private var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func word() -> UInt32 {
        (0..<4).reduce(0) { value, shift in value | UInt32(byte()) << (8 * shift) }
    }

    mutating func pick<T>(_ choices: [T]) -> T? {
        choices.isEmpty ? nil : choices[Int(byte()) % choices.count]
    }
}

private final class Program {
    let client: RawClient
    var input: ByteReader
    var requests = 0
    /// Live objects: id → (interface, version). wl_display (1) and registries are special.
    var objects: [UInt32: (interface: UnsafePointer<wl_interface>?, version: UInt32)] = [:]
    var order: [UInt32] = []
    var registries: Set<UInt32> = []
    var fds: [Int32] = []
    var serials: [UInt32] = [1]

    static let ints: [Int32] = [
        0, 1, -1, 2, 3, 8, 10, 16, 64, 100, 255, 256, 1000, 4096, -4096, 65535,
        Int32.max, Int32.min, Int32.max - 1, Int32.min + 1, 1 << 24, -(1 << 24),
    ]
    static let sizes: [Int] = [0, 16, 256, 4096, 16384, 65536, 1 << 20]
    static let strings: [String?] = [
        nil, "", "a", "strata", "wl_surface", String(repeating: "x", count: 300), "\u{1F600}",
    ]

    let screenScale: Double
    var reached: Set<WireFuzzer.Milestone> = []

    init(client: RawClient, input: ByteReader, screenScale: Double) {
        self.client = client
        self.input = input
        self.screenScale = screenScale
        client.keepsEvents = true
    }

    deinit { for fd in fds { close(fd) } }

    func run() {
        client.getRegistry()
        if let registry = client.registryID { registries.insert(registry); order.append(registry) }
        var steps = 0
        while !input.isAtEnd, !client.isDisconnected, steps < 400 {
            steps += 1
            let op = input.byte()
            switch op % 20 {
            case 0..<12: request()
            case 12, 13: bind()
            case 14: makeToplevel()
            case 15: pump()
            case 16: truncateFD()
            case 17: inject()
            case 18: client.roundtrip(limit: 20); harvest()
            default: structure()
            }
        }
        client.roundtrip(limit: 20)
        server.repaint()
        // Screens back as they were, so the next input starts from the same server.
        for output in server.compositor.scene.outputs where output.screen.scale != screenScale {
            server.windows.setScale(screenScale, for: output.screen)
        }
    }

    var server: TestServer { client.server }

    /// The paths that make a descriptor on first use and keep it for good, played once before
    /// the descriptor baseline is taken (`WireFuzzer(checksDescriptors:)`): every global bound at
    /// its highest version, a mapped toplevel with pointer, keyboard and touch, seat input over
    /// it on both screens at every scale the fuzzer sets (the cursor, the keymap compiled at the
    /// first key), an idle notification (the idle tracker's timer).
    func warmUp() {
        client.getRegistry()
        if let registry = client.registryID { registries.insert(registry); order.append(registry) }
        client.roundtrip(limit: 20)
        _ = need(client.globals.map(\.interface))
        client.roundtrip(limit: 20)
        makeToplevel()
        if let seat = find("wl_seat") {
            for request in ["wl_seat.get_pointer", "wl_seat.get_keyboard", "wl_seat.get_touch"] {
                send(seat, WireProtocol.opcode(request), [.newID(client.newID())])
            }
            if let notifier = find("ext_idle_notifier_v1") {
                send(
                    notifier, WireProtocol.opcode("ext_idle_notifier_v1.get_idle_notification"),
                    [.newID(client.newID()), .uint(1000), .object(seat)])
            }
        }
        pump()
        let seat = server.compositor.seat!
        for scale in Self.scales + [screenScale] {
            for output in server.compositor.scene.outputs {
                server.windows.setScale(scale, for: output.screen)
                for (x, y) in [(1.0, 1.0), (20, 20), (100, 80), (300, 200)] {
                    seat.pointerMotion(on: output, x: x, y: y, time: 1)
                    seat.pointerButton(0x110, pressed: true, time: 2)
                    seat.pointerButton(0x110, pressed: false, time: 3)
                    seat.touchDown(id: 0, on: output, x: x, y: y, time: 4)
                    seat.touchUp(id: 0, time: 5)
                }
                seat.key(30, pressed: true, time: 6)
                seat.key(30, pressed: false, time: 7)
                server.repaint()
                pump()
            }
        }
        client.roundtrip(limit: 20)
        server.repaint()
    }

    // MARK: Ops

    func pump() {
        client.pump()
        harvest()
    }

    /// Serials and other numbers the server sent, for the next `u` arguments; deleted ids.
    func harvest() {
        for event in client.events.suffix(16) {
            for index in 0..<min(4, event.body.count / 4) { serials.append(event.word(index)) }
        }
        if serials.count > 32 { serials.removeFirst(serials.count - 32) }
        client.clearEvents()
        for id in client.deletedIDs where objects[id] != nil { forget(id) }
    }

    func remember(_ id: UInt32, _ interface: UnsafePointer<wl_interface>?, version: UInt32) {
        objects[id] = (interface, version)
        order.append(id)
    }

    func forget(_ id: UInt32) {
        objects[id] = nil
        order.removeAll { $0 == id }
    }

    func bind() {
        guard let registry = client.registryID, let global = input.pick(client.globals),
            let interface = WireProtocol.interfaces[global.interface]
        else { return }
        let version = 1 + UInt32(input.byte()) % global.version
        let id = client.newID()
        send(registry, 0, [.uint(global.name), .string(global.interface), .uint(version), .newID(id)])
        remember(id, interface, version: version)
    }

    func request() {
        guard let id = input.pick(order) else { return }
        if id == 1 || registries.contains(id) {
            // wl_display.sync, or a bind through this registry.
            if id == 1 {
                let callback = client.newID()
                send(1, 0, [.newID(callback)])
                remember(callback, WireProtocol.interfaces["wl_callback"], version: 1)
            } else {
                bind()
            }
            return
        }
        guard let (interface, version) = objects[id], let interface else { return }
        let all = WireProtocol.requests(of: interface)
        let allowed = all.indices.filter { all[$0].sinceVersion <= version }
        guard var opcode = input.pick(allowed) else { return }
        // Now and then an opcode the interface does not have.
        if input.byte() == 0xff { opcode = all.count + Int(input.byte() % 4) }
        let message = opcode < all.count ? all[opcode] : nil
        var arguments: [WireArgument] = []
        var created: [(UInt32, UnsafePointer<wl_interface>?)] = []
        if let message {
            var nullable = false
            var typeIndex = 0
            for letter in message.signature {
                if letter == "?" { nullable = true; continue }
                let type = typeIndex < message.types.count ? message.types[typeIndex] : nil
                typeIndex += 1
                switch letter {
                case "i": arguments.append(.int(int()))
                case "u": arguments.append(.uint(uint()))
                case "f": arguments.append(.fixedRaw(int() &* (input.byte() & 1 == 0 ? 256 : 1)))
                case "s":
                    let string = input.pick(Self.strings) ?? nil
                    arguments.append(.string(string ?? (nullable ? nil : "")))
                case "o": arguments.append(.object(object(of: type, nullable: nullable)))
                case "n":
                    let new = client.newID()
                    arguments.append(.newID(new))
                    created.append((new, type))
                case "a":
                    let count = Int(input.byte() % 24)
                    arguments.append(.array((0..<count).map { _ in input.byte() }))
                case "h": arguments.append(.fd(descriptor(pipes: message.name != "create_pool")))
                default: break
                }
                nullable = false
            }
        }
        send(id, UInt16(opcode), arguments)
        for (new, type) in created { remember(new, type, version: version) }
        if let name = message?.name, name == "destroy" || name == "release" { forget(id) }
    }

    /// A mapped xdg toplevel in one go (a shortcut to the states most requests need).
    func makeToplevel() {
        let find = { (name: String) in self.order.first { self.isObject($0, named: name) } }
        guard let compositor = find("wl_compositor"), let wmBase = find("xdg_wm_base"), let shm = find("wl_shm") else {
            for name in ["wl_compositor", "xdg_wm_base", "wl_shm"] where find(name) == nil {
                guard let registry = client.registryID,
                    let global = client.globals.first(where: { $0.interface == name })
                else { continue }
                let id = client.newID()
                send(registry, 0, [.uint(global.name), .string(name), .uint(global.version), .newID(id)])
                remember(id, WireProtocol.interfaces[name], version: global.version)
            }
            return
        }
        let version = objects[compositor]?.version ?? 1
        let surface = client.newID(), xdgSurface = client.newID(), toplevel = client.newID()
        send(compositor, WireProtocol.opcode("wl_compositor.create_surface"), [.newID(surface)])
        remember(surface, WireProtocol.interfaces["wl_surface"], version: version)
        send(wmBase, WireProtocol.opcode("xdg_wm_base.get_xdg_surface"), [.newID(xdgSurface), .object(surface)])
        remember(xdgSurface, WireProtocol.interfaces["xdg_surface"], version: objects[wmBase]?.version ?? 1)
        send(xdgSurface, WireProtocol.opcode("xdg_surface.get_toplevel"), [.newID(toplevel)])
        remember(toplevel, WireProtocol.interfaces["xdg_toplevel"], version: objects[wmBase]?.version ?? 1)
        send(surface, WireProtocol.opcode("wl_surface.commit"), [])
        client.roundtrip(limit: 20)
        if let configure = client.events.last(where: { $0.object == xdgSurface && $0.opcode == 0 }) {
            send(xdgSurface, WireProtocol.opcode("xdg_surface.ack_configure"), [.uint(configure.word(0))])
        }
        harvest()
        let width = Int32(1 + input.byte() % 64), height = Int32(1 + input.byte() % 64)
        let fd = memfd(size: Int(width * height * 4))
        let pool = client.newID(), buffer = client.newID()
        send(shm, WireProtocol.opcode("wl_shm.create_pool"), [.newID(pool), .fd(fd), .int(width * height * 4)])
        remember(pool, WireProtocol.interfaces["wl_shm_pool"], version: 1)
        send(
            pool, WireProtocol.opcode("wl_shm_pool.create_buffer"),
            [.newID(buffer), .int(0), .int(width), .int(height), .int(width * 4), .uint(UInt32(input.byte() & 1))])
        remember(buffer, WireProtocol.interfaces["wl_buffer"], version: 1)
        send(surface, WireProtocol.opcode("wl_surface.attach"), [.object(buffer), .int(0), .int(0)])
        send(surface, WireProtocol.opcode("wl_surface.damage_buffer"), [.int(0), .int(0), .int(width), .int(height)])
        send(surface, WireProtocol.opcode("wl_surface.commit"), [])
        contentSurfaces.append(surface)
        pump()
    }

    // MARK: Structure-aware shortcuts

    /// Surfaces that have a buffer attached and committed by a shortcut (parents for trees).
    var contentSurfaces: [UInt32] = []
    static let scales: [Double] = [1, 1.5, 2, 3, 1.25, 8]
    static let bufferSizes: [(Int32, Int32)] = [
        (1, 1), (32768, 1), (65535, 1), (1, 65535), (32768, 8), (4096, 64), (3, 5),
    ]
    static let bufferScales: [Int32] = [1, 2, 3, 7, 120, Int32.max]

    /// The op after the 19 plain ones: a repaint, or one step of a state hostile clients reach
    /// for: subsurface trees with content, buffers at the size limits, viewports, buffer
    /// transforms and scales, scaled and fractionally scaled screens.
    func structure() {
        switch input.byte() % 8 {
        case 1: subsurfaceTree()
        case 2: extremeBuffer()
        case 3: viewport()
        case 4: surfaceTransform()
        case 5: changeScreenScale()
        default: server.repaint(); pump()
        }
    }

    func find(_ name: String) -> UInt32? { order.first { isObject($0, named: name) } }

    /// Binds the globals named, those not bound yet; whether all are bound now.
    func need(_ names: [String]) -> Bool {
        var all = true
        for name in names where find(name) == nil {
            all = false
            guard let registry = client.registryID, let global = client.globals.first(where: { $0.interface == name })
            else { continue }
            let id = client.newID()
            send(registry, 0, [.uint(global.name), .string(name), .uint(global.version), .newID(id)])
            remember(id, WireProtocol.interfaces[name], version: global.version)
        }
        return all
    }

    /// A surface with content: one made by a shortcut, else a new toplevel's.
    func contentSurface() -> UInt32? {
        contentSurfaces.removeAll { objects[$0] == nil }
        if let surface = input.pick(contentSurfaces) { return surface }
        makeToplevel()
        return contentSurfaces.last
    }

    /// A buffer of `width`×`height` ARGB pixels in a pool of its own (nil if too large to bother).
    func buffer(width: Int32, height: Int32) -> UInt32? {
        guard let shm = find("wl_shm") else { return nil }
        let bytes = Int(width) * Int(height) * 4
        guard bytes <= 4 << 20 else { return nil }
        let fd = memfd(size: bytes)
        let pool = client.newID(), buffer = client.newID()
        send(shm, WireProtocol.opcode("wl_shm.create_pool"), [.newID(pool), .fd(fd), .int(Int32(bytes))])
        remember(pool, WireProtocol.interfaces["wl_shm_pool"], version: 1)
        send(
            pool, WireProtocol.opcode("wl_shm_pool.create_buffer"),
            [.newID(buffer), .int(0), .int(width), .int(height), .int(width * 4), .uint(UInt32(input.byte() & 1))])
        remember(buffer, WireProtocol.interfaces["wl_buffer"], version: 1)
        return buffer
    }

    func attachAndCommit(_ surface: UInt32, width: Int32, height: Int32) {
        if let buffer = buffer(width: width, height: height) {
            send(surface, WireProtocol.opcode("wl_surface.attach"), [.object(buffer), .int(0), .int(0)])
        }
        send(
            surface, WireProtocol.opcode("wl_surface.damage_buffer"),
            [.int(int()), .int(int()), .int(int()), .int(int())])
        send(surface, WireProtocol.opcode("wl_surface.damage"), [.int(int()), .int(int()), .int(int()), .int(int())])
        send(surface, WireProtocol.opcode("wl_surface.commit"), [])
    }

    /// A chain (each child the last one's parent) or a fan of subsurfaces with content under a
    /// surface with content, at positions from the edge values, synchronized or not, committed.
    func subsurfaceTree() {
        guard need(["wl_compositor", "wl_subcompositor", "wl_shm"]), let root = contentSurface(),
            let compositor = find("wl_compositor"), let subcompositor = find("wl_subcompositor")
        else { return }
        let count = 1 + Int(input.byte() % 12)
        let chain = input.byte() & 1 == 0
        var parent = root
        var made: [UInt32] = []
        for _ in 0..<count {
            let surface = client.newID(), subsurface = client.newID()
            send(compositor, WireProtocol.opcode("wl_compositor.create_surface"), [.newID(surface)])
            remember(surface, WireProtocol.interfaces["wl_surface"], version: objects[compositor]?.version ?? 1)
            send(
                subcompositor, WireProtocol.opcode("wl_subcompositor.get_subsurface"),
                [.newID(subsurface), .object(surface), .object(parent)])
            remember(subsurface, WireProtocol.interfaces["wl_subsurface"], version: 1)
            let (x, y) = (int(), int())
            send(subsurface, WireProtocol.opcode("wl_subsurface.set_position"), [.int(x), .int(y)])
            if x.magnitude >= 1 << 30 || y.magnitude >= 1 << 30 { reached.insert(.farSubsurface) }
            if input.byte() & 1 == 0 { send(subsurface, WireProtocol.opcode("wl_subsurface.set_desync"), []) }
            let size = input.pick(Self.bufferSizes) ?? (1, 1)
            attachAndCommit(surface, width: min(size.0, 256), height: min(size.1, 256))
            made.append(surface)
            contentSurfaces.append(surface)
            if chain { parent = surface }
        }
        // Parents commit last, bottom up, so synchronized children's state applies.
        for surface in made.reversed() { send(surface, WireProtocol.opcode("wl_surface.commit"), []) }
        send(root, WireProtocol.opcode("wl_surface.commit"), [])
        if count >= 3, chain { reached.insert(.subsurfaceChain) }
        if count >= 4, !chain { reached.insert(.subsurfaceFan) }
        pump()
    }

    /// A buffer at the size limits on a surface with content, with a buffer transform and scale.
    func extremeBuffer() {
        guard need(["wl_compositor", "wl_shm"]), let surface = contentSurface(), let size = input.pick(Self.bufferSizes)
        else { return }
        let transform = Int32(input.byte() % 8)
        send(surface, WireProtocol.opcode("wl_surface.set_buffer_transform"), [.int(transform)])
        if let scale = input.pick(Self.bufferScales), (objects[surface]?.version ?? 1) >= 3 {
            send(surface, WireProtocol.opcode("wl_surface.set_buffer_scale"), [.int(scale)])
        }
        attachAndCommit(surface, width: size.0, height: size.1)
        if max(size.0, size.1) >= 32768, transform != 0 { reached.insert(.hugeBufferTransformed) }
        pump()
    }

    /// wp_viewport source and destination from the edge values (fixed-point too) on a surface with content.
    func viewport() {
        guard need(["wl_compositor", "wl_shm", "wp_viewporter"]), let surface = contentSurface(),
            let viewporter = find("wp_viewporter")
        else { return }
        let viewport = client.newID()
        send(viewporter, WireProtocol.opcode("wp_viewporter.get_viewport"), [.newID(viewport), .object(surface)])
        remember(viewport, WireProtocol.interfaces["wp_viewport"], version: 1)
        let fixed = { () -> WireArgument in
            let value = self.int()
            return .fixedRaw(self.input.byte() & 1 == 0 ? value : value &* 256)
        }
        send(viewport, WireProtocol.opcode("wp_viewport.set_source"), [fixed(), fixed(), fixed(), fixed()])
        send(viewport, WireProtocol.opcode("wp_viewport.set_destination"), [.int(int()), .int(int())])
        send(surface, WireProtocol.opcode("wl_surface.commit"), [])
        reached.insert(.viewport)
        pump()
    }

    /// Buffer transform, scale and offset changes on a surface with content, then a commit.
    func surfaceTransform() {
        guard need(["wl_compositor", "wl_shm"]), let surface = contentSurface() else { return }
        let transform = Int32(input.byte() % 8)
        send(surface, WireProtocol.opcode("wl_surface.set_buffer_transform"), [.int(transform)])
        if (objects[surface]?.version ?? 1) >= 3, let scale = input.pick(Self.bufferScales) {
            send(surface, WireProtocol.opcode("wl_surface.set_buffer_scale"), [.int(scale)])
            if scale > 1, transform != 0 { reached.insert(.scaledTransformedSurface) }
        }
        if (objects[surface]?.version ?? 1) >= 5 {
            send(surface, WireProtocol.opcode("wl_surface.offset"), [.int(int()), .int(int())])
        }
        send(surface, WireProtocol.opcode("wl_surface.commit"), [])
        server.repaint()
        pump()
    }

    /// A screen's scale from 1, 1.5, 2, 3, 1.25 and 8 (reset after the input).
    func changeScreenScale() {
        guard let output = input.pick(server.compositor.scene.outputs), let scale = input.pick(Self.scales) else {
            return
        }
        server.windows.setScale(scale, for: output.screen)
        if scale != scale.rounded(), !server.windows.windows.isEmpty { reached.insert(.fractionalScreen) }
        server.repaint()
        pump()
    }

    func truncateFD() {
        guard let fd = input.pick(fds) else { return }
        _ = ftruncate(fd, off_t(input.pick(Self.sizes) ?? 0))
    }

    /// Input from the seat, at a chosen place on a chosen screen.
    func inject() {
        let seat = server.compositor.seat!
        guard let output = input.pick(server.compositor.scene.outputs) else { return }
        let x = Double(Int(input.byte()) * 3 - 40), y = Double(Int(input.byte()) * 2 - 40)
        switch input.byte() % 6 {
        case 0: seat.pointerMotion(on: output, x: x, y: y, time: 1)
        case 1:
            seat.pointerMotion(on: output, x: x, y: y, time: 1)
            seat.pointerButton(0x110, pressed: true, time: 2)
        case 2: seat.pointerButton(0x110, pressed: false, time: 3)
        case 3: seat.key(UInt32(input.byte() % 64), pressed: input.byte() & 1 == 0, time: 4)
        case 4: seat.touchDown(id: Int32(input.byte() % 3), on: output, x: x, y: y, time: 5)
        default: seat.touchUp(id: Int32(input.byte() % 3), time: 6)
        }
        pump()
    }

    // MARK: Arguments

    func int() -> Int32 {
        let choice = input.byte()
        if choice < 200 { return Self.ints[Int(choice) % Self.ints.count] }
        return Int32(bitPattern: input.word())
    }

    func uint() -> UInt32 {
        let choice = input.byte()
        if choice < 100 { return serials[Int(choice) % serials.count] }
        if choice < 230 { return UInt32(bitPattern: Self.ints[Int(choice) % Self.ints.count]) }
        return input.word()
    }

    func object(of type: UnsafePointer<wl_interface>?, nullable: Bool) -> UInt32 {
        let choice = input.byte()
        if choice == 0xff { return input.word() % 64 }  // any id, live or not
        if choice == 0xfe || (nullable && choice < 16) { return 0 }
        let matching = type.map { type in order.filter { isObject($0, named: type.pointee.name) } } ?? []
        if !matching.isEmpty, choice < 0xf0 { return matching[Int(choice) % matching.count] }
        return order.isEmpty ? 0 : order[Int(choice) % order.count]
    }

    func isObject(_ id: UInt32, named name: String) -> Bool {
        name.withCString { isObject(id, named: $0) }
    }

    func isObject(_ id: UInt32, named name: UnsafePointer<CChar>) -> Bool {
        guard let interface = objects[id]?.interface else { return false }
        return strcmp(interface.pointee.name, name) == 0
    }

    /// A descriptor argument: mostly a memfd of one of `sizes`, now and then (with `pipes`) one
    /// end of a (blocking) pipe, what selection transfers and security contexts' close_fd take,
    /// or a listening Unix socket, what their listen_fd takes, so the paths that keep a client's
    /// descriptor are reached with the kinds they accept. The client keeps its copies until it
    /// leaves. (wl_shm.create_pool always gets a memfd: anything else there only ends the
    /// client, and the seeds' pools would stop working.)
    func descriptor(pipes: Bool) -> Int32 {
        let choice = input.byte()
        guard pipes, choice >= 224 else { return memfd(size: Self.sizes[Int(choice) % Self.sizes.count]) }
        if choice >= 248 { return listeningSocket() }
        var ends: [Int32] = [-1, -1]
        guard strata_client_pipe(&ends) == 0 else { return memfd(size: 0) }
        fds += ends
        return ends[choice < 236 ? 0 : 1]
    }

    /// A Unix stream socket listening at an address the kernel picks (abstract, autobound).
    func listeningSocket() -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return memfd(size: 0) }
        fds.append(fd)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sa_family_t>.size))
            }
        }
        _ = listen(fd, 4)
        return fd
    }

    func memfd(size: Int? = nil) -> Int32 {
        let fd = strata_client_memfd("strata-fuzz")
        _ = ftruncate(fd, off_t(size ?? input.pick(Self.sizes) ?? 0))
        fds.append(fd)
        return fd
    }

    func send(_ object: UInt32, _ opcode: UInt16, _ arguments: [WireArgument]) {
        requests += 1
        client.send(WireMessage(object: object, opcode: opcode, arguments))
    }
}
