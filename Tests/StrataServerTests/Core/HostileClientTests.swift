import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

private let invalidObject = WL_DISPLAY_ERROR_INVALID_OBJECT.rawValue
private let invalidMethod = WL_DISPLAY_ERROR_INVALID_METHOD.rawValue

/// Clients that lie on the wire (hand-made messages through `RawClient`): each gets the error the
/// protocol names and is disconnected; the compositor and a bystander keep working; nothing leaks.
@Suite struct HostileWireTests {
    @Test func requestOnAnUnknownObjectIsAnInvalidObjectError() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.send(WireMessage(object: 999, opcode: 0))
            client.expectError(code: invalidObject, object: 1)
        }
        harness.expectUnharmed()
    }

    @Test func requestOnADestroyedObjectIsAnInvalidObjectError() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let compositor = client.bind("wl_compositor")!
            let region = client.newID()
            client.request(compositor, "wl_compositor.create_region", .newID(region))
            client.request(region, "wl_region.destroy")
            #expect(client.roundtrip())
            client.request(region, "wl_region.add", .int(0), .int(0), .int(10), .int(10))
            client.expectError(code: invalidObject, object: 1)
        }
        harness.expectUnharmed()
    }

    /// Object arguments whose object is of another interface (libwayland checks typed arguments).
    @Test(arguments: [
        "wl_surface.attach", "xdg_wm_base.get_xdg_surface", "wl_subcompositor.get_subsurface",
        "wl_surface.set_input_region", "xdg_surface.get_popup", "wl_seat.get_pointer+set_cursor",
    ])
    func objectArgumentOfTheWrongInterfaceIsAnInvalidMethodError(_ request: String) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let surface = client.createSurface(core.compositor)
            // A wl_callback where everything wants something else.
            let callback = client.newID()
            client.request(surface, "wl_surface.frame", .newID(callback))
            switch request {
            case "wl_surface.attach":
                client.request(surface, request, .object(callback), .int(0), .int(0))
            case "xdg_wm_base.get_xdg_surface":
                client.request(core.wmBase, request, .newID(client.newID()), .object(callback))
            case "wl_subcompositor.get_subsurface":
                client.request(core.subcompositor, request, .newID(client.newID()), .object(surface), .object(callback))
            case "wl_surface.set_input_region":
                client.request(surface, request, .object(core.shm))
            case "xdg_surface.get_popup":
                let xdgSurface = client.newID()
                client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
                client.request(xdgSurface, request, .newID(client.newID()), .object(surface), .object(surface))
            default:
                let seat = client.bind("wl_seat")!
                let pointer = client.newID()
                client.request(seat, "wl_seat.get_pointer", .newID(pointer))
                client.request(pointer, "wl_pointer.set_cursor", .uint(0), .object(seat), .int(0), .int(0))
            }
            client.expectError(code: invalidMethod, object: 1)
        }
        harness.expectUnharmed(Comment(rawValue: request))
    }

    @Test func unknownOpcodeIsAnInvalidMethodError() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let compositor = client.bind("wl_compositor")!
            let surface = client.createSurface(compositor)
            client.send(WireMessage(object: surface, opcode: 200))
            client.expectError(code: invalidMethod, object: 1)
        }
        harness.expectUnharmed()
    }

    @Test(arguments: [0, 1, 2, 3])
    func malformedMessagesDropOnlyThatClient(_ kind: Int) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let compositor = client.bind("wl_compositor")!
            let surface = client.createSurface(compositor)
            switch kind {
            case 0:  // a header that says 8 bytes for a request with four arguments
                client.send(
                    WireMessage(object: surface, opcode: WireProtocol.opcode("wl_surface.damage"), sizeOverride: 8))
            case 1:  // a string whose length is beyond the message
                var bytes = WireMessage(object: client.registryID!, opcode: 0, [.uint(1), .uint(0xffff_fff0)]).bytes
                bytes += [0, 0, 0, 0]
                client.send(bytes: bytes)
            case 2:  // a string without its terminating NUL
                var message = WireMessage(
                    object: client.registryID!, opcode: 0,
                    [.uint(1), .string("wl_compositor"), .uint(1), .newID(client.newID())])
                var bytes = message.bytes
                bytes[16 + 13] = UInt8(ascii: "x")
                message.sizeOverride = UInt16(bytes.count)
                client.send(bytes: bytes)
            default:  // a new_id that skips ahead of the client's id space
                client.request(compositor, "wl_compositor.create_surface", .newID(50_000))
            }
            #expect(!client.roundtrip())
            #expect(client.isDisconnected)
        }
        harness.expectUnharmed(Comment(rawValue: "kind \(kind)"))
    }

    @Test func bindingAnUnknownGlobalOrAWrongInterfaceIsAnError() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let name = client.globals.first { $0.interface == "wl_compositor" }!.name
            client.request(
                client.registryID!, "wl_registry.bind", .uint(name), .string("wl_seat"), .uint(1),
                .newID(client.newID()))
            client.expectError(code: invalidObject, object: client.registryID)
        }
        do {
            let client = try harness.raw()
            client.request(
                client.registryID!, "wl_registry.bind", .uint(9999), .string("wl_seat"), .uint(1),
                .newID(client.newID()))
            client.expectError(code: invalidObject, object: client.registryID)
        }
        do {
            let client = try harness.raw()
            let global = client.globals.first { $0.interface == "wl_compositor" }!
            client.request(
                client.registryID!, "wl_registry.bind", .uint(global.name), .string("wl_compositor"),
                .uint(global.version + 1), .newID(client.newID()))
            client.expectError(code: invalidObject, object: client.registryID)
        }
        harness.expectUnharmed()
    }

    /// Requests on objects whose backing died first are ignored (inert objects), not crashes.
    @Test func requestsOnInertObjectsAreHarmless() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            let child = client.createSurface(core.compositor)
            let subsurface = client.newID()
            client.request(
                core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(child),
                .object(window.surface))
            #expect(client.roundtrip())
            client.request(window.surface, "wl_surface.destroy")
            #expect(client.roundtrip())
            client.request(subsurface, "wl_subsurface.set_position", .int(5), .int(5))
            client.request(subsurface, "wl_subsurface.set_desync")
            client.request(child, "wl_surface.commit")
            client.request(window.toplevel, "xdg_toplevel.set_title", .string("inert"))
            client.request(window.toplevel, "xdg_toplevel.set_maximized")
            client.request(window.toplevel, "xdg_toplevel.set_fullscreen", .object(0))
            client.request(window.xdgSurface, "xdg_surface.set_window_geometry", .int(0), .int(0), .int(10), .int(10))
            client.request(window.xdgSurface, "xdg_surface.ack_configure", .uint(1))
            #expect(client.roundtrip())
            #expect(client.error == nil)
            #expect(harness.server.windows.windows.count == 1)
        }
        harness.expectUnharmed()
    }
}

/// Enumerations out of range and sizes that are negative or huge.
@Suite struct HostileArgumentTests {
    /// Each case: the request(s) and the error the protocol names (interface, code).
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case transformOutOfRange, negativeTransform, zeroScale, negativeScale
        case anchorOutOfRange, gravityOutOfRange, zeroPositionerSize, negativeAnchorRect
        case shmFormatUnknown, shmPoolNegativeSize, shmBufferNegativeWidth, shmBufferStrideOverflow
        case shmBufferBeyondPool, shmPoolShrunk, shmStrideShorterThanARow, shmXRGBStrideShorterThanARow
        case windowGeometryNegative, minSizeNegative, maxSizeNegative
        case resizeEdgeOutOfRange
        case dataSourceActionsOutOfRange
        var testDescription: String { rawValue }
    }

    @Test(arguments: Case.allCases)
    func outOfRangeAndNegativeArgumentsAreTheNamedErrors(_ kind: Case) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let surface = client.createSurface(core.compositor)
            var expected: (object: UInt32, code: UInt32)
            func positioner() -> UInt32 {
                let id = client.newID()
                client.request(core.wmBase, "xdg_wm_base.create_positioner", .newID(id))
                return id
            }
            func toplevel() -> (xdgSurface: UInt32, toplevel: UInt32) {
                let xdgSurface = client.newID(), toplevel = client.newID()
                client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
                client.request(xdgSurface, "xdg_surface.get_toplevel", .newID(toplevel))
                return (xdgSurface, toplevel)
            }
            switch kind {
            case .transformOutOfRange:
                client.request(surface, "wl_surface.set_buffer_transform", .int(8))
                expected = (surface, WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue)
            case .negativeTransform:
                client.request(surface, "wl_surface.set_buffer_transform", .int(-1))
                expected = (surface, WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue)
            case .zeroScale:
                client.request(surface, "wl_surface.set_buffer_scale", .int(0))
                expected = (surface, WL_SURFACE_ERROR_INVALID_SCALE.rawValue)
            case .negativeScale:
                client.request(surface, "wl_surface.set_buffer_scale", .int(Int32.min))
                expected = (surface, WL_SURFACE_ERROR_INVALID_SCALE.rawValue)
            case .anchorOutOfRange:
                let p = positioner()
                client.request(p, "xdg_positioner.set_anchor", .uint(9))
                expected = (p, XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue)
            case .gravityOutOfRange:
                let p = positioner()
                client.request(p, "xdg_positioner.set_gravity", .uint(0xffff_ffff))
                expected = (p, XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue)
            case .zeroPositionerSize:
                let p = positioner()
                client.request(p, "xdg_positioner.set_size", .int(0), .int(-5))
                expected = (p, XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue)
            case .negativeAnchorRect:
                let p = positioner()
                client.request(p, "xdg_positioner.set_anchor_rect", .int(0), .int(0), .int(-1), .int(Int32.min))
                expected = (p, XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue)
            case .shmFormatUnknown:
                let (pool, _) = client.makeBuffer(shm: core.shm, width: 4, height: 4, format: 0xdead_beef)
                expected = (pool, WL_SHM_ERROR_INVALID_FORMAT.rawValue)
            case .shmPoolNegativeSize:
                let fd = strata_client_memfd("hostile")
                client.request(core.shm, "wl_shm.create_pool", .newID(client.newID()), .fd(fd), .int(-4096))
                close(fd)
                expected = (core.shm, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmBufferNegativeWidth:
                let (pool, _) = client.makeBuffer(shm: core.shm, width: -4, height: 4, stride: 16, poolSize: 64)
                expected = (pool, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmBufferStrideOverflow:
                let (pool, _) = client.makeBuffer(
                    shm: core.shm, width: 0x4000_0000, height: 0x4000_0000, stride: Int32.max, poolSize: 4096)
                expected = (pool, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmBufferBeyondPool:
                let (pool, _) = client.makeBuffer(shm: core.shm, width: 64, height: 64, poolSize: 100)
                expected = (pool, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmStrideShorterThanARow:
                // WLCS BadBufferTest.client_lies_about_buffer_size: a stride of `width` bytes
                // for 4-byte pixels, in a pool big enough for it.
                let (pool, _) = client.makeBuffer(
                    shm: core.shm, width: 200, height: 200, stride: 200, poolSize: 200 * 200)
                expected = (pool, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmXRGBStrideShorterThanARow:
                let (pool, _) = client.makeBuffer(
                    shm: core.shm, width: 16, height: 4, stride: 63,
                    format: WL_SHM_FORMAT_XRGB8888.rawValue, poolSize: 4096)
                expected = (pool, WL_SHM_ERROR_INVALID_STRIDE.rawValue)
            case .shmPoolShrunk:
                let (pool, _) = client.makeBuffer(shm: core.shm, width: 8, height: 8)
                client.request(pool, "wl_shm_pool.resize", .int(16))
                expected = (pool, WL_SHM_ERROR_INVALID_FD.rawValue)
            case .windowGeometryNegative:
                let (xdgSurface, _) = toplevel()
                client.request(xdgSurface, "xdg_surface.set_window_geometry", .int(0), .int(0), .int(-10), .int(10))
                expected = (xdgSurface, XDG_SURFACE_ERROR_INVALID_SIZE.rawValue)
            case .minSizeNegative:
                let (_, t) = toplevel()
                client.request(t, "xdg_toplevel.set_min_size", .int(-1), .int(5))
                expected = (t, XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue)
            case .maxSizeNegative:
                let (_, t) = toplevel()
                client.request(t, "xdg_toplevel.set_max_size", .int(5), .int(Int32.min))
                expected = (t, XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue)
            case .resizeEdgeOutOfRange:
                let (_, t) = toplevel()
                let seat = client.bind("wl_seat")!
                client.request(t, "xdg_toplevel.resize", .object(seat), .uint(1), .uint(99))
                expected = (t, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE.rawValue)
            case .dataSourceActionsOutOfRange:
                let manager = client.bind("wl_data_device_manager")!
                let source = client.newID()
                client.request(manager, "wl_data_device_manager.create_data_source", .newID(source))
                client.request(source, "wl_data_source.set_actions", .uint(0x80))
                expected = (source, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue)
            }
            client.expectError(code: expected.code, object: expected.object)
        }
        harness.expectUnharmed(Comment(rawValue: kind.rawValue))
    }

    /// The stride check refuses only rows shorter than the pixels: a stride exactly a row long,
    /// or padded past it, makes a buffer.
    @Test func strideOfARowOrMoreIsAccepted() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            _ = client.makeBuffer(shm: core.shm, width: 16, height: 4, stride: 64)
            _ = client.makeBuffer(
                shm: core.shm, width: 16, height: 4, stride: 76, format: WL_SHM_FORMAT_XRGB8888.rawValue)
            #expect(client.roundtrip())
            #expect(client.error == nil)
        }
        harness.expectUnharmed()
    }

    /// Extreme values the protocol allows: the compositor keeps its arithmetic in range.
    @Test func extremeButLegalCoordinatesAreSurvived() throws {
        let harness = try HostileHarness(screens: 2)
        let big = Int32.max, small = Int32.min
        do {
            let client = try harness.raw()
            let core = client.bindCore()
            let window = client.makeToplevel(core)
            // Regions and damage reaching past both ends of Int32.
            let region = client.newID()
            client.request(core.compositor, "wl_compositor.create_region", .newID(region))
            client.request(region, "wl_region.add", .int(small), .int(small), .int(big), .int(big))
            client.request(region, "wl_region.add", .int(big), .int(big), .int(big), .int(big))
            client.request(region, "wl_region.subtract", .int(-5), .int(-5), .int(big), .int(-7))
            client.request(window.surface, "wl_surface.set_input_region", .object(region))
            client.request(window.surface, "wl_surface.set_opaque_region", .object(region))
            client.request(window.surface, "wl_surface.damage", .int(small), .int(small), .int(big), .int(big))
            client.request(window.surface, "wl_surface.damage_buffer", .int(big), .int(big), .int(big), .int(big))
            client.request(window.surface, "wl_surface.damage", .int(big), .int(small), .int(-1), .int(big))
            client.request(window.surface, "wl_surface.set_buffer_scale", .int(big))
            client.request(window.surface, "wl_surface.set_buffer_transform", .int(7))
            client.request(window.surface, "wl_surface.offset", .int(big), .int(big))
            client.request(window.surface, "wl_surface.commit")
            client.request(window.surface, "wl_surface.offset", .int(big), .int(big))
            client.request(window.surface, "wl_surface.commit")
            // Window geometry and size hints at the limits.
            client.request(
                window.xdgSurface, "xdg_surface.set_window_geometry", .int(small), .int(small), .int(big), .int(big))
            client.request(window.toplevel, "xdg_toplevel.set_max_size", .int(big), .int(big))
            client.request(window.toplevel, "xdg_toplevel.set_min_size", .int(big), .int(big))
            client.request(window.surface, "wl_surface.commit")
            client.request(window.toplevel, "xdg_toplevel.set_maximized")
            client.request(window.toplevel, "xdg_toplevel.set_fullscreen", .object(0))
            client.request(window.surface, "wl_surface.commit")
            // A subsurface at the far corner, and a popup pushed by a huge offset.
            let child = client.createSurface(core.compositor)
            let subsurface = client.newID()
            client.request(
                core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(child),
                .object(window.surface))
            client.request(subsurface, "wl_subsurface.set_position", .int(big), .int(small))
            let (_, buffer) = client.makeBuffer(shm: core.shm, width: 16, height: 16)
            client.request(child, "wl_surface.attach", .object(buffer), .int(0), .int(0))
            client.request(child, "wl_surface.damage", .int(small), .int(small), .int(big), .int(big))
            client.request(child, "wl_surface.commit")
            client.request(window.surface, "wl_surface.commit")
            let positioner = client.newID()
            client.request(core.wmBase, "xdg_wm_base.create_positioner", .newID(positioner))
            client.request(positioner, "xdg_positioner.set_size", .int(big), .int(big))
            client.request(positioner, "xdg_positioner.set_anchor_rect", .int(small), .int(small), .int(big), .int(big))
            client.request(positioner, "xdg_positioner.set_offset", .int(big), .int(small))
            client.request(positioner, "xdg_positioner.set_constraint_adjustment", .uint(0xff))
            client.request(positioner, "xdg_positioner.set_parent_size", .int(big), .int(big))
            client.request(positioner, "xdg_positioner.set_anchor", .uint(8))
            client.request(positioner, "xdg_positioner.set_gravity", .uint(5))
            let popupSurface = client.createSurface(core.compositor)
            let popupXdg = client.newID(), popup = client.newID()
            client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(popupXdg), .object(popupSurface))
            client.request(
                popupXdg, "xdg_surface.get_popup", .newID(popup), .object(window.xdgSurface), .object(positioner))
            client.request(popupSurface, "wl_surface.commit")
            client.roundtrip()
            if let configure = client.events(for: popupXdg).last(where: { $0.opcode == 0 }) {
                client.request(popupXdg, "xdg_surface.ack_configure", .uint(configure.word(0)))
            }
            let (_, popupBuffer) = client.makeBuffer(shm: core.shm, width: 8, height: 8)
            client.request(popupSurface, "wl_surface.attach", .object(popupBuffer), .int(0), .int(0))
            client.request(popupSurface, "wl_surface.commit")
            client.request(popup, "xdg_popup.reposition", .object(positioner), .uint(big.magnitude))
            client.roundtrip()
            // Draw, hit-test and type at the corners of every screen.
            harness.server.repaint()
            for output in harness.server.compositor.scene.outputs {
                for (x, y) in [(0.0, 0.0), (639.0, 479.0), (-1e9, 1e9), (Double.greatestFiniteMagnitude, -1)] {
                    harness.server.compositor.seat.pointerMotion(on: output, x: x, y: y, time: 1)
                    harness.server.compositor.seat.pointerButton(0x110, pressed: true, time: 2)
                    harness.server.compositor.seat.pointerButton(0x110, pressed: false, time: 3)
                    harness.server.compositor.seat.touchDown(id: 1, on: output, x: x, y: y, time: 4)
                    harness.server.compositor.seat.touchUp(id: 1, time: 5)
                }
            }
            harness.server.repaint()
            client.roundtrip()
        }
        harness.expectUnharmed()
    }

    /// A synchronized subsurface caches its commits until the parent commits: offsets sent in
    /// many cached commits add up, and must not overflow.
    @Test(arguments: [5, 4])
    func offsetsAddedUpInCachedSubsurfaceCommitsDoNotOverflow(_ compositorVersion: UInt32) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let compositor = client.bind("wl_compositor", version: compositorVersion)!
            let core = (
                compositor, client.bind("wl_subcompositor")!, client.bind("wl_shm")!, client.bind("xdg_wm_base")!
            )
            let window = client.makeToplevel(core)
            let child = client.createSurface(compositor)
            let subsurface = client.newID()
            client.request(
                core.1, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(child), .object(window.surface))
            for sign: Int32 in [1, 1, 1, -1, -1, -1, -1, -1] {
                let (_, buffer) = client.makeBuffer(shm: core.2, width: 8, height: 8)
                if compositorVersion >= 5 {
                    client.request(child, "wl_surface.attach", .object(buffer), .int(0), .int(0))
                    client.request(
                        child, "wl_surface.offset", .int(Int32.max * sign), .int(Int32.min + (sign > 0 ? 0 : 1)))
                } else {
                    client.request(
                        child, "wl_surface.attach", .object(buffer), .int(Int32.max * sign), .int(Int32.max * sign))
                }
                client.request(child, "wl_surface.commit")
            }
            client.request(window.surface, "wl_surface.commit")
            #expect(client.roundtrip())
            harness.server.repaint()
            client.request(subsurface, "wl_subsurface.set_desync")
            client.request(child, "wl_surface.commit")
            #expect(client.roundtrip())
            #expect(client.error == nil)
        }
        harness.expectUnharmed()
    }
}
