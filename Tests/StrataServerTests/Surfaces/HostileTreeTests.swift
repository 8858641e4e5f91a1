import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Trees a hostile client builds: subsurface, popup and set_parent chains at their depth limits
/// and one past them, trees at their size limit torn down by disconnect and in pieces, and
/// region and damage floods. The limits are `TreeLimits`' (docs/reliability.md, "Trees and
/// per-request cost"); the numbers are repeated here so a change to them is a visible decision.
@Suite struct HostileTreeTests {
    static let maxSubsurfaceDepth = 32
    static let maxSubsurfacesPerTree = 4096
    static let maxPopupDepth = 16
    static let maxPopupsPerParent = 64
    static let maxTransientDepth = 32
    static let maxRegionBoxes = 4096
    /// wl_subcompositor.bad_parent (wayland 1.22's name for code 1).
    static let badParent: UInt32 = 1

    typealias Core = (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32)

    /// `count` new surfaces, each a subsurface of the one before, the first of `root`.
    private func chain(_ client: RawClient, _ core: Core, under root: UInt32, count: Int) -> [(
        surface: UInt32, subsurface: UInt32
    )] {
        var links: [(UInt32, UInt32)] = []
        var parent = root
        for _ in 0..<count {
            let surface = client.createSurface(core.compositor)
            let subsurface = client.newID()
            client.request(
                core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(surface),
                .object(parent))
            links.append((surface, subsurface))
            parent = surface
        }
        return links
    }

    /// Live wl_subsurface objects of the server (from the leak check's per-class counts).
    private func liveSubsurfaces(_ harness: HostileHarness) -> Int {
        let counts = harness.server.liveCounts.description
        guard let range = counts.range(of: #"Subsurface \d+"#, options: .regularExpression) else { return 0 }
        return Int(counts[range].dropFirst("Subsurface ".count)) ?? -1
    }

    /// A buffer of one opaque colour (a pool of its own).
    private func colouredBuffer(_ client: RawClient, _ core: Core, width: Int32, height: Int32, argb: UInt32) -> UInt32
    {
        let fd = strata_client_memfd("strata-tree-test")
        let pixels = [UInt32](repeating: argb, count: Int(width * height))
        _ = pixels.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        let pool = client.newID(), buffer = client.newID()
        client.request(core.shm, "wl_shm.create_pool", .newID(pool), .fd(fd), .int(width * height * 4))
        client.request(
            pool, "wl_shm_pool.create_buffer", .newID(buffer), .int(0), .int(width), .int(height), .int(width * 4),
            .uint(0))
        close(fd)
        return buffer
    }

    private func getSubsurface(_ client: RawClient, _ core: Core, _ surface: UInt32, parent: UInt32) -> UInt32 {
        let subsurface = client.newID()
        client.request(
            core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(surface), .object(parent)
        )
        return subsurface
    }

    // MARK: Subsurface depth

    @Test func aSubsurfaceChainAtTheDepthLimitIsDrawnAndOneLevelMoreIsBadParent() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core)
            let links = chain(client, core, under: window.surface, count: Self.maxSubsurfaceDepth)
            // Every level shows the buffer one pixel further right: the deepest is drawn too.
            let (_, buffer) = client.makeBuffer(shm: core.shm, width: 4, height: 4)
            for link in links.reversed() {
                client.request(link.subsurface, "wl_subsurface.set_position", .int(1), .int(0))
                client.request(link.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                client.request(link.surface, "wl_surface.commit")
            }
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            #expect(client.error == nil)
            harness.server.repaint()
            #expect(liveSubsurfaces(harness) == Self.maxSubsurfaceDepth)
            // One more level below the deepest.
            _ = chain(client, core, under: links[links.count - 1].surface, count: 1)
            client.expectError(code: Self.badParent, object: core.subcompositor)
        }
        harness.expectUnharmed()
    }

    /// A chain built leaf first grows below its root: the depth counts the surface's own subtree.
    @Test func aChainBuiltLeafFirstCountsItsWholeDepthWhenItJoinsAParent() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core)
            // s[0] is the leaf; each s[i] becomes the parent of s[i - 1]: s[0] ends 32 levels
            // below s[32].
            let surfaces = (0...Self.maxSubsurfaceDepth).map { _ in client.createSurface(core.compositor) }
            var subsurfaces: [UInt32] = []
            for index in 0..<Self.maxSubsurfaceDepth {
                subsurfaces.append(getSubsurface(client, core, surfaces[index], parent: surfaces[index + 1]))
            }
            #expect(client.roundtrip())
            #expect(client.error == nil)
            // The leaf leaves and joins again: the chain's height went down and up by one.
            client.request(subsurfaces[0], "wl_subsurface.destroy")
            subsurfaces[0] = getSubsurface(client, core, surfaces[0], parent: surfaces[1])
            #expect(client.roundtrip())
            #expect(client.error == nil)
            // Without its leaf the chain fits under the window ...
            client.request(subsurfaces[0], "wl_subsurface.destroy")
            let top = getSubsurface(client, core, surfaces[Self.maxSubsurfaceDepth], parent: window.surface)
            #expect(client.roundtrip())
            #expect(client.error == nil)
            // ... and the leaf cannot join it again: it would be 33 levels below the window.
            client.request(top, "wl_subsurface.set_position", .int(2), .int(2))
            _ = getSubsurface(client, core, surfaces[0], parent: surfaces[1])
            client.expectError(code: Self.badParent, object: core.subcompositor)
        }
        harness.expectUnharmed()
    }

    /// A chain hundreds of levels deep cannot be built in any order; the cycle check stays short.
    @Test func aDeepChainIsRefusedInEitherBuildOrderAndCyclesStillAre() throws {
        let harness = try HostileHarness()
        for leafFirst in [false, true] {
            let (client, core) = try harness.quietClient()
            let surfaces = (0..<200).map { _ in client.createSurface(core.compositor) }
            for index in 0..<199 {
                if leafFirst {
                    _ = getSubsurface(client, core, surfaces[index], parent: surfaces[index + 1])
                } else {
                    _ = getSubsurface(client, core, surfaces[index + 1], parent: surfaces[index])
                }
                if client.isDisconnected { break }
            }
            client.expectError(code: Self.badParent, object: core.subcompositor)
            // The request refused was the 33rd level's.
            #expect(client.error?.message.contains("33 levels") == true, "\(String(describing: client.error))")
        }
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let links = chain(client, core, under: client.createSurface(core.compositor), count: 10)
            _ = getSubsurface(client, core, links[0].surface, parent: links[9].surface)
            client.expectError(code: WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE.rawValue, object: core.subcompositor)
        }
        harness.expectUnharmed()
    }

    // MARK: Subsurface tree size

    /// A root with as many children as a tree may hold, all drawn, torn down by disconnect: the
    /// bystander is served and drawn, nothing is left. One more child is bad_parent.
    @Test func aTreeAtTheSizeLimitIsDrawnAndTornDownByDisconnectAndOneMoreIsBadParent() throws {
        let harness = try HostileHarness()
        for disconnectAtLimit in [true, false] {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core, width: 128, height: 128)
            let (_, buffer) = client.makeBuffer(shm: core.shm, width: 2, height: 2)
            for index in 0..<Self.maxSubsurfacesPerTree {
                let surface = client.createSurface(core.compositor)
                let subsurface = getSubsurface(client, core, surface, parent: window.surface)
                client.request(
                    subsurface, "wl_subsurface.set_position", .int(Int32(index % 64) * 2), .int(Int32(index / 64) * 2))
                client.request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                client.request(surface, "wl_surface.commit")
                if index % 500 == 0 { client.pump() }
            }
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
            harness.server.repaint()
            #expect(liveSubsurfaces(harness) == Self.maxSubsurfacesPerTree)
            if disconnectAtLimit { continue }  // the client goes with its tree
            _ = getSubsurface(client, core, client.createSurface(core.compositor), parent: window.surface)
            client.expectError(code: Self.badParent, object: core.subcompositor)
            #expect(client.error?.message.contains("4097 subsurfaces") == true, "\(String(describing: client.error))")
        }
        harness.expectUnharmed()
    }

    /// Children destroyed one by one in both orders while the parent lives, some leaving and
    /// joining again: the order that is left is drawn right, and everything is freed.
    @Test func childrenLeavingInAnyOrderKeepTheRestStackedAndFreeEverything() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core, width: 40, height: 40)
            let red = colouredBuffer(client, core, width: 10, height: 10, argb: 0xffff_0000)
            let blue = colouredBuffer(client, core, width: 10, height: 10, argb: 0xff00_00ff)
            var children: [(surface: UInt32, subsurface: UInt32)] = []
            for _ in 0..<3000 {
                let surface = client.createSurface(core.compositor)
                children.append((surface, getSubsurface(client, core, surface, parent: window.surface)))
            }
            // Leaf first (newest first) for the upper half, oldest first for the lower half.
            for child in children[1500...].reversed() {
                client.request(child.subsurface, "wl_subsurface.destroy")
                client.request(child.surface, "wl_surface.destroy")
            }
            for child in children[2..<1500] {
                client.request(child.surface, "wl_surface.destroy")
                client.request(child.subsurface, "wl_subsurface.destroy")
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(liveSubsurfaces(harness) == 2)
            // Two children left, the same place; the first leaves and joins again: it is on top.
            let (a, b) = (children[0], children[1])
            client.request(a.surface, "wl_surface.attach", .object(red), .int(0), .int(0))
            client.request(a.surface, "wl_surface.commit")
            client.request(b.surface, "wl_surface.attach", .object(blue), .int(0), .int(0))
            client.request(b.surface, "wl_surface.commit")
            client.request(a.subsurface, "wl_subsurface.destroy")
            let again = getSubsurface(client, core, a.surface, parent: window.surface)
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            #expect(client.error == nil)
            harness.server.repaint()
            guard let frame = harness.server.windows.windows.last?.frame else {
                Issue.record("the client's window is not shown")
                return
            }
            #expect(
                harness.server.pixel(x: Int32(frame.x) + 5, y: Int32(frame.y) + 5) == 0xffff_0000,
                "the child that joined again is on top")
            // Placed below its sibling: the sibling shows there.
            client.request(again, "wl_subsurface.place_below", .object(b.surface))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            harness.server.repaint()
            #expect(harness.server.pixel(x: Int32(frame.x) + 5, y: Int32(frame.y) + 5) == 0xff00_00ff)
            // And above the parent only: still below the sibling.
            client.request(again, "wl_subsurface.place_above", .object(window.surface))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            harness.server.repaint()
            #expect(harness.server.pixel(x: Int32(frame.x) + 5, y: Int32(frame.y) + 5) == 0xff00_00ff)
            #expect(liveSubsurfaces(harness) == 2)
        }
        harness.expectUnharmed()
    }

    // MARK: Popups

    private func positioner(_ client: RawClient, _ core: Core) -> UInt32 {
        let positioner = client.newID()
        client.request(core.wmBase, "xdg_wm_base.create_positioner", .newID(positioner))
        client.request(positioner, "xdg_positioner.set_size", .int(10), .int(10))
        client.request(positioner, "xdg_positioner.set_anchor_rect", .int(0), .int(0), .int(1), .int(1))
        return positioner
    }

    /// A popup of `parent` (an xdg_surface): its xdg_surface id.
    private func popup(_ client: RawClient, _ core: Core, parent: UInt32, positioner: UInt32) -> UInt32 {
        let surface = client.createSurface(core.compositor)
        let xdgSurface = client.newID(), popup = client.newID()
        client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
        client.request(xdgSurface, "xdg_surface.get_popup", .newID(popup), .object(parent), .object(positioner))
        return xdgSurface
    }

    @Test func aPopupChainAtTheDepthLimitIsServedAndOneMoreIsInvalidPopupParent() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core)
            let rules = positioner(client, core)
            var parent = window.xdgSurface
            for _ in 0..<Self.maxPopupDepth {
                parent = popup(client, core, parent: parent, positioner: rules)
            }
            #expect(client.roundtrip())
            #expect(client.error == nil)
            _ = popup(client, core, parent: parent, positioner: rules)
            client.expectError(code: XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, object: core.wmBase)
            #expect(client.error?.message.contains("17 popups deep") == true, "\(String(describing: client.error))")
        }
        harness.expectUnharmed()
    }

    @Test func aParentWithTheMostPopupsItMayHaveRefusesOneMore() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core)
            let rules = positioner(client, core)
            for _ in 0..<Self.maxPopupsPerParent {
                _ = popup(client, core, parent: window.xdgSurface, positioner: rules)
            }
            #expect(client.roundtrip())
            #expect(client.error == nil)
            _ = popup(client, core, parent: window.xdgSurface, positioner: rules)
            client.expectError(code: XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, object: core.wmBase)
        }
        harness.expectUnharmed()
    }

    // MARK: set_parent

    /// `count` unmapped toplevels: their xdg_toplevel ids.
    private func toplevels(_ client: RawClient, _ core: Core, count: Int) -> [UInt32] {
        (0..<count).map { _ in
            let surface = client.createSurface(core.compositor)
            let xdgSurface = client.newID(), toplevel = client.newID()
            client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
            client.request(xdgSurface, "xdg_surface.get_toplevel", .newID(toplevel))
            return toplevel
        }
    }

    @Test func aSetParentChainAtTheDepthLimitIsServedAndOneMoreIsInvalidParent() throws {
        let harness = try HostileHarness()
        for leafFirst in [false, true] {
            let (client, core) = try harness.quietClient()
            let t = toplevels(client, core, count: Self.maxTransientDepth + 2)
            // 32 links: t[0] ... t[32] top down, or each t[i] made the parent of t[i - 1] with
            // t[i] still a root.
            for index in 1...Self.maxTransientDepth {
                if leafFirst {
                    client.request(t[index - 1], "xdg_toplevel.set_parent", .object(t[index]))
                } else {
                    client.request(t[index], "xdg_toplevel.set_parent", .object(t[index - 1]))
                }
            }
            #expect(client.roundtrip())
            #expect(client.error == nil)
            if leafFirst {
                // The leaf leaves: the chain may grow by one above its top, and no more.
                client.request(t[0], "xdg_toplevel.set_parent", .object(0))
                client.request(
                    t[Self.maxTransientDepth], "xdg_toplevel.set_parent", .object(t[Self.maxTransientDepth + 1]))
                #expect(client.roundtrip())
                #expect(client.error == nil)
                client.request(t[0], "xdg_toplevel.set_parent", .object(t[1]))
                client.expectError(code: XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue, object: t[0])
            } else {
                client.request(
                    t[Self.maxTransientDepth + 1], "xdg_toplevel.set_parent", .object(t[Self.maxTransientDepth]))
                client.expectError(
                    code: XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue, object: t[Self.maxTransientDepth + 1])
            }
            #expect(client.error?.message.contains("33 parents") == true, "\(String(describing: client.error))")
        }
        harness.expectUnharmed()
    }

    /// Many transient children of one parent, reparented back and forth and destroyed: served,
    /// freed, and the cycle check still refuses a cycle.
    @Test func manyTransientChildrenComeAndGoAndACycleIsStillRefused() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let t = toplevels(client, core, count: 1002)
            for child in t[2...] { client.request(child, "xdg_toplevel.set_parent", .object(t[0])) }
            for child in t[2...] { client.request(child, "xdg_toplevel.set_parent", .object(t[1])) }
            for child in t[2..<500] { client.request(child, "xdg_toplevel.set_parent", .object(t[0])) }
            for child in t[2...].reversed() { client.request(child, "xdg_toplevel.destroy") }
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
            client.request(t[0], "xdg_toplevel.set_parent", .object(t[1]))
            client.request(t[1], "xdg_toplevel.set_parent", .object(t[0]))
            client.expectError(code: XDG_TOPLEVEL_ERROR_INVALID_PARENT.rawValue, object: t[1])
        }
        harness.expectUnharmed()
    }

    // MARK: Regions and damage

    /// A checkerboard of 1×1 boxes: up to the limit the region is built and used; one box more
    /// is wl_display.no_memory.
    @Test func aRegionOfMoreBoxesThanTheLimitIsNoMemory() throws {
        let harness = try HostileHarness()
        for boxes in [Self.maxRegionBoxes, Self.maxRegionBoxes + 1] {
            let (client, core) = try harness.quietClient()
            let surface = client.createSurface(core.compositor)
            let region = client.newID()
            client.request(core.compositor, "wl_compositor.create_region", .newID(region))
            for index in 0..<boxes {
                client.request(
                    region, "wl_region.add", .int(Int32(index % 64) * 2), .int(Int32(index / 64) * 2), .int(1), .int(1))
                if index % 1000 == 0 { client.pump() }
            }
            client.request(surface, "wl_surface.set_input_region", .object(region))
            client.request(surface, "wl_surface.set_opaque_region", .object(region))
            client.request(surface, "wl_surface.commit")
            if boxes <= Self.maxRegionBoxes {
                #expect(client.roundtrip(limit: 1000))
                #expect(client.error == nil)
            } else {
                client.expectError(code: WL_DISPLAY_ERROR_NO_MEMORY.rawValue, object: 1)
            }
        }
        harness.expectUnharmed()
    }

    /// Adds and subtracts in batches give the region built one rectangle at a time: the input
    /// region takes the pointer exactly where it says.
    @Test func aRegionOfInterleavedAddsAndSubtractsTakesInputExactlyWhereItSays() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core, width: 100, height: 100)
            let region = client.newID()
            client.request(core.compositor, "wl_compositor.create_region", .newID(region))
            // 100 one-pixel columns at even x (more than one batch), then a hole, then a box in it.
            for x in stride(from: 0, to: 100, by: 2) {
                client.request(region, "wl_region.add", .int(Int32(x)), .int(0), .int(1), .int(100))
            }
            client.request(region, "wl_region.add", .int(0), .int(50), .int(100), .int(10))
            client.request(region, "wl_region.subtract", .int(20), .int(20), .int(20), .int(20))
            client.request(region, "wl_region.add", .int(31), .int(31), .int(2), .int(2))
            client.request(window.surface, "wl_surface.set_input_region", .object(region))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            #expect(client.error == nil)
            guard let rawWindow = harness.server.windows.windows.last,
                let output = harness.server.compositor.scene.outputs.first
            else {
                Issue.record("the client's window is not shown")
                return
            }
            func takes(_ x: Int, _ y: Int) -> Bool {
                let hit = harness.server.compositor.scene.surface(
                    at: Double(rawWindow.frame.x + x) + 0.5, Double(rawWindow.frame.y + y) + 0.5, on: output)
                return hit?.window === rawWindow
            }
            #expect(takes(10, 10))  // an even column
            #expect(!takes(11, 10))  // an odd one
            #expect(takes(11, 55))  // the band
            #expect(!takes(22, 22))  // the hole
            #expect(takes(31, 32))  // the box in the hole
            #expect(takes(32, 31))
            #expect(!takes(34, 34))
        }
        harness.expectUnharmed()
    }

    /// Thousands of damage rectangles become their extents past the limit: every damaged pixel
    /// is redrawn (and some more), nothing is missed.
    @Test func aDamageFloodRedrawsEverythingItNames() throws {
        let harness = try HostileHarness()
        do {
            let (client, core) = try harness.quietClient()
            let window = client.makeToplevel(core, width: 100, height: 100)
            // Red, then blue damaged by 5,000 one-pixel boxes on a grid (wl_surface.damage), then
            // red again damaged the same way with damage_buffer.
            for (request, argb) in [
                ("wl_surface.damage", UInt32(0xff00_00ff)), ("wl_surface.damage_buffer", 0xffff_0000),
            ] {
                if request == "wl_surface.damage" {
                    let red = colouredBuffer(client, core, width: 100, height: 100, argb: 0xffff_0000)
                    client.request(window.surface, "wl_surface.attach", .object(red), .int(0), .int(0))
                    client.request(window.surface, "wl_surface.damage", .int(0), .int(0), .int(100), .int(100))
                    client.request(window.surface, "wl_surface.commit")
                    #expect(client.roundtrip())
                    harness.server.repaint()
                }
                let buffer = colouredBuffer(client, core, width: 100, height: 100, argb: argb)
                client.request(window.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                for index in 0..<5000 {
                    client.request(
                        window.surface, request, .int(Int32(index % 50) * 2), .int(Int32(index / 50)), .int(1), .int(1))
                    if index % 1000 == 0 { client.pump() }
                }
                client.request(window.surface, "wl_surface.commit")
                #expect(client.roundtrip(limit: 1000))
                #expect(client.error == nil)
                harness.server.repaint()
                guard let frame = harness.server.windows.windows.last?.frame else {
                    Issue.record("the client's window is not shown")
                    return
                }
                // The first and last damaged pixels show the new buffer.
                #expect(harness.server.pixel(x: Int32(frame.x) + 0, y: Int32(frame.y) + 0) == argb, "\(request)")
                #expect(harness.server.pixel(x: Int32(frame.x) + 98, y: Int32(frame.y) + 99) == argb, "\(request)")
            }
        }
        harness.expectUnharmed()
    }
}
