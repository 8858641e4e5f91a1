import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Arithmetic that cannot trap: extreme numbers in every request that carries one, at screen
/// scales 1, 2 and 1.5, with windows away from the origin and three levels of subsurfaces. The
/// compositor lives, the client gets the spec's error or a clamped result, a bystander keeps
/// drawing (`docs/reliability.md`, "Arithmetic on client numbers").
@Suite struct ExtremeValueTests {
    /// Seeded random programs (`ExtremeValueProgram`), each replayable from its seed.
    @Test(arguments: [1.0, 2.0, 1.5])
    func randomExtremeNumbersInEveryRequestLeaveTheCompositorAndABystanderWorking(screenScale: Double) throws {
        var completed = 0, requests = 0, cursors = 0, copies = 0
        let seeds: [UInt64] = (0..<16).map { UInt64($0) &* 0x9E37_79B9 &+ UInt64(screenScale * 1000) }
        for seed in seeds {
            let harness = try HostileHarness(screens: 2)
            for screen in harness.server.windows.screens { harness.server.windows.setScale(screenScale, for: screen) }
            _ = harness.window.ackAndRedraw(argb: Colour.green)
            harness.server.repaint()
            do {
                let client = try harness.raw()
                let program = ExtremeValueProgram(
                    seed: seed, server: harness.server, client: client,
                    bystander: harness.server.windows.windows.first)
                program.moveWindow()
                program.makePopup()
                program.makeLayerSurface()
                for round in 0..<6 {
                    for _ in 0..<12 { program.step() }
                    #expect(
                        client.roundtrip(),
                        "seed \(seed), round \(round): the client lives (\(String(describing: client.error)))")
                    program.inputAndRepaint()
                    expectClamped(harness.server, "seed \(seed), round \(round)")
                    #expect(
                        harness.bystander.client.roundtrip(), "seed \(seed), round \(round): the bystander is served")
                }
                let illegal = program.random.chance(0.5)
                if illegal { program.endWithAnIllegalNumber() }
                if let expected = program.expectedError {
                    client.expectError(code: expected.code, object: expected.object)
                } else {
                    #expect(client.roundtrip(), "seed \(seed): the client lives")
                    #expect(client.error == nil, "seed \(seed): \(String(describing: client.error))")
                    completed += 1
                }
                requests += program.requests
                cursors += program.cursorsSet
                copies += program.regionsCopied
            }
            harness.expectUnharmed(Comment(rawValue: "seed \(seed) at scale \(screenScale)"))
        }
        #expect(
            completed > 0 && requests > seeds.count * 80 && cursors > 0 && copies > 0,
            "the programs ran: \(completed) legal endings, \(requests) requests, \(cursors) cursors, \(copies) screen regions copied"
        )
    }

    /// What the compositor holds is the clamped result: every surface shown within
    /// ±`Coordinate.limit` with sides 0 … limit, every window frame likewise.
    private func expectClamped(_ server: TestServer, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let limit = Int(Coordinate.limit)
        for output in server.compositor.scene.outputs {
            server.compositor.scene.forEachVisibleSurface(on: output) { surface, x, y in
                #expect(
                    abs(Int(x)) <= limit && abs(Int(y)) <= limit, "\(what): placed at \(x), \(y)",
                    sourceLocation: sourceLocation)
                #expect(
                    (0...limit).contains(Int(surface.width)) && (0...limit).contains(Int(surface.height)),
                    "\(what): \(surface.width)x\(surface.height)", sourceLocation: sourceLocation)
            }
        }
        for window in server.windows.windows {
            #expect(
                Coordinate.clamped(window.frame) == window.frame, "\(what): frame \(window.frame)",
                sourceLocation: sourceLocation)
        }
    }

    /// The crashes issue 17 found, each replayed exactly: the scene is drawn and hit-tested, the
    /// client lives, and what the compositor holds is the clamped result.
    enum KnownCrash: String, CaseIterable {
        case subsurfaceNearInt32MaxUnderAWindowAwayFromTheOrigin
        case subsurfacesNearInt32MaxTwoLevelsDeep
        case bufferOf32768PixelsWideWithEveryTransform
        case damageBufferAtTheInt32EdgesWithATransformAndBufferScale
        case viewportDestinationNearInt32MaxAndSourcePast32768
        case farSubsurfaceOnAScreenScaledBy1_5
        case farSubsurfaceOnAScreenScaledBy2
    }

    @Test(arguments: KnownCrash.allCases)
    func numbersThatOnceTrappedAreClamped(_ crash: KnownCrash) throws {
        let harness = try HostileHarness()
        let server = harness.server
        let limit = Coordinate.limit
        if crash == .farSubsurfaceOnAScreenScaledBy1_5 || crash == .farSubsurfaceOnAScreenScaledBy2 {
            server.windows.setScale(crash == .farSubsurfaceOnAScreenScaledBy2 ? 2 : 1.5, for: server.windows.screens[0])
            _ = harness.window.ackAndRedraw(argb: Colour.green)
        }
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            // An explicit window geometry: the window's origin stays its surface's (an implicit
            // one would grow to hold the far subsurfaces).
            client.request(window.xdgSurface, "xdg_surface.set_window_geometry", .int(0), .int(0), .int(40), .int(40))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            if let model = server.windows.windows.last {
                server.compositor.windows.setFrame(
                    model, Rect(x: 300, y: 200, width: model.frame.width, height: model.frame.height))
            }
            /// A subsurface of `parent` at (x, y) showing a `width`×`height` buffer.
            func child(of parent: UInt32, x: Int32, y: Int32, width: Int32 = 8, height: Int32 = 8) -> (
                surface: UInt32, subsurface: UInt32
            ) {
                let surface = client.createSurface(core.compositor)
                let subsurface = client.newID()
                client.request(
                    core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(surface),
                    .object(parent))
                client.request(subsurface, "wl_subsurface.set_position", .int(x), .int(y))
                let (_, buffer) = client.makeBuffer(shm: core.shm, width: width, height: height)
                client.request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                client.request(surface, "wl_surface.commit")
                return (surface, subsurface)
            }
            var expected: [(x: Int32, y: Int32, width: Int32, height: Int32)] = []
            switch crash {
            case .subsurfaceNearInt32MaxUnderAWindowAwayFromTheOrigin, .farSubsurfaceOnAScreenScaledBy1_5,
                .farSubsurfaceOnAScreenScaledBy2:
                _ = child(of: window.surface, x: Int32.max, y: Int32.max - 100)
                client.request(window.surface, "wl_surface.commit")
                expected = [(300, 200, 40, 40), (limit, limit, 8, 8)]
            case .subsurfacesNearInt32MaxTwoLevelsDeep:
                let first = child(of: window.surface, x: Int32.max - 1, y: Int32.min + 1)
                _ = child(of: first.surface, x: Int32.max, y: Int32.min)
                client.request(first.surface, "wl_surface.commit")
                client.request(window.surface, "wl_surface.commit")
                expected = [(300, 200, 40, 40), (limit, -limit, 8, 8), (limit, -limit, 8, 8)]
            case .bufferOf32768PixelsWideWithEveryTransform:
                let wide = child(of: window.surface, x: 10, y: 10, width: 32768, height: 2)
                client.request(window.surface, "wl_surface.commit")
                for transform: Int32 in [1, 2, 3, 4, 5, 6, 7, 0] {
                    client.request(wide.surface, "wl_surface.set_buffer_transform", .int(transform))
                    client.request(wide.surface, "wl_surface.damage_buffer", .int(0), .int(0), .int(32768), .int(2))
                    client.request(wide.surface, "wl_surface.commit")
                    client.request(window.surface, "wl_surface.commit")
                    #expect(client.roundtrip())
                    server.repaint()
                }
                expected = [(300, 200, 40, 40), (310, 210, 32768, 2)]
            case .damageBufferAtTheInt32EdgesWithATransformAndBufferScale:
                let (_, buffer) = client.makeBuffer(shm: core.shm, width: 40, height: 40)
                for (transform, scale): (Int32, Int32) in [(1, 2), (7, 4), (2, 1), (5, 8)] {
                    client.request(window.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                    client.request(window.surface, "wl_surface.set_buffer_transform", .int(transform))
                    client.request(window.surface, "wl_surface.set_buffer_scale", .int(scale))
                    client.request(window.surface, "wl_surface.commit")
                    // Buffer damage maps through the transform only when nothing else changed (a
                    // new transform damages the whole surface): a commit of damage alone.
                    client.request(
                        window.surface, "wl_surface.damage_buffer", .int(Int32.min), .int(Int32.min), .int(Int32.max),
                        .int(Int32.max))
                    client.request(
                        window.surface, "wl_surface.damage_buffer", .int(Int32.max - 1), .int(Int32.max - 1), .int(1),
                        .int(1))
                    client.request(
                        window.surface, "wl_surface.damage_buffer", .int(Int32.max), .int(Int32.max), .int(Int32.max),
                        .int(Int32.max))
                    client.request(
                        window.surface, "wl_surface.damage_buffer", .int(-1), .int(Int32.min), .int(Int32.max), .int(1))
                    client.request(window.surface, "wl_surface.commit")
                    #expect(client.roundtrip())
                    server.repaint()
                }
                expected = [(300, 200, 5, 5)]
            case .viewportDestinationNearInt32MaxAndSourcePast32768:
                let long = child(of: window.surface, x: 4, y: 4, width: 65535, height: 1)
                client.request(window.surface, "wl_surface.commit")
                let viewporter = client.bind("wp_viewporter")!
                let viewport = client.newID()
                client.request(viewporter, "wp_viewporter.get_viewport", .newID(viewport), .object(long.surface))
                client.request(
                    viewport, "wp_viewport.set_source", .fixedRaw(40000 * 256), .fixedRaw(0), .fixedRaw(25535 * 256),
                    .fixedRaw(128))
                client.request(viewport, "wp_viewport.set_destination", .int(Int32.max), .int(Int32.max - 1))
                client.request(long.surface, "wl_surface.commit")
                client.request(window.surface, "wl_surface.commit")
                #expect(client.roundtrip())
                server.repaint()
                client.request(viewport, "wp_viewport.set_destination", .int(3), .int(1))
                client.request(long.surface, "wl_surface.commit")
                client.request(window.surface, "wl_surface.commit")
                #expect(client.roundtrip())
                server.repaint()
                client.request(viewport, "wp_viewport.set_destination", .int(Int32.max), .int(Int32.max))
                client.request(long.surface, "wl_surface.commit")
                client.request(window.surface, "wl_surface.commit")
                expected = [(300, 200, 40, 40), (304, 204, limit, limit)]
            }
            #expect(client.roundtrip())
            #expect(client.error == nil, "\(String(describing: client.error))")
            // Drawn, hit-tested and drawn again after a pointer walk over the scene.
            server.repaint()
            let output = server.compositor.scene.outputs[0]
            for (x, y) in [(305.0, 205.0), (639.0, 479.0), (320.0, 220.0), (1e9, 1e9), (-1e9, 0)] {
                server.compositor.seat.pointerMotion(on: output, x: x, y: y, time: 1)
            }
            server.repaint()
            var placed: [(x: Int32, y: Int32, width: Int32, height: Int32)] = []
            let bystander = server.windows.windows.first?.rootSurface
            server.compositor.scene.forEachVisibleSurface(on: output) { surface, x, y in
                if surface !== bystander { placed.append((x, y, surface.width, surface.height)) }
            }
            #expect(placed.map(\.x) == expected.map(\.x), "\(placed)")
            #expect(placed.map(\.y) == expected.map(\.y), "\(placed)")
            #expect(placed.map(\.width) == expected.map(\.width), "\(placed)")
            #expect(placed.map(\.height) == expected.map(\.height), "\(placed)")
        }
        harness.expectUnharmed(Comment(rawValue: crash.rawValue))
    }
}
