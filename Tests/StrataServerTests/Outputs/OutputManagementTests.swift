import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// zwlr_output_manager_v1: screens as heads, configurations tested and applied through the model.
@Suite struct OutputManagementTests {
    /// What a client knows of the heads: the manager's view, rebuilt from events.
    final class View {
        final class Mode {
            var width: Int32 = 0, height: Int32 = 0, refresh: Int32 = 0
            var preferred = false, finished = false
            let proxy: OpaquePointer
            init(_ proxy: OpaquePointer) { self.proxy = proxy }
        }
        final class Head {
            let proxy: OpaquePointer
            var name = "", enabled = false, finished = false
            var modes: [Mode] = []
            var current: OpaquePointer?
            var position = (Int32(0), Int32(0)), transform: Int32 = -1, scale = 0.0
            init(_ proxy: OpaquePointer) { self.proxy = proxy }
            var currentMode: Mode? { modes.first { $0.proxy == current } }
            func mode(_ w: Int32, _ h: Int32) -> Mode? { modes.first { $0.width == w && $0.height == h } }
        }
        var heads: [Head] = []
        var serial: UInt32?
        var dones = 0
        var outcome: String?
        func head(_ name: String) -> Head? { heads.first { $0.name == name && !$0.finished } }
    }

    static func view(_ data: UnsafeMutableRawPointer?) -> View {
        Unmanaged<View>.fromOpaque(data!).takeUnretainedValue()
    }
    static func head(_ data: UnsafeMutableRawPointer?, _ proxy: OpaquePointer?) -> View.Head? {
        view(data).heads.first { $0.proxy == proxy }
    }

    static var managerListener = zwlr_output_manager_v1_listener(
        head: { data, _, head in
            guard let head else { return }
            view(data).heads.append(View.Head(head))
            zwlr_output_head_v1_add_listener(head, &headListener, data)
        },
        done: { data, _, serial in
            view(data).serial = serial
            view(data).dones += 1
        },
        finished: { _, _ in })

    static var headListener = zwlr_output_head_v1_listener(
        name: { data, proxy, name in head(data, proxy)?.name = String(cString: name!) },
        description: { _, _, _ in },
        physical_size: { _, _, _, _ in },
        mode: { data, proxy, mode in
            guard let mode, let head = head(data, proxy) else { return }
            let record = View.Mode(mode)
            head.modes.append(record)
            zwlr_output_mode_v1_add_listener(mode, &modeListener, Unmanaged.passUnretained(record).toOpaque())
        },
        enabled: { data, proxy, enabled in head(data, proxy)?.enabled = enabled != 0 },
        current_mode: { data, proxy, mode in head(data, proxy)?.current = mode },
        position: { data, proxy, x, y in head(data, proxy)?.position = (x, y) },
        transform: { data, proxy, transform in head(data, proxy)?.transform = transform },
        scale: { data, proxy, scale in head(data, proxy)?.scale = wl_fixed_to_double(scale) },
        finished: { data, proxy in head(data, proxy)?.finished = true },
        make: { _, _, _ in }, model: { _, _, _ in }, serial_number: { _, _, _ in })

    static func mode(_ data: UnsafeMutableRawPointer?) -> View.Mode {
        Unmanaged<View.Mode>.fromOpaque(data!).takeUnretainedValue()
    }
    static var modeListener = zwlr_output_mode_v1_listener(
        size: { data, _, w, h in
            mode(data).width = w; mode(data).height = h
        },
        refresh: { data, _, r in mode(data).refresh = r },
        preferred: { data, _ in mode(data).preferred = true },
        finished: { data, _ in mode(data).finished = true })

    static var configurationListener = zwlr_output_configuration_v1_listener(
        succeeded: { data, _ in view(data).outcome = "succeeded" },
        failed: { data, _ in view(data).outcome = "failed" },
        cancelled: { data, _ in view(data).outcome = "cancelled" })

    struct OutputManagerSetup {
        let manager: OpaquePointer
        let view: View
        /// Last: the client's objects go before its connection and server.
        let fixture: ClientFixture
        var client: TestClient { fixture.client }
        var server: TestServer { fixture.server }
        var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(view).toOpaque() }

        /// A configuration against `serial` (default: the last one) with every head enabled and
        /// `body` setting what it wants on the named head.
        func configure(
            serial: UInt32? = nil, _ name: String, apply: Bool = true,
            _ body: (OpaquePointer) -> Void
        ) -> String? {
            view.outcome = nil
            let configuration = zwlr_output_manager_v1_create_configuration(manager, serial ?? view.serial ?? 0)
            zwlr_output_configuration_v1_add_listener(configuration, &configurationListener, context)
            for head in view.heads where !head.finished {
                let object = zwlr_output_configuration_v1_enable_head(configuration, head.proxy)
                if head.name == name, let object { body(object) }
            }
            if apply {
                zwlr_output_configuration_v1_apply(configuration)
            } else {
                zwlr_output_configuration_v1_test(configuration)
            }
            _ = client.wait { view.outcome != nil }
            zwlr_output_configuration_v1_destroy(configuration)
            return view.outcome
        }
    }

    static func makeSetup(screens: Int = 1) throws -> OutputManagerSetup {
        let modes = [
            ScreenMode(width: 640, height: 480), ScreenMode(width: 800, height: 600),
            ScreenMode(width: 320, height: 200, refreshMilliHz: 30000),
        ]
        let fixture = try ClientFixture(screens: screens, modes: modes)
        let manager = try fixture.client.bind(zwlr_output_manager_v1_interface_ptr(), version: 2)
        let view = View()
        zwlr_output_manager_v1_add_listener(manager, &managerListener, Unmanaged.passUnretained(view).toOpaque())
        #expect(fixture.client.roundtrip())
        return OutputManagerSetup(manager: manager, view: view, fixture: fixture)
    }

    @Test func eachScreenIsAHeadWithItsModesAndState() throws {
        let setup = try Self.makeSetup(screens: 2)
        #expect(setup.view.heads.map(\.name) == ["HEADLESS-1", "HEADLESS-2"])
        let head = try #require(setup.view.head("HEADLESS-2"))
        #expect(
            head.modes.map { "\($0.width)x\($0.height)@\($0.refresh)" } == [
                "640x480@60000", "800x600@60000", "320x200@30000",
            ])
        #expect(head.modes.map(\.preferred) == [true, false, false])
        #expect(head.enabled && head.currentMode?.width == 640)
        #expect(head.position == (640, 0) && head.transform == 0 && head.scale == 1)
        #expect(setup.view.serial == setup.server.compositor.outputManager.serial && setup.view.dones == 1)
    }

    @Test func applyingAModeChangesTheModelsScreen() throws {
        let setup = try Self.makeSetup()
        let mode = try #require(setup.view.head("HEADLESS-1")?.mode(800, 600))
        let before = setup.view.serial
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_mode($0, mode.proxy) } == "succeeded")
        let screen = setup.server.windows.screens[0]
        #expect(screen.currentMode == ScreenMode(width: 800, height: 600))
        #expect(setup.server.compositor.scene.outputs[0].width == 800)
        #expect(setup.client.roundtrip())
        #expect(setup.view.head("HEADLESS-1")?.currentMode?.width == 800)
        #expect(setup.view.serial != before)
    }

    @Test func testingAConfigurationChangesNothing() throws {
        let setup = try Self.makeSetup()
        let mode = try #require(setup.view.head("HEADLESS-1")?.mode(320, 200))
        #expect(
            setup.configure("HEADLESS-1", apply: false) { zwlr_output_configuration_head_v1_set_mode($0, mode.proxy) }
                == "succeeded")
        #expect(setup.server.windows.screens[0].currentMode == ScreenMode(width: 640, height: 480))
    }

    @Test func positionTransformAndIntegerScaleAreApplied() throws {
        let setup = try Self.makeSetup()
        #expect(
            setup.configure("HEADLESS-1") {
                zwlr_output_configuration_head_v1_set_position($0, 100, 50)
                zwlr_output_configuration_head_v1_set_transform($0, Int32(WL_OUTPUT_TRANSFORM_90.rawValue))
                zwlr_output_configuration_head_v1_set_scale($0, wl_fixed_from_int(2))
            } == "succeeded")
        let screen = setup.server.windows.screens[0]
        #expect(screen.origin == Point(x: 100, y: 50) && screen.transform == .rotated90 && screen.scale == 2)
        #expect(setup.client.roundtrip())
        let head = try #require(setup.view.head("HEADLESS-1"))
        #expect(head.position == (100, 50) && head.transform == 1 && head.scale == 2)
    }

    @Test func aFractionalScaleIsAppliedAndAnnouncedBack() throws {
        let setup = try Self.makeSetup()
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_scale($0, wl_fixed_from_double(1.5)) }
                == "succeeded")
        let screen = setup.server.windows.screens[0]
        #expect(screen.scale == 1.5)
        // 640×480 pixels at 1.5: a logical screen of 427×320 (rounded up to cover every pixel).
        #expect(screen.bounds.size == Size(width: 427, height: 320))
        #expect(setup.client.roundtrip())
        #expect(setup.view.head("HEADLESS-1")?.scale == 1.5)
    }

    @Test func whatStrataCannotDoFailsAndChangesNothing() throws {
        let setup = try Self.makeSetup()
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_scale($0, wl_fixed_from_double(0.5)) }
                == "failed",
            "\(String(describing: setup.client.protocolError))")
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_scale($0, wl_fixed_from_int(9)) }
                == "failed")
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_custom_mode($0, 1000, 700, 0) }
                == "failed")
        // Disabling a screen fails too.
        setup.view.outcome = nil
        let configuration = zwlr_output_manager_v1_create_configuration(setup.manager, setup.view.serial ?? 0)
        zwlr_output_configuration_v1_add_listener(configuration, &Self.configurationListener, setup.context)
        zwlr_output_configuration_v1_disable_head(configuration, setup.view.heads[0].proxy)
        zwlr_output_configuration_v1_apply(configuration)
        #expect(setup.client.wait { setup.view.outcome != nil } && setup.view.outcome == "failed")
        let screen = setup.server.windows.screens[0]
        #expect(screen.scale == 1 && screen.currentMode == ScreenMode(width: 640, height: 480))
    }

    @Test func aCustomModeTheScreenOffersIsApplied() throws {
        let setup = try Self.makeSetup()
        #expect(
            setup.configure("HEADLESS-1") { zwlr_output_configuration_head_v1_set_custom_mode($0, 320, 200, 0) }
                == "succeeded")
        #expect(
            setup.server.windows.screens[0].currentMode == ScreenMode(width: 320, height: 200, refreshMilliHz: 30000))
    }

    @Test func aConfigurationMadeBeforeAScreenChangeIsCancelled() throws {
        let setup = try Self.makeSetup()
        let stale = try #require(setup.view.serial)
        let screen = setup.server.windows.screens[0]
        try setup.server.windows.setMode(ScreenMode(width: 800, height: 600), for: screen)
        #expect(
            setup.configure(serial: stale, "HEADLESS-1") { zwlr_output_configuration_head_v1_set_position($0, 5, 5) }
                == "cancelled")
        #expect(screen.origin == .zero)
    }

    @Test func screensComingAndGoingAddAndFinishHeads() throws {
        let setup = try Self.makeSetup()
        let output = try #require(
            setup.server.compositor.connectScreen(
                name: "EXTRA-1", modes: [ScreenMode(width: 300, height: 200)], backendName: "headless"))
        #expect(setup.client.roundtrip())
        #expect(setup.view.head("EXTRA-1")?.modes.first?.width == 300)
        setup.server.compositor.disconnectScreen(output)
        #expect(setup.client.roundtrip())
        #expect(setup.view.head("EXTRA-1") == nil)
        #expect(
            setup.view.heads.first { $0.name == "EXTRA-1" }.map { $0.finished && $0.modes.allSatisfy(\.finished) }
                == true)
    }

    @Test func configuringAHeadTwiceIsAnError() throws {
        let setup = try Self.makeSetup()
        let configuration = zwlr_output_manager_v1_create_configuration(setup.manager, setup.view.serial ?? 0)
        _ = zwlr_output_configuration_v1_enable_head(configuration, setup.view.heads[0].proxy)
        zwlr_output_configuration_v1_disable_head(configuration, setup.view.heads[0].proxy)
        #expect(!setup.client.roundtrip())
        #expect(setup.client.protocolError?.code == ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD.rawValue)
    }

    @Test func settingAModeTwiceIsAnAlreadySetError() throws {
        let setup = try Self.makeSetup()
        let mode = try #require(setup.view.heads.first?.modes.first)
        let configuration = zwlr_output_manager_v1_create_configuration(setup.manager, setup.view.serial ?? 0)
        let object = zwlr_output_configuration_v1_enable_head(configuration, setup.view.heads[0].proxy)
        zwlr_output_configuration_head_v1_set_mode(object, mode.proxy)
        zwlr_output_configuration_head_v1_set_mode(object, mode.proxy)
        #expect(!setup.client.roundtrip())
        #expect(setup.client.protocolError?.code == ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET.rawValue)
    }

    @Test func anUnconfiguredHeadIsAnError() throws {
        let setup = try Self.makeSetup(screens: 2)
        let configuration = zwlr_output_manager_v1_create_configuration(setup.manager, setup.view.serial ?? 0)
        _ = zwlr_output_configuration_v1_enable_head(configuration, setup.view.heads[0].proxy)
        zwlr_output_configuration_v1_apply(configuration)
        #expect(!setup.client.roundtrip())
        #expect(setup.client.protocolError?.code == ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD.rawValue)
    }

    @Test func unprivilegedClientsDoNotSeeTheManager() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        #expect(try TestClient(server: server).globals["zwlr_output_manager_v1"] == nil)
    }
}
