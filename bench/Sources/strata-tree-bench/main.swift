// strata-tree-bench: building and tearing down deep and wide surface trees, and region and
// damage floods, by an in-process raw client against a headless server; prints the time per
// node so linear growth shows as a flat column (docs/performance.md, "Trees").
//
//   strata-tree-bench [--sizes 10000,50000,200000] [--runs 3]
//
// deep: chains at the depth limit (32 subsurfaces below a root surface), as many as the size
//       asks for, each built leaf first (every get_subsurface makes a new root of the chain)
// wide: mapped toplevels, each with as many children as a tree may hold (4,096), all showing a
//       buffer, applied by the root's commit
// Teardown: the client disconnects (libwayland destroys its objects in id order), or destroys
// every wl_subsurface and wl_surface itself, newest first (leaves before their parents in the
// wide trees, the chains' roots first in the leaf-first chains).
// region: checkerboards of one-pixel boxes, 4,096 boxes a wl_region, each set as an input region
// damage: one-pixel damage rectangles on one mapped surface, then a commit and a repaint
import Foundation
import StrataServer
import StrataTestSupport

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let sizes = (option("--sizes") ?? "10000,50000,200000").split(separator: ",").compactMap { Int($0) }
let runs = Int(option("--runs") ?? "3") ?? 3
let verbose = arguments.contains("--verbose")
let depthLimit = 32, treeLimit = 4096, regionLimit = 4096

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
func fmt(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

typealias Core = (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32)

extension RawClient {
    func core() -> Core {
        (bind("wl_compositor")!, bind("wl_subcompositor")!, bind("wl_shm")!, bind("xdg_wm_base")!)
    }
    func surface(_ core: Core) -> UInt32 {
        let id = newID()
        request(core.compositor, "wl_compositor.create_surface", .newID(id))
        return id
    }
    func subsurface(_ core: Core, _ surface: UInt32, parent: UInt32) -> UInt32 {
        let id = newID()
        request(core.subcompositor, "wl_subcompositor.get_subsurface", .newID(id), .object(surface), .object(parent))
        return id
    }
    /// A mapped toplevel: its wl_surface and xdg_toplevel.
    func toplevel(_ core: Core, buffer: UInt32) -> (surface: UInt32, toplevel: UInt32) {
        let keeps = keepsEvents
        keepsEvents = true
        defer { keepsEvents = keeps; clearEvents() }
        let surface = surface(core)
        let xdgSurface = newID(), toplevel = newID()
        request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
        request(xdgSurface, "xdg_surface.get_toplevel", .newID(toplevel))
        request(surface, "wl_surface.commit")
        roundtrip()
        if let configure = events(for: xdgSurface).last(where: { $0.opcode == 0 }) {
            request(xdgSurface, "xdg_surface.ack_configure", .uint(configure.word(0)))
        }
        request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
        request(surface, "wl_surface.commit")
        return (surface, toplevel)
    }
}

/// Builds a tree forest of about `size` nodes; returns the objects to destroy, newest first
/// (and requests to send before, not measured).
typealias Builder = (RawClient, Core, Int) -> [(UInt32, String)]

let deep: Builder = { client, core, size in
    let (_, buffer) = client.makeBuffer(shm: core.shm, width: 1, height: 1)
    var objects: [(UInt32, String)] = []
    var built = 0
    while built < size {
        // Leaf first: s[0] the leaf, each new surface the parent of the previous one.
        var below = client.surface(core)
        client.request(below, "wl_surface.attach", .object(buffer), .int(0), .int(0))
        client.request(below, "wl_surface.commit")
        objects.append((below, "wl_surface.destroy"))
        for _ in 0..<depthLimit {
            let above = client.surface(core)
            objects.append((client.subsurface(core, below, parent: above), "wl_subsurface.destroy"))
            objects.append((above, "wl_surface.destroy"))
            below = above
        }
        built += depthLimit + 1
        if built % 3300 == 0 { client.pump() }
    }
    return objects
}

let wide: Builder = { client, core, size in
    let (_, buffer) = client.makeBuffer(shm: core.shm, width: 2, height: 2)
    let (_, rootBuffer) = client.makeBuffer(shm: core.shm, width: 128, height: 128)
    var objects: [(UInt32, String)] = []
    var built = 0
    while built < size {
        let (root, toplevel) = client.toplevel(core, buffer: rootBuffer)
        // Minimized before a teardown by requests: otherwise every frame painted meanwhile
        // draws every child still shown, and the figure is the painting's.
        objects.append((toplevel, "xdg_toplevel.set_minimized"))
        built += 1
        for index in 0..<min(treeLimit, size - built) {
            let child = client.surface(core)
            let sub = client.subsurface(core, child, parent: root)
            client.request(sub, "wl_subsurface.set_position", .int(Int32(index % 64) * 2), .int(Int32(index / 64) * 2))
            client.request(child, "wl_surface.attach", .object(buffer), .int(0), .int(0))
            client.request(child, "wl_surface.commit")
            objects.append((child, "wl_surface.destroy"))
            objects.append((sub, "wl_subsurface.destroy"))
            built += 1
            if built % 2000 == 0 { client.pump() }
        }
        client.request(root, "wl_surface.commit")
    }
    return objects
}

enum Teardown: String { case disconnect, destroyNewestFirst = "destroy newest first" }

/// (build, teardown) nanoseconds per node.
func measureTree(_ build: Builder, size: Int, teardown: Teardown) throws -> (Double, Double) {
    let server = try TestServer(screens: 1, width: 1280, height: 800)
    let baseline = server.liveCounts
    var client: RawClient? = try RawClient(server: server)
    client!.keepsEvents = false
    client!.getRegistry()
    let core = client!.core()
    let start = now()
    let objects = build(client!, core, size)
    guard client!.roundtrip(limit: 100_000), client!.error == nil else {
        fatalError("the build failed: \(String(describing: client!.error))")
    }
    let built = now()
    if verbose { FileHandle.standardError.write("built \(size) in \(Double(built - start) / 1e6) ms\n".data(using: .utf8)!) }
    server.repaint()
    let torn: UInt64
    switch teardown {
    case .disconnect:
        let t0 = now()
        client = nil
        var steps = 0
        while server.liveCounts != baseline, steps < 1000 {
            server.step()
            steps += 1
        }
        torn = now() - t0
    case .destroyNewestFirst:
        for (id, request) in objects where request == "xdg_toplevel.set_minimized" { client!.request(id, request) }
        client!.roundtrip(limit: 100_000)
        let t0 = now()
        for (index, (id, request)) in objects.reversed().enumerated() where request != "xdg_toplevel.set_minimized" {
            client!.request(id, request)
            if index % 4000 == 0 { client!.pump() }
        }
        guard client!.roundtrip(limit: 100_000) else { fatalError("the teardown failed") }
        torn = now() - t0
        client = nil
    }
    server.step()
    if server.liveCounts != baseline { print("leak after the teardown: \(server.liveCounts) against \(baseline)") }
    return (Double(built - start) / Double(size), Double(torn) / Double(size))
}

func trees() throws {
    print("## Trees: build and teardown, wall time per node (median of \(runs) runs)")
    print("| tree | nodes | build µs/node | teardown | teardown µs/node |")
    print("|---|---|---|---|---|")
    for (name, builder) in [("deep (chains of \(depthLimit), leaf first)", deep), ("wide (\(treeLimit) children a root)", wide)] {
        for teardown in [Teardown.disconnect, .destroyNewestFirst] {
            for size in sizes {
                var builds: [Double] = [], tears: [Double] = []
                for _ in 0..<runs {
                    let (b, t) = try measureTree(builder, size: size, teardown: teardown)
                    builds.append(b)
                    tears.append(t)
                }
                print("| \(name) | \(size) | \(fmt(median(builds) / 1000)) | \(teardown.rawValue) | \(fmt(median(tears) / 1000)) |")
            }
        }
    }
    print()
}

func floods() throws {
    print("## Region and damage floods, wall time per rectangle (median of \(runs) runs)")
    print("| flood | rectangles | µs/rectangle |")
    print("|---|---|---|")
    for size in sizes {
        var regionTimes: [Double] = [], damageTimes: [Double] = []
        for _ in 0..<runs {
            let server = try TestServer(screens: 1, width: 1280, height: 800)
            // Released before the server it steps.
            var held: RawClient? = try RawClient(server: server)
            guard let client = held else { continue }
            client.keepsEvents = false
            client.getRegistry()
            let core = client.core()
            let surface = client.surface(core)
            var start = now()
            var region: UInt32 = 0
            for index in 0..<size {
                let box = index % regionLimit
                if box == 0 {
                    region = client.newID()
                    client.request(core.compositor, "wl_compositor.create_region", .newID(region))
                }
                client.request(region, "wl_region.add", .int(Int32(box % 64) * 2), .int(Int32(box / 64) * 2), .int(1), .int(1))
                if box == regionLimit - 1 || index == size - 1 {
                    client.request(surface, "wl_surface.set_input_region", .object(region))
                    client.request(surface, "wl_surface.commit")
                    client.request(region, "wl_region.destroy")
                }
                if index % 4000 == 0 { client.pump() }
            }
            guard client.roundtrip(limit: 100_000), client.error == nil else { fatalError("the region flood failed: \(String(describing: client.error))") }
            regionTimes.append(Double(now() - start) / Double(size))

            let (_, buffer) = client.makeBuffer(shm: core.shm, width: 400, height: 400)
            let window = client.toplevel(core, buffer: buffer).surface
            client.roundtrip()
            start = now()
            for index in 0..<size {
                client.request(window, "wl_surface.damage", .int(Int32(index % 200) * 2), .int(Int32(index / 200 % 200) * 2), .int(1), .int(1))
                if index % 4000 == 0 { client.pump() }
            }
            client.request(window, "wl_surface.commit")
            guard client.roundtrip(limit: 100_000), client.error == nil else { fatalError("the damage flood failed") }
            server.repaint()
            damageTimes.append(Double(now() - start) / Double(size))
            held = nil
            server.step()   // (the server outlives the client)
        }
        print("| region (checkerboards of \(regionLimit)) | \(size) | \(fmt(median(regionTimes) / 1000, 3)) |")
        print("| damage (one surface) | \(size) | \(fmt(median(damageTimes) / 1000, 3)) |")
    }
    print()
}

switch arguments.first ?? "all" {
case "trees": try trees()
case "floods": try floods()
default:
    try trees()
    try floods()
}
