import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// Load and misbehaviour over time: clients that never read, floods, connection churn, buffers
/// and surfaces dying while in use, screens leaving under committing clients.
@Suite struct HostileLoadTests {
    /// A client that spams requests whose answers fill its socket, and never reads: libwayland
    /// cannot queue more events for it and drops it. No step of the loop blocks meanwhile.
    @Test(arguments: ["wl_display.sync", "wl_surface.frame"])
    func aClientThatNeverReadsIsDroppedWithoutBlockingTheLoop(_ spam: String) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw(receiveBuffer: 4096)
            client.keepsEvents = false
            client.readsWhenBlocked = false
            let core = client.bindCore()
            // A mapped window, so that its frame callbacks are done (and their events queued).
            let surface = client.makeToplevel(core).surface
            client.pump()
            var sent = 0
            for _ in 0..<2000 where !client.isDisconnected {
                for _ in 0..<50 {
                    let id = client.newID()
                    let ok =
                        spam == "wl_display.sync"
                        ? client.send(WireMessage(object: 1, opcode: 0, [.newID(id)]))
                        : client.request(surface, "wl_surface.frame", .newID(id))
                            && client.request(surface, "wl_surface.commit")
                    if ok { sent += 1 } else { break }
                }
                // A loop that blocked on the full socket would never return here: returning is
                // the check (no clock: timing asserts do not belong in tests).
                harness.server.step(timeout: spam == "wl_surface.frame" ? 0.002 : 0)
                // Never read: only look whether the server hung up.
                var pfd = pollfd(fd: client.fd, events: 0, revents: 0)
                if poll(&pfd, 1, 0) > 0, pfd.revents & Int16(POLLHUP) != 0 { break }
                if harness.server.liveCounts == harness.baseline { break }
            }
            // The server has let go of the client (its resources are gone) while it still sends.
            #expect(harness.server.liveCounts == harness.baseline, "sent \(sent) requests")
            #expect(sent > 100)
        }
        harness.expectUnharmed()
    }

    /// Many objects, many requests: all of it is freed when the client goes.
    @Test func requestFloodsAreHandledAndFreed() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.keepsEvents = false
            let core = client.bindCore()
            var surfaces: [UInt32] = []
            for index in 0..<3000 {
                let surface = client.createSurface(core.compositor)
                surfaces.append(surface)
                let region = client.newID()
                client.request(core.compositor, "wl_compositor.create_region", .newID(region))
                client.request(region, "wl_region.add", .int(Int32(index)), .int(0), .int(3), .int(3))
                client.request(surface, "wl_surface.set_input_region", .object(region))
                client.request(surface, "wl_surface.frame", .newID(client.newID()))
                client.request(surface, "wl_surface.commit")
                if index % 200 == 0 { client.pump() }
            }
            // Damage as many distinct rectangles as a surface could be sent.
            let window = client.makeToplevel(core)
            for index in 0..<20_000 {
                client.request(
                    window.surface, "wl_surface.damage", .int(Int32(index % 200) * 3), .int(Int32(index / 200) * 3),
                    .int(1), .int(1))
                if index % 1000 == 0 { client.pump() }
            }
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip(limit: 1000), "\(String(describing: client.error)) \(client.isDisconnected)")
            #expect(harness.server.liveCounts.resources > harness.baseline.resources + 6000)
            harness.server.repaint()
        }
        harness.expectUnharmed()
    }

    @Test func aThousandConnectionsComeAndGoWithoutLeaking() throws {
        let harness = try HostileHarness()
        for cycle in 0..<1000 {
            let client = try harness.raw()
            if cycle % 2 == 0 {
                let core = client.bindCore()
                _ = client.makeToplevel(core, width: 8, height: 8)
            }
            // Half leave politely after a roundtrip, half mid-stream.
            if cycle % 3 == 0 {
                client.roundtrip()
            } else {
                client.request(1, "wl_display.sync", .newID(client.newID()))
            }
            // The bystander reads now and then (its windows are deactivated and activated each
            // cycle; a bystander that never read would itself be dropped when its socket filled).
            if cycle % 50 == 0 { #expect(harness.bystander.client.roundtrip()) }
        }
        harness.server.step()
        // (File descriptors are not counted here: other tests open and close theirs in parallel.)
        harness.expectUnharmed()
    }

    /// Buffers destroyed while attached, committed or pending; pools destroyed before their buffers.
    @Test func buffersDestroyedWhileInUseAreHarmless() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            // Committed, then destroyed: the picture stays (it was copied), redraws work.
            client.request(window.buffer, "wl_buffer.destroy")
            client.request(window.surface, "wl_surface.damage", .int(0), .int(0), .int(40), .int(40))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            // The pool dies first; its buffer still works.
            let (pool2, buffer2) = client.makeBuffer(shm: core.shm, width: 40, height: 40)
            client.request(pool2, "wl_shm_pool.destroy")
            client.request(window.surface, "wl_surface.attach", .object(buffer2), .int(0), .int(0))
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            #expect(client.error == nil)
            // A subsurface's cached buffer dies before the parent's commit applies it.
            let child = client.createSurface(core.compositor)
            let subsurface = client.newID()
            client.request(
                core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(child),
                .object(window.surface))
            let (_, buffer3) = client.makeBuffer(shm: core.shm, width: 10, height: 10)
            client.request(child, "wl_surface.attach", .object(buffer3), .int(0), .int(0))
            client.request(child, "wl_surface.commit")
            client.request(buffer3, "wl_buffer.destroy")
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            // Attached but not committed, then destroyed.
            let (pool4, buffer4) = client.makeBuffer(shm: core.shm, width: 40, height: 40)
            client.request(window.surface, "wl_surface.attach", .object(buffer4), .int(0), .int(0))
            client.request(pool4, "wl_shm_pool.destroy")
            client.request(buffer4, "wl_buffer.destroy")
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            // That commit had no buffer: the window is unmapped (as after a null attach), not an error.
            #expect(client.error == nil)
            harness.server.repaint()
            #expect(client.error == nil)
            // Attaching a buffer that is already gone: libwayland finds no such object for the
            // argument and calls the arguments invalid.
            client.request(window.surface, "wl_surface.attach", .object(buffer3), .int(0), .int(0))
            client.expectError(code: WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, object: 1)
        }
        harness.expectUnharmed()
    }

    /// A pool grown past its file and a buffer in the part that does not exist: reading it
    /// faults (SIGBUS), which libwayland turns into an error for that client only.
    @Test func aPoolGrownPastItsFileIsAnErrorNotACrash() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            let (pool, _) = client.makeBuffer(shm: core.shm, width: 4, height: 4, poolSize: 64, fileSize: 64)
            client.request(pool, "wl_shm_pool.resize", .int(1 << 20))
            let buffer = client.newID()
            client.request(
                pool, "wl_shm_pool.create_buffer", .newID(buffer), .int(1 << 19), .int(64), .int(64), .int(256),
                .uint(0))
            client.request(window.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
            client.request(window.surface, "wl_surface.damage", .int(0), .int(0), .int(64), .int(64))
            client.request(window.surface, "wl_surface.commit")
            client.expectError(code: WL_SHM_ERROR_INVALID_FD.rawValue, object: buffer)
        }
        harness.expectUnharmed()
    }

    /// A surface tree (parent, child, grandchild and their two wl_subsurfaces) destroyed in every
    /// one of the 120 orders, with requests on what is left after each step.
    @Test func subsurfaceTreesDestroyedInEveryOrderLeaveNothingBehind() throws {
        let harness = try HostileHarness()
        enum Part: CaseIterable { case parent, child, grandchild, childSubsurface, grandchildSubsurface }
        func permutations(_ parts: [Part]) -> [[Part]] {
            guard parts.count > 1 else { return [parts] }
            return parts.indices.flatMap { index -> [[Part]] in
                var rest = parts
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            #expect(client.roundtrip())
            let connected = harness.server.liveCounts
            for order in permutations(Part.allCases) {
                client.clearEvents()
                let window = client.makeToplevel(core, width: 20, height: 20)
                let child = client.createSurface(core.compositor), grandchild = client.createSurface(core.compositor)
                let childSub = client.newID(), grandSub = client.newID()
                client.request(
                    core.subcompositor, "wl_subcompositor.get_subsurface", .newID(childSub), .object(child),
                    .object(window.surface))
                client.request(
                    core.subcompositor, "wl_subcompositor.get_subsurface", .newID(grandSub), .object(grandchild),
                    .object(child))
                for surface in [grandchild, child] {
                    let (pool, buffer) = client.makeBuffer(shm: core.shm, width: 10, height: 10)
                    client.request(surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                    client.request(surface, "wl_surface.commit")
                    client.request(buffer, "wl_buffer.destroy")
                    client.request(pool, "wl_shm_pool.destroy")
                }
                // makeToplevel's buffer and its pool (made just before it).
                client.request(window.buffer, "wl_buffer.destroy")
                client.request(window.buffer - 1, "wl_shm_pool.destroy")
                client.request(window.surface, "wl_surface.commit")
                var gone: Set<Part> = []
                for part in order {
                    switch part {
                    case .parent:
                        client.request(window.toplevel, "xdg_toplevel.destroy")
                        client.request(window.xdgSurface, "xdg_surface.destroy")
                        client.request(window.surface, "wl_surface.destroy")
                    case .child: client.request(child, "wl_surface.destroy")
                    case .grandchild: client.request(grandchild, "wl_surface.destroy")
                    case .childSubsurface: client.request(childSub, "wl_subsurface.destroy")
                    case .grandchildSubsurface: client.request(grandSub, "wl_subsurface.destroy")
                    }
                    gone.insert(part)
                    // Requests on the survivors.
                    if !gone.contains(.childSubsurface) {
                        client.request(childSub, "wl_subsurface.set_position", .int(3), .int(3))
                        client.request(childSub, "wl_subsurface.set_desync")
                    }
                    if !gone.contains(.grandchildSubsurface), !gone.contains(.child) {
                        client.request(grandSub, "wl_subsurface.place_above", .object(child))
                    }
                    for (part, surface) in [(Part.child, child), (.grandchild, grandchild), (.parent, window.surface)]
                    where !gone.contains(part) {
                        client.request(surface, "wl_surface.commit")
                    }
                    harness.server.repaint()
                    #expect(client.roundtrip(), "order \(order) after \(part): \(String(describing: client.error))")
                }
                #expect(harness.server.liveCounts == connected, "order \(order)")
                #expect(harness.server.windows.windows.count == 1, "order \(order)")
            }
        }
        harness.expectUnharmed()
    }

    /// Screens disconnected while a client commits to a window on them, binds their wl_output,
    /// asks for fullscreen on them and reads their xdg_output.
    @Test func screensRemovedWhileClientsCommitToThem() throws {
        let harness = try HostileHarness(screens: 3)
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            let outputs = client.globals.filter { $0.interface == "wl_output" }
            #expect(outputs.count == 3)
            let outputManager = client.bind("zxdg_output_manager_v1")!
            var outputIDs: [UInt32] = []
            for global in outputs {
                let id = client.newID()
                client.request(
                    client.registryID!, "wl_registry.bind", .uint(global.name), .string("wl_output"),
                    .uint(global.version), .newID(id))
                outputIDs.append(id)
            }
            #expect(client.roundtrip())
            let model = harness.server.windows
            let clientWindow = try #require(model.windows.first { $0.frame.width == 40 })
            let lastScreen = try #require(model.screens.last)
            #expect(model.move(clientWindow, to: lastScreen))
            for step in 0..<12 {
                let (_, buffer) = client.makeBuffer(shm: core.shm, width: 40, height: 40)
                client.request(window.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                client.request(window.surface, "wl_surface.damage", .int(0), .int(0), .int(40), .int(40))
                client.request(window.surface, "wl_surface.frame", .newID(client.newID()))
                client.request(window.surface, "wl_surface.commit")
                client.request(buffer, "wl_buffer.destroy")
                client.send(
                    WireMessage(
                        object: outputManager, opcode: WireProtocol.opcode("zxdg_output_manager_v1.get_xdg_output"),
                        [.newID(client.newID()), .object(outputIDs[step % outputIDs.count])]))
                client.request(
                    window.toplevel, "xdg_toplevel.set_fullscreen", .object(outputIDs[step % outputIDs.count]))
                if step % 4 == 1, harness.server.compositor.scene.outputs.count > 1 {
                    // Unplug the screen the window is on, mid-stream.
                    let output =
                        harness.server.compositor.scene.outputs.first { $0.screen.id == clientWindow.screen?.id }
                        ?? harness.server.compositor.scene.outputs.last!
                    harness.server.compositor.disconnectScreen(output)
                }
                client.pump(steps: 2)
                harness.server.repaint()
                if step == 9 {
                    for id in outputIDs { client.request(id, "wl_output.release") }
                    break
                }
            }
            #expect(client.roundtrip())
            #expect(client.error == nil, "\(String(describing: client.error))")
            #expect(harness.server.compositor.scene.outputs.count == 1)
        }
        harness.expectUnharmed()
    }
}
