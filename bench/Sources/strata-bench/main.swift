// strata-bench: the performance report of docs/performance.md.
//
//   strata-bench [report]            every figure below, as a table
//   strata-bench composite           composite time per frame vs the pixman floor, 1/10/50 windows
//   strata-bench allocations         allocations per frame (and per commit)
//   strata-bench memory              resident memory: in-process per window and per client
//   strata-bench throughput          commits per second, 1 and 50 clients
//   strata-bench startup [--bin DIR] process start → the first client frame shown (built strata)
//   strata-bench soak [--minutes M] [--clients N] [--seed S] [--no-x] [--x11-color-client PATH]
//                                    clients connecting, building trees, committing, selecting and
//                                    dying at random with hostile programs among them; RSS, fds and
//                                    live objects at the end against the start (bench/soak.sh)
//   strata-bench callgrind-target --windows N --damage full|1 --what strata|floor|painter [--frames F]
//                                    the measured loop for `valgrind --tool=callgrind
//                                    --collect-atstart=no` (bench/callgrind.sh)
import CMallocCounter
import Foundation
import StrataBench
import StrataRender
import StrataTestSupport

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

func fmt(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

let onePercent = SceneLayout.damageRect(percent: 1)
let windowCounts = [1, 10, 50]

// MARK: composite

func composite() {
    print("## Composite time per frame, 1920×1080 (thread CPU time, median of 7 runs)")
    print("| windows | damage | Strata µs | floor µs | Strata / floor | painter's µs | pixels written |")
    print("|---|---|---|---|---|---|---|")
    for n in windowCounts {
        let layout = SceneLayout(windows: n)
        guard let scene = try? CompositeScene(layout: layout) else { fatalError("cannot build the scene") }
        let floor = PixmanFloor(layout: layout)
        var fullFrame = 0.0
        for (label, rect) in [("full", SceneLayout.fullScreen), ("1 %", onePercent)] {
            let full = label == "full"
            let iterations = full ? 20 : 400
            floor.prepare(damage: rect)
            let strata = Measure.cpuMicrosecondsPerCall(iterations: iterations) {
                if full { scene.compositeFullFrame() } else { scene.compositeFrame(damage: rect) }
            }
            let floorTime = Measure.cpuMicrosecondsPerCall(iterations: iterations) { floor.composite() }
            let painter = Measure.cpuMicrosecondsPerCall(iterations: iterations) { floor.paintersAlgorithm() }
            if full { fullFrame = strata }
            let share = full ? "" : " (\(fmt(strata / fullFrame * 100, 1)) % of full)"
            print(
                "| \(n) | \(label) | \(fmt(strata, 1))\(share) | \(fmt(floorTime, 1)) | \(fmt(strata / floorTime)) | \(fmt(painter, 1)) | \(floor.pixelsWritten) |"
            )
        }
    }
    print()
}

// MARK: allocations

func allocations() {
    print("## Allocations (malloc, calloc, realloc, memalign calls; counter linked into the executable)")
    allocationTable(scale: 1)
    // The same scenes on a scaled screen (1920×1080 pixels; the layout in logical pixels).
    for scale in [2.0, 1.5] {
        print()
        print("At scale \(scale):")
        allocationTable(scale: scale)
    }
    commitAllocations()
}

func allocationTable(scale: Double) {
    print("| windows | per full frame | per 1 % frame | per frame damaged in two places |")
    print("|---|---|---|---|")
    for n in windowCounts {
        guard let scene = try? CompositeScene(layout: SceneLayout(windows: n), scale: scale) else {
            fatalError("cannot build the scene")
        }
        func count(_ body: () -> Void) -> Double {
            for _ in 0..<5 { body() }  // warm-up: reusable storage reaches its size
            let frames = 50
            let before = strata_malloc_count()
            strata_malloc_counting(1)
            for _ in 0..<frames { body() }
            strata_malloc_counting(0)
            return Double(strata_malloc_count() - before) / Double(frames)
        }
        let full = count { scene.compositeFullFrame() }
        let small = count { scene.compositeFrame(damage: onePercent) }
        // Damage of several boxes: the 1 % rectangle and another one a third of the way in.
        let two = count {
            scene.output.damage.addRect(
                x: onePercent.x / 3, y: onePercent.y / 3, width: onePercent.width, height: onePercent.height)
            scene.compositeFrame(damage: onePercent)
        }
        print("| \(n) | \(fmt(full)) | \(fmt(small)) | \(fmt(two)) |")
    }
}

func commitAllocations() {
    guard let push = try? CommitThroughput(clients: 1) else { fatalError("cannot build the scene") }
    push.push(rounds: 5)
    let before = strata_malloc_count()
    strata_malloc_counting(1)
    let commits = push.push(rounds: 20)
    strata_malloc_counting(0)
    print()
    print(
        "Commit path (client and server in one process, both counted): \(fmt(Double(strata_malloc_count() - before) / Double(commits))) allocations per commit"
    )
    print()
}

// MARK: memory

func memory() {
    print("## Memory, in-process (RssAnon: private memory; client pools are shared memory, not counted)")
    let before = Measure.memory()["RssAnon"] ?? 0
    let side: Int32 = 400
    func spec(_ i: Int) -> SceneLayout.WindowSpec {
        .init(
            x: Int32(i % 10) * 40, y: Int32(i % 10) * 30, width: side, height: 300, hasAlpha: i % 2 == 1,
            argb: 0xff80_8080)
    }
    guard let scene = try? CompositeScene(layout: SceneLayout(specs: [spec(0)])) else {
        fatalError("cannot build the scene")
    }
    let oneWindow = Measure.memory()["RssAnon"] ?? 0
    let extra = 20
    for i in 1...extra { try? scene.addWindow(spec(i), client: scene.clients[0]) }
    scene.server.repaint()
    let windows = Measure.memory()["RssAnon"] ?? 0
    for i in 1...extra {
        guard let shell = try? scene.addClient() else { fatalError("cannot connect") }
        try? scene.addWindow(spec(i), client: shell)
    }
    scene.server.repaint()
    let clients = Measure.memory()["RssAnon"] ?? 0
    let perWindow = Double(windows - oneWindow) / Double(extra)
    let perClientWithWindow = Double(clients - windows) / Double(extra)
    print("- server with one 1920×1080 screen and one 400×300 window: \(oneWindow - before) kB over the bare process")
    print("- per extra 400×300 window (same client): \(fmt(perWindow, 0)) kB (its texture: \(400 * 300 * 4 / 1024) kB)")
    print(
        "- per extra client with one such window: \(fmt(perClientWithWindow, 0)) kB, so \(fmt(perClientWithWindow - perWindow, 0)) kB per client beyond its window"
    )
    print()
}

// MARK: throughput

func throughput() {
    print("## Commit throughput (in-process: client and server on one thread; 256×256 ARGB, full damage)")
    for clients in [1, 50] {
        guard let push = try? CommitThroughput(clients: clients) else { fatalError("cannot build the scene") }
        push.push(rounds: 2)
        var rates: [Double] = []
        for _ in 0..<5 {
            let start = Measure.wallNanoseconds()
            let commits = push.push(rounds: max(1, 100 / clients))
            rates.append(Double(commits) / (Double(Measure.wallNanoseconds() - start) / 1e9))
        }
        print(
            "- \(clients) client\(clients == 1 ? "" : "s"): \(fmt(Measure.median(rates), 0)) commits/s (median of 5 runs, wall clock)"
        )
    }
    print()
}

// MARK: startup

func startup() {
    let bin =
        option("--bin")
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/release").standardized.path
    let strata = bin + "/strata", client = bin + "/strata-color-client"
    guard FileManager.default.isExecutableFile(atPath: strata), FileManager.default.isExecutableFile(atPath: client)
    else {
        print(
            "## Start-up: skipped (no \(strata) or \(client); build the main package with -c release or pass --bin DIR)\n"
        )
        return
    }
    var times: [Double] = []
    for _ in 0..<10 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strata)
        process.arguments = ["--size", "1920x1080", "--no-control", "--", client, "--frames", "1"]
        var environment = ProcessInfo.processInfo.environment
        if environment["XDG_RUNTIME_DIR"] == nil {
            let dir = NSTemporaryDirectory() + "strata-bench-\(getpid())"
            try? FileManager.default.createDirectory(
                atPath: dir, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            environment["XDG_RUNTIME_DIR"] = dir
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = Measure.wallNanoseconds()
        guard (try? process.run()) != nil else { break }
        var seen = ""
        var elapsed: Double?
        while elapsed == nil {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if seen.contains("frame 1") { elapsed = Double(Measure.wallNanoseconds() - start) / 1e6 }
        }
        process.waitUntilExit()
        if let elapsed { times.append(elapsed) }
    }
    print("## Start-up: `strata --size 1920x1080 -- strata-color-client --frames 1` until it prints `frame 1`")
    print(
        "- median of \(times.count) runs: \(fmt(Measure.median(times), 1)) ms (min \(fmt(times.min() ?? .nan, 1)), max \(fmt(times.max() ?? .nan, 1)))"
    )
    print()
}

// MARK: callgrind

/// The loop callgrind measures (`--collect-atstart=no`; collection is toggled around it).
nonisolated(unsafe) var measuredBody: () -> Void = {}
nonisolated(unsafe) var measuredFrames = 20

func strataBenchMeasured() {
    strata_callgrind_collect(1)
    for _ in 0..<measuredFrames { measuredBody() }
    strata_callgrind_collect(0)
}

func callgrindTarget() {
    let n = Int(option("--windows") ?? "10") ?? 10
    let full = (option("--damage") ?? "full") == "full"
    measuredFrames = Int(option("--frames") ?? "20") ?? 20
    let layout = SceneLayout(windows: n)
    let rect = full ? SceneLayout.fullScreen : onePercent
    switch option("--what") ?? "strata" {
    case "floor", "painter":
        let floor = PixmanFloor(layout: layout)
        floor.prepare(damage: rect)
        measuredBody = option("--what") == "floor" ? { floor.composite() } : { floor.paintersAlgorithm() }
        floor.composite()
        strataBenchMeasured()
    default:
        guard let scene = try? CompositeScene(layout: layout) else { fatalError("cannot build the scene") }
        measuredBody = full ? { scene.compositeFullFrame() } : { scene.compositeFrame(damage: rect) }
        for _ in 0..<3 { measuredBody() }
        strataBenchMeasured()
        withExtendedLifetime(scene) {}
    }
}

// MARK: soak

/// How much the end may differ from the start: descriptors and live objects not at all; resident
/// memory by 8 MiB or 10 %, whichever is more (malloc keeps freed memory in its arenas, and a
/// few hundred sessions of churn leave it fragmented; a leak per session would be far more).
func soak() {
    let minutes = option("--minutes").flatMap(Double.init) ?? 5
    let clients = option("--clients").flatMap(Int.init) ?? 16
    let seed = option("--seed").flatMap(UInt64.init) ?? 1
    let xClients = !arguments.contains("--no-x")
    guard minutes > 0, clients > 0,
        let soak = try? Soak(seed: seed, xClients: xClients, colorClient: option("--x11-color-client"))
    else {
        FileHandle.standardError.write(Data("strata-bench soak: bad --minutes/--clients, or no server\n".utf8))
        exit(2)
    }
    print("## Soak: \(fmt(minutes, 1)) min, up to \(clients) clients at once, seed \(seed)")
    if let programs = soak.xPrograms {
        print(
            "X programs under Xwayland (up to 4 at once): \(programs.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))"
        )
    } else if xClients {
        print("no X programs: Xwayland did not start (not installed?)")
    }
    let report = soak.run(seconds: minutes * 60, warmUp: min(60, minutes * 6), maxSessions: clients) {
        print("  \($0)")
    }
    let rssMargin = max(8 * 1024, report.start.rssKiB / 10)
    let rssGrowth = report.end.rssKiB - report.start.rssKiB
    print("| | start | end |")
    print("|---|---|---|")
    print("| RSS KiB | \(report.start.rssKiB) | \(report.end.rssKiB) (peak \(report.peakRSSKiB)) |")
    print("| open fds | \(report.start.fds) | \(report.end.fds) |")
    print(
        "| live resources / objects | \(report.start.resources) / \(report.start.objects) | \(report.end.resources) / \(report.end.objects) |"
    )
    if report.start.xwaylandFds >= 0 {
        print("| Xwayland RSS KiB | \(report.start.xwaylandRSSKiB) | \(report.end.xwaylandRSSKiB) |")
        print("| Xwayland open fds | \(report.start.xwaylandFds) | \(report.end.xwaylandFds) |")
        print("| X windows | \(report.start.xWindows) | \(report.end.xWindows) |")
        print(
            "| Xwayland's objects / surfaces / pools in Strata | \(report.start.xwaylandObjects) / \(report.start.xwaylandSurfaces) / "
                + "\(report.start.xwaylandPools) | \(report.end.xwaylandObjects) / \(report.end.xwaylandSurfaces) / \(report.end.xwaylandPools) |"
        )
    }
    print(
        "\(report.sessions) sessions, \(report.xProgramsStarted) X programs, \(report.actions) actions, "
            + "\(report.hostilePrograms) hostile programs in \(fmt(report.seconds, 0)) s")
    var failures: [String] = []
    if report.end.fds != report.start.fds { failures.append("fds \(report.start.fds) → \(report.end.fds)") }
    // Xwayland lives through the soak with frames in flight (frame callbacks waiting, a pool
    // more or less): with X programs, the live objects may differ by Xwayland's slack of 64 (a
    // leak per session, over hundreds of sessions, would be far more); without, exactly.
    let hasX = report.start.xwaylandObjects >= 0
    let slack = hasX ? 64 : 0
    let xwaylandChange = hasX ? abs(report.end.xwaylandObjects - report.start.xwaylandObjects) : 0
    if abs(report.end.objects - report.start.objects) > slack
        || abs(report.end.resources - report.start.resources) > slack
    {
        failures.append(
            "live objects \(report.start.objects) → \(report.end.objects): \(report.start.types) → \(report.end.types)")
    }
    if rssGrowth > rssMargin { failures.append("RSS grew by \(rssGrowth) KiB, more than the \(rssMargin) KiB margin") }
    if report.start.xwaylandFds >= 0 {
        // Xwayland: the same rule (its descriptors exactly, its memory within the margin), and
        // no X window left in the model.
        let xMargin = max(8 * 1024, report.start.xwaylandRSSKiB / 10)
        let xGrowth = report.end.xwaylandRSSKiB - report.start.xwaylandRSSKiB
        if report.end.xwaylandFds != report.start.xwaylandFds {
            failures.append("Xwayland fds \(report.start.xwaylandFds) → \(report.end.xwaylandFds)")
        }
        if xGrowth > xMargin {
            failures.append("Xwayland's RSS grew by \(xGrowth) KiB, more than the \(xMargin) KiB margin")
        }
        // Xwayland keeps a few surfaces of its own once used (cursors), each with a frame
        // callback waiting while it is not shown: 64 objects of room, far below what a leak per
        // X program or per window (a hundred programs, thousands of changes) would leave.
        if xwaylandChange > 64 {
            failures.append(
                "Xwayland's objects in Strata \(report.start.xwaylandObjects) → \(report.end.xwaylandObjects)")
        }
        if report.end.xWindows != 0 || report.start.xWindows != 0 {
            failures.append("X windows left: \(report.start.xWindows) at the start, \(report.end.xWindows) at the end")
        }
    }
    if failures.isEmpty {
        print(
            "soak: passed (RSS \(rssGrowth >= 0 ? "+" : "")\(rssGrowth) KiB, margin \(rssMargin) KiB; fds equal, live objects "
                + (hasX ? "\(report.start.objects) → \(report.end.objects) (Xwayland's slack: 64))" : "equal)"))
    } else {
        print("soak: FAILED: \(failures.joined(separator: "; "))")
        exit(1)
    }
}

switch arguments.first ?? "report" {
case "composite": composite()
case "allocations": allocations()
case "memory": memory()
case "throughput": throughput()
case "startup": startup()
case "callgrind-target": callgrindTarget()
case "soak": soak()
case "report":
    print(
        "# strata-bench on \(ProcessInfo.processInfo.hostName), \(ProcessInfo.processInfo.activeProcessorCount) cores\n"
    )
    // Memory first: the heap only grows, so later sections would hide what windows cost.
    memory(); composite(); allocations(); throughput(); startup()
default:
    FileHandle.standardError.write(
        Data(
            "usage: strata-bench [report|composite|allocations|memory|throughput|startup|callgrind-target|soak]\n".utf8)
    )
    exit(2)
}
