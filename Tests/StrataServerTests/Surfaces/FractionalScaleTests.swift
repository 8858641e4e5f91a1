import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// wp_fractional_scale_v1: preferred_scale (scale × 120) at creation and whenever the surface's
/// screen or that screen's scale changes; the error the spec names; any destroy order.
@Suite struct FractionalScaleTests {
    final class Recorder {
        var scales: [UInt32] = []
    }

    static var listener = wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
        guard let data else { return }
        Unmanaged<Recorder>.fromOpaque(data).takeUnretainedValue().scales.append(scale)
    })

    struct FractionalScaleSetup {
        let manager: OpaquePointer
        let fixture: ClientFixture
        var server: TestServer { fixture.server }
        var shell: TestXdgShell { fixture.shell }
        var client: TestClient { fixture.client }
    }

    static func makeSetup(screens: Int = 1) throws -> FractionalScaleSetup {
        let fixture = try ClientFixture(screens: screens, width: 600, height: 400)
        let manager = try fixture.client.bind(wp_fractional_scale_manager_v1_interface_ptr(), version: 1)
        return FractionalScaleSetup(manager: manager, fixture: fixture)
    }

    /// Gets a wp_fractional_scale_v1 for `surface`, recording its events into `recorder`.
    static func fractionalScale(_ setup: FractionalScaleSetup, _ surface: OpaquePointer, _ recorder: Recorder) throws
        -> OpaquePointer
    {
        let object = try #require(wp_fractional_scale_manager_v1_get_fractional_scale(setup.manager, surface))
        wp_fractional_scale_v1_add_listener(object, &listener, Unmanaged.passUnretained(recorder).toOpaque())
        return object
    }

    @Test func thePreferredScaleIsSentAtCreationInUnitsOf120() throws {
        let setup = try Self.makeSetup()
        setup.server.windows.setScale(1.5, for: setup.server.windows.screens[0])
        let compositor = try setup.client.bind(wl_compositor_interface_ptr(), version: 5)
        let surface = try #require(wl_compositor_create_surface(compositor))
        let recorder = Recorder()
        _ = try Self.fractionalScale(setup, surface, recorder)
        #expect(setup.client.roundtrip())
        // A surface with no window yet gets the main screen's scale.
        #expect(recorder.scales == [180])
    }

    @Test func thePreferredScaleFollowsTheScaleOfTheWindowsScreenAndOnlyItsChanges() throws {
        let setup = try Self.makeSetup()
        let toplevel = try #require(setup.shell.makeToplevel())
        let recorder = Recorder()
        _ = try Self.fractionalScale(setup, toplevel.surface, recorder)
        #expect(toplevel.map(argb: Colour.red))
        #expect(recorder.scales == [120])
        let screen = setup.server.windows.screens[0]
        setup.server.windows.setScale(1.25, for: screen)
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 150])
        setup.server.windows.setBrightness(0.5, for: screen)
        setup.server.windows.setTransform(.rotated90, for: screen)
        setup.server.windows.setScale(1.25, for: screen)
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 150], "nothing that leaves the scale as it was is sent")
        setup.server.windows.setScale(1.75, for: screen)
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 150, 210])
    }

    @Test func thePreferredScaleFollowsTheWindowToAnotherScreen() throws {
        let setup = try Self.makeSetup(screens: 2)
        let windows = setup.server.windows
        windows.setScale(2, for: windows.screens[1])
        let toplevel = try #require(setup.shell.makeToplevel())
        let recorder = Recorder()
        _ = try Self.fractionalScale(setup, toplevel.surface, recorder)
        #expect(toplevel.map(argb: Colour.red))
        let window = try #require(windows.windows.last)
        windows.move(window, to: windows.screens[1])
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 240])
        // The screen the window is on goes: the window moves to the main screen, and so does its scale.
        setup.server.compositor.disconnectScreen(setup.server.compositor.scene.outputs[1])
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 240, 120])
    }

    @Test func aSubsurfaceGetsTheScaleOfItsWindowsScreen() throws {
        let setup = try Self.makeSetup(screens: 2)
        let windows = setup.server.windows
        windows.setScale(1.5, for: windows.screens[1])
        let toplevel = try #require(setup.shell.makeToplevel())
        #expect(toplevel.map(argb: Colour.red))
        let child = try #require(wl_compositor_create_surface(setup.shell.compositor))
        _ = try #require(wl_subcompositor_get_subsurface(setup.shell.subcompositor, child, toplevel.surface))
        let recorder = Recorder()
        _ = try Self.fractionalScale(setup, child, recorder)
        #expect(setup.client.roundtrip())
        let window = try #require(windows.windows.last)
        windows.move(window, to: windows.screens[1])
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 180])
    }

    @Test func aSecondObjectForTheSameSurfaceIsAFractionalScaleExistsError() throws {
        let setup = try Self.makeSetup()
        let surface = try #require(wl_compositor_create_surface(setup.shell.compositor))
        _ = try Self.fractionalScale(setup, surface, Recorder())
        _ = wp_fractional_scale_manager_v1_get_fractional_scale(setup.manager, surface)
        expectXdgProtocolError(
            setup.client, code: WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS.rawValue,
            interface: "wp_fractional_scale_manager_v1")
    }

    @Test func destroyingTheObjectStopsItsEventsAndLetsTheSurfaceHaveANewOne() throws {
        let setup = try Self.makeSetup()
        let surface = try #require(wl_compositor_create_surface(setup.shell.compositor))
        let first = Recorder(), second = Recorder()
        let object = try Self.fractionalScale(setup, surface, first)
        #expect(setup.client.roundtrip())
        wp_fractional_scale_v1_destroy(object)
        _ = try Self.fractionalScale(setup, surface, second)
        #expect(setup.client.roundtrip())
        setup.server.windows.setScale(3, for: setup.server.windows.screens[0])
        #expect(setup.client.roundtrip())
        #expect(first.scales == [120])
        #expect(second.scales == [120, 360])
        #expect(setup.server.compositor.fractionalScale.liveObjectCount == 1)
    }

    @Test func anObjectWhoseSurfaceIsDestroyedFirstIsInert() throws {
        let setup = try Self.makeSetup()
        let toplevel = try #require(setup.shell.makeToplevel())
        let recorder = Recorder()
        let object = try Self.fractionalScale(setup, toplevel.surface, recorder)
        #expect(toplevel.map(argb: Colour.red))
        xdg_toplevel_destroy(toplevel.toplevel)
        xdg_surface_destroy(toplevel.xdgSurface)
        wl_surface_destroy(toplevel.surface)
        #expect(setup.client.roundtrip())
        setup.server.windows.setScale(2, for: setup.server.windows.screens[0])
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120])
        wp_fractional_scale_v1_destroy(object)
        #expect(setup.client.roundtrip())
        #expect(setup.client.protocolError == nil)
        #expect(setup.server.compositor.fractionalScale.liveObjectCount == 0)
    }

    @Test func theManagerDestroyedFirstLeavesItsObjectsWorking() throws {
        let setup = try Self.makeSetup()
        let surface = try #require(wl_compositor_create_surface(setup.shell.compositor))
        let recorder = Recorder()
        _ = try Self.fractionalScale(setup, surface, recorder)
        wp_fractional_scale_manager_v1_destroy(setup.manager)
        #expect(setup.client.roundtrip())
        setup.server.windows.setScale(1.5, for: setup.server.windows.screens[0])
        #expect(setup.client.roundtrip())
        #expect(recorder.scales == [120, 180])
    }

    @Test func aClientThatDisconnectsLeavesNoObjectsBehind() throws {
        let setup = try Self.makeSetup()
        setup.server.step()
        let baseline = setup.server.liveCounts
        do {
            let client = try TestClient(server: setup.server)
            let manager = try client.bind(wp_fractional_scale_manager_v1_interface_ptr(), version: 1)
            let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
            for _ in 0..<3 {
                let surface = try #require(wl_compositor_create_surface(compositor))
                _ = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            }
            #expect(client.roundtrip())
            #expect(setup.server.compositor.fractionalScale.liveObjectCount == 3)
        }
        for _ in 0..<5 { setup.server.step() }
        setup.server.windows.setScale(2, for: setup.server.windows.screens[0])
        #expect(setup.server.compositor.fractionalScale.liveObjectCount == 0)
        #expect(setup.server.liveCounts == baseline)
    }
}

/// wl_output.scale and xdg_output's logical size on a scaled screen.
@Suite struct ScaledOutputTests {
    final class Record {
        var scales: [Int32] = []
        var logicalSizes: [(Int32, Int32)] = []
    }

    static var outputListener = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { data, _, factor in
            guard let data else { return }
            Unmanaged<Record>.fromOpaque(data).takeUnretainedValue().scales.append(factor)
        },
        name: { _, _, _ in },
        description: { _, _, _ in })

    static var xdgOutputListener = zxdg_output_v1_listener(
        logical_position: { _, _, _, _ in },
        logical_size: { data, _, width, height in
            guard let data else { return }
            Unmanaged<Record>.fromOpaque(data).takeUnretainedValue().logicalSizes.append((width, height))
        },
        done: { _, _ in },
        name: { _, _, _ in },
        description: { _, _, _ in })

    @Test func wlOutputAnnouncesTheScaleRoundedUpAndXdgOutputTheLogicalSize() throws {
        let server = try TestServer(width: 640, height: 480)
        let screen = server.windows.screens[0]
        server.windows.setScale(1.5, for: screen)
        let client = try TestClient(server: server)
        let record = Record()
        let output = try client.bind(wl_output_interface_ptr(), version: 4)
        wl_output_add_listener(output, &Self.outputListener, Unmanaged.passUnretained(record).toOpaque())
        let manager = try client.bind(zxdg_output_manager_v1_interface_ptr(), version: 3)
        let xdgOutput = try #require(zxdg_output_manager_v1_get_xdg_output(manager, output))
        zxdg_output_v1_add_listener(xdgOutput, &Self.xdgOutputListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(client.roundtrip())
        #expect(record.scales == [2])
        #expect(record.logicalSizes.last.map { $0 == (427, 320) } == true)
        server.windows.setScale(2, for: screen)
        #expect(client.roundtrip())
        #expect(record.scales.last == 2)
        #expect(record.logicalSizes.last.map { $0 == (320, 240) } == true)
        server.windows.setScale(1, for: screen)
        #expect(client.roundtrip())
        #expect(record.scales.last == 1)
        #expect(record.logicalSizes.last.map { $0 == (640, 480) } == true)
        server.windows.setScale(2.25, for: screen)
        #expect(client.roundtrip())
        #expect(record.scales.last == 3)
        #expect(record.logicalSizes.last.map { $0 == (285, 214) } == true)
        withExtendedLifetime(record) {}
    }
}
