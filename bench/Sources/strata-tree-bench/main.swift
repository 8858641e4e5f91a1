// strata-tree-bench: building and tearing down deep and wide surface trees, and region and
// damage floods, by in-process raw clients against a headless server; prints the time per
// node so linear growth shows as a flat column (docs/performance.md, "Trees and floods").
//
//   strata-tree-bench [trees|floods] [--sizes 10000,50000,200000] [--runs 3] [--verbose]
//
// Clients: no client may hold more than ClientBudget's caps (10,000 wl_surfaces, 50,000
// objects, 1,024 wl_shm pools; past one it is disconnected with no_memory), so a forest is
// spread over as many clients as it needs, each filled with whole chains or trees up to 80 % of
// the caps (at most 8,000 surfaces and 40,000 objects), one client after the other. Every client
// is checked after the build and the teardown: one that got an error or was disconnected stops
// the bench with exit status 1.
// deep: chains at the depth limit (32 subsurfaces below a root surface), as many as the size
//       asks for, each built leaf first (every get_subsurface makes a new root of the chain);
//       242 chains (7,986 surfaces) a client
// wide: mapped toplevels, each with as many children as a tree may hold (4,096), all showing a
//       buffer, applied by the root's commit; one tree (4,097 surfaces) a client
// Teardown: every client's connection closed at once (libwayland destroys each client's objects
// in id order), or each client, the newest first, destroys every wl_subsurface and wl_surface
// itself, newest first (leaves before their parents in the wide trees, the chains' roots first
// in the leaf-first chains).
// region: checkerboards of one-pixel boxes, 4,096 boxes a wl_region (TreeLimits.maxRegionBoxes,
//         the most a region may hold), each set as an input region and destroyed: one client,
//         one live region at a time, so the object cap is never near
// damage: one-pixel damage rectangles on one mapped surface, then a commit and a repaint (past
//         TreeLimits.maxDamageBoxes, 256, the damage is its extents); one client
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
// TreeLimits' (internal to StrataServer): maxSubsurfaceDepth, maxSubsurfacesPerTree, maxRegionBoxes.
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

/// What a client stays within: 80 % of its budget's caps, so no client nears a cap.
let surfacesPerClient = Int(ClientBudget.maxSurfaces) * 4 / 5  // 8,000
let objectsPerClient = Int(ClientBudget.maxObjects) * 4 / 5  // 40,000

/// Prints `message` and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write("strata-tree-bench: \(message)\n".data(using: .utf8)!)
    exit(1)
}

/// Stops the bench if `client` got a protocol error or was disconnected.
func check(_ client: RawClient, _ index: Int, _ what: String) {
    if let error = client.error {
        fail("\(what): client \(index) got an error on object \(error.object), code \(error.code): \(error.message)")
    }
    if client.isDisconnected { fail("\(what): client \(index) was disconnected") }
}

/// A tree shape: what one chain or tree costs, and how to build one client's share.
struct Shape {
    let name: String
    /// Nodes (wl_surfaces) of one chain or tree.
    let unitSurfaces: Int
    /// Protocol objects of one chain or tree (surfaces, subsurfaces, xdg objects).
    let unitObjects: Int
    /// Objects each client holds besides: wl_registry, 4 globals, its wl_shm pools and buffers.
    let fixedObjects: Int
    /// Builds about `size` nodes (whole chains or trees, the last one cut short only in the wide
    /// shape) on one client; returns the objects to destroy, oldest first (and requests to send
    /// before, not measured), and the nodes built.
    let build: (RawClient, Core, Int) -> (objects: [(UInt32, String)], nodes: Int)

    /// Nodes one client is given: as many whole chains or trees as fit within the share.
    var nodesPerClient: Int {
        let units = min(surfacesPerClient / unitSurfaces, (objectsPerClient - fixedObjects) / unitObjects)
        precondition(units >= 1, "one \(name) chain or tree does not fit within a client's share")
        return units * unitSurfaces
    }
}

let deep = Shape(name: "deep", unitSurfaces: depthLimit + 1, unitObjects: 2 * depthLimit + 1, fixedObjects: 7) {
    client, core, size in
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
    return (objects, built)
}

let wide = Shape(name: "wide", unitSurfaces: treeLimit + 1, unitObjects: 2 * treeLimit + 3, fixedObjects: 9) {
    client, core, size in
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
    return (objects, built)
}

enum Teardown: String { case disconnect, destroyNewestFirst = "destroy newest first" }

struct TreeRun {
    /// Nanoseconds per node.
    var build: Double, teardown: Double
    var clients: Int, nodes: Int
    /// The most surfaces and objects one client held after the build (its ClientBudget).
    var maxSurfaces: Int, maxObjects: Int
}

func measureTree(_ shape: Shape, size: Int, teardown: Teardown) throws -> TreeRun {
    let server = try TestServer(screens: 1, width: 1280, height: 800)
    let baseline = server.liveCounts
    var clients: [RawClient] = []
    var objects: [[(UInt32, String)]] = []
    var nodes = 0
    let start = now()
    // One client after the other, each given its share (the last one the rest).
    while nodes < size {
        let client = try RawClient(server: server)
        client.keepsEvents = false
        client.getRegistry()
        let core = client.core()
        let (made, built) = shape.build(client, core, min(shape.nodesPerClient, size - nodes))
        guard client.roundtrip(limit: 100_000) else {
            check(client, clients.count, "the build"); fail("the build: client \(clients.count) got no answer")
        }
        check(client, clients.count, "the build")
        clients.append(client)
        objects.append(made)
        nodes += built
    }
    let built = now()
    if verbose {
        FileHandle.standardError.write(
            "built \(nodes) in \(Double(built - start) / 1e6) ms by \(clients.count) clients\n".data(using: .utf8)!)
    }
    // Every client still served (none dropped while the later ones were built), within its share.
    var maxSurfaces = 0, maxObjects = 0
    for (index, client) in clients.enumerated() {
        guard client.roundtrip(limit: 100_000) else {
            check(client, index, "after the build"); fail("after the build: client \(index) got no answer")
        }
        check(client, index, "after the build")
        guard let budget = ClientBudget.of(client.serverClient) else { fail("client \(index) has no budget") }
        if budget.surfaces > surfacesPerClient || budget.objects > objectsPerClient {
            fail("client \(index) holds \(budget.surfaces) surfaces and \(budget.objects) objects, over its share")
        }
        maxSurfaces = max(maxSurfaces, budget.surfaces)
        maxObjects = max(maxObjects, budget.objects)
    }
    server.repaint()
    let torn: UInt64
    switch teardown {
    case .disconnect:
        let t0 = now()
        // Every connection closed at once, then the clients released (each steps the server):
        // closed one by one, each disconnection would be followed by frames drawing the trees
        // still shown, and the figure would be the painting's.
        for client in clients { shutdown(client.fd, Int32(SHUT_RDWR)) }
        clients.removeAll()
        var steps = 0
        while server.liveCounts != baseline, steps < 1000 {
            server.step()
            steps += 1
        }
        torn = now() - t0
    case .destroyNewestFirst:
        for (client, made) in zip(clients, objects) {
            for (id, request) in made where request == "xdg_toplevel.set_minimized" { client.request(id, request) }
        }
        for (index, client) in clients.enumerated() {
            guard client.roundtrip(limit: 100_000) else {
                check(client, index, "minimizing"); fail("minimizing: client \(index) got no answer")
            }
        }
        let t0 = now()
        for (index, (client, made)) in zip(clients, objects).enumerated().reversed() {
            for (count, (id, request)) in made.reversed().enumerated() where request != "xdg_toplevel.set_minimized" {
                client.request(id, request)
                if count % 4000 == 0 { client.pump() }
            }
            guard client.roundtrip(limit: 100_000) else {
                check(client, index, "the teardown"); fail("the teardown: client \(index) got no answer")
            }
        }
        torn = now() - t0
        for (index, client) in clients.enumerated() { check(client, index, "the teardown") }
        clients.removeAll()
    }
    server.step()
    if server.liveCounts != baseline { print("leak after the teardown: \(server.liveCounts) against \(baseline)") }
    return TreeRun(
        build: Double(built - start) / Double(nodes), teardown: Double(torn) / Double(nodes),
        clients: objects.count, nodes: nodes, maxSurfaces: maxSurfaces, maxObjects: maxObjects)
}

func trees() throws {
    print("## Trees: build and teardown, wall time per node (median of \(runs) runs)")
    print(
        "Each client at most \(surfacesPerClient) surfaces and \(objectsPerClient) objects (ClientBudget: \(ClientBudget.maxSurfaces) and \(ClientBudget.maxObjects))."
    )
    print("| tree | nodes | clients | most surfaces / objects a client | build µs/node | teardown | teardown µs/node |")
    print("|---|---|---|---|---|---|---|")
    let shapes = [("deep (chains of \(depthLimit), leaf first)", deep), ("wide (\(treeLimit) children a root)", wide)]
    for (name, shape) in shapes {
        for teardown in [Teardown.disconnect, .destroyNewestFirst] {
            for size in sizes {
                var results: [TreeRun] = []
                for _ in 0..<runs { results.append(try measureTree(shape, size: size, teardown: teardown)) }
                let last = results.last!
                print(
                    "| \(name) | \(last.nodes) | \(last.clients) | \(last.maxSurfaces) / \(last.maxObjects) "
                        + "| \(fmt(median(results.map(\.build)) / 1000)) | \(teardown.rawValue) | \(fmt(median(results.map(\.teardown)) / 1000)) |"
                )
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
                client.request(
                    region, "wl_region.add", .int(Int32(box % 64) * 2), .int(Int32(box / 64) * 2), .int(1), .int(1))
                if box == regionLimit - 1 || index == size - 1 {
                    client.request(surface, "wl_surface.set_input_region", .object(region))
                    client.request(surface, "wl_surface.commit")
                    client.request(region, "wl_region.destroy")
                }
                if index % 4000 == 0 { client.pump() }
            }
            guard client.roundtrip(limit: 100_000) else {
                check(client, 0, "the region flood"); fail("the region flood: no answer")
            }
            check(client, 0, "the region flood")
            regionTimes.append(Double(now() - start) / Double(size))

            let (_, buffer) = client.makeBuffer(shm: core.shm, width: 400, height: 400)
            let window = client.toplevel(core, buffer: buffer).surface
            client.roundtrip()
            start = now()
            for index in 0..<size {
                client.request(
                    window, "wl_surface.damage", .int(Int32(index % 200) * 2), .int(Int32(index / 200 % 200) * 2),
                    .int(1), .int(1))
                if index % 4000 == 0 { client.pump() }
            }
            client.request(window, "wl_surface.commit")
            guard client.roundtrip(limit: 100_000) else {
                check(client, 0, "the damage flood"); fail("the damage flood: no answer")
            }
            check(client, 0, "the damage flood")
            server.repaint()
            damageTimes.append(Double(now() - start) / Double(size))
            held = nil
            server.step()  // (the server outlives the client)
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
