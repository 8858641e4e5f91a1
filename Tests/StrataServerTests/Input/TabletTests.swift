import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// zwp_tablet_manager_v2: the seat's virtual tablet and its tools, announced at their first use;
/// a tool's frames go to the client of the surface under it.
@Suite struct TabletTests {
    static let pen = TabletToolDescription(type: .pen, serial: 0x1_0000_0042)

    /// A client with a surface shown at (100, 100), 50×50, and a tablet seat.
    struct Scene {
        /// First: its buffer is destroyed before the client's connection goes.
        let surface: TestSurface
        let server: TestServer
        let client: TestClient
        let seat: TestSeat
        let tablet: TestTabletSeat

        init(server: TestServer, at origin: (x: Int, y: Int) = (100, 100)) throws {
            self.server = server
            client = try TestClient(server: server)
            seat = try TestSeat(client: client)
            tablet = try TestTabletSeat(client: client, seat: seat.seat)
            surface = try client.makeSurface(width: 50, height: 50)
            client.showPlainSurface(surface, x: origin.x, y: origin.y)
            #expect(client.roundtrip())
        }

        var input: Seat { server.compositor.seat }
        var screen: ScreenID { server.compositor.outputs[0].screen.id }

        @discardableResult
        func tool(_ event: TabletToolEvent, _ axes: TabletToolAxes = TabletToolAxes(), tool: TabletToolDescription = TabletTests.pen) -> [String] {
            input.tabletTool(tool, event, axes: axes, time: 1)
            client.roundtrip()
            return tablet.takeEvents()
        }
    }

    @Test func theTabletAndToolAreAnnouncedAtTheirFirstUseAndToLaterTabletSeats() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        #expect(scene.tablet.takeEvents().isEmpty, "no tablet before the first tablet input")
        let events = scene.tool(.motion(screen: scene.screen, x: 10, y: 10))
        #expect(events == [
            "tablet_added", "tablet.name(Strata virtual tablet)", "tablet.id(0, 0)", "tablet.done",
            "tool_added", "tool.type(0x140)", "tool.hardware_serial(4294967362)",
            "tool.capability(2)", "tool.capability(3)", "tool.capability(1)", "tool.done",
        ])
        let late = try Scene(server: server, at: (300, 300))
        #expect(late.tablet.takeEvents() == [
            "tablet_added", "tablet.name(Strata virtual tablet)", "tablet.id(0, 0)", "tablet.done",
            "tool_added", "tool.type(0x140)", "tool.hardware_serial(4294967362)",
            "tool.capability(2)", "tool.capability(3)", "tool.capability(1)", "tool.done",
        ])
    }

    @Test func aPenComesInTouchesDrawsAndLeavesInFrames() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        let s = scene.surface.id
        #expect(scene.tool(.motion(screen: scene.screen, x: 110, y: 120), TabletToolAxes(distance: 0.5)).suffix(4)
            == ["tool.proximity_in(\(s))", "tool.motion(10.0, 20.0)", "tool.distance(32768)", "tool.frame"])
        #expect(scene.tool(.tip(down: true), TabletToolAxes(pressure: 0.25)) == ["tool.pressure(16384)", "tool.down", "tool.frame"])
        let downSerial = scene.tablet.lastSerial
        #expect(server.compositor.seat.isValidInputSerial(downSerial, client: scene.client.serverClient), "the down serial is an input serial")
        #expect(scene.tool(.motion(screen: scene.screen, x: 112, y: 121), TabletToolAxes(pressure: 1, tiltX: 30, tiltY: -45))
            == ["tool.motion(12.0, 21.0)", "tool.pressure(65535)", "tool.tilt(30.0, -45.0)", "tool.frame"])
        #expect(scene.tool(.button(0x14b, pressed: true)) == ["tool.button(0x14b, 1)", "tool.frame"])
        #expect(scene.tool(.tip(down: false)) == ["tool.up", "tool.frame"])
        // Out with a button held: its release comes first, in the same frame.
        #expect(scene.tool(.proximityOut) == ["tool.button(0x14b, 0)", "tool.proximity_out", "tool.frame"])
        #expect(scene.input.tabletToolState(Self.pen).map { !$0.inProximity && !$0.down && $0.buttons.isEmpty } == true)
    }

    @Test func outWhileDownSendsUpFirst() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
        scene.tool(.tip(down: true))
        #expect(scene.tool(.proximityOut) == ["tool.up", "tool.proximity_out", "tool.frame"])
    }

    @Test func theToolMovesBetweenSurfacesUnlessItsTipIsDown() throws {
        let server = try TestServer()
        let a = try Scene(server: server)
        let b = try Scene(server: server, at: (300, 300))
        a.tool(.motion(screen: a.screen, x: 110, y: 110))
        b.client.roundtrip()
        _ = b.tablet.takeEvents()
        // Down on a, dragged over b: a keeps the tool (its motion is relative to a).
        a.tool(.tip(down: true))
        #expect(a.tool(.motion(screen: a.screen, x: 310, y: 310)) == ["tool.motion(210.0, 210.0)", "tool.frame"])
        b.client.roundtrip()
        #expect(b.tablet.takeEvents().isEmpty)
        // Up: the tool leaves a for b.
        #expect(a.tool(.tip(down: false)) == ["tool.up", "tool.frame", "tool.proximity_out", "tool.frame"])
        b.client.roundtrip()
        #expect(b.tablet.takeEvents() == ["tool.proximity_in(\(b.surface.id))", "tool.frame"])
    }

    @Test func axesATooldoesNotHaveAreNotSentAndTheRestAreClamped() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        let mouse = TabletToolDescription(type: .mouse, serial: 7)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110), tool: mouse)
        let axes = TabletToolAxes(pressure: 0.5, distance: 7, tiltX: 10, rotation: -90, slider: 1, wheelDegrees: 1e9, wheelClicks: .max)
        #expect(scene.tool(.axes, axes, tool: mouse) == ["tool.distance(65535)", "tool.rotation(270.0)", "tool.wheel(360.0, 1000)", "tool.frame"])
        let odd = TabletToolAxes(distance: .nan, rotation: .infinity, wheelDegrees: -.infinity)
        #expect(scene.tool(.axes, odd, tool: mouse).isEmpty, "values that are not finite are dropped")
        let airbrush = TabletToolDescription(type: .airbrush, serial: 8)
        scene.tool(.motion(screen: scene.screen, x: 111, y: 111), tool: airbrush)
        #expect(scene.tool(.axes, TabletToolAxes(pressure: -3, tiltX: 500, tiltY: -500, slider: -2), tool: airbrush)
            == ["tool.pressure(0)", "tool.tilt(90.0, -90.0)", "tool.slider(-65535)", "tool.frame"])
    }

    @Test func motionWithCoordinatesThatAreNotFiniteOrAnUnknownScreenIsDropped() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        #expect(scene.tool(.motion(screen: scene.screen, x: .nan, y: 1)).isEmpty)
        #expect(scene.tool(.motion(screen: ScreenID(999), x: 110, y: 110)).count == 11, "the tool is announced, and goes nowhere")
        #expect(scene.input.tabletToolState(Self.pen)?.inProximity == false)
        #expect(scene.tool(.tip(down: true)).isEmpty)
    }

    @Test func aToolOverADestroyedSurfaceLeavesItAndItsEventsGoNowhere() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
        scene.tool(.tip(down: true))
        wl_surface_destroy(scene.surface.surface)
        #expect(scene.client.roundtrip())
        #expect(scene.tablet.takeEvents() == ["tool.proximity_out", "tool.frame"])
        #expect(scene.tool(.motion(screen: scene.screen, x: 111, y: 111), TabletToolAxes(pressure: 1)).isEmpty)
        #expect(scene.tool(.button(0x14b, pressed: true)).isEmpty)
        #expect(scene.tool(.tip(down: false)).isEmpty)
        #expect(scene.tool(.proximityOut).isEmpty)
        #expect(scene.client.connectionError == 0)
    }

    @Test func setCursorWithASurfaceOfAnotherRoleIsTheRoleError() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
        let tool = try #require(scene.tablet.tools.first)
        // A surface that became a wl_pointer cursor has that role.
        let cursor = try scene.client.makeSurface(width: 8, height: 8)
        wl_pointer_set_cursor(scene.seat.getPointer(), 0, cursor.surface, 0, 0)
        zwp_tablet_tool_v2_set_cursor(tool, scene.tablet.proximitySerial, cursor.surface, 0, 0)
        #expect(!scene.client.roundtrip())
        let error = try #require(scene.client.protocolError)
        #expect(error.interface == "zwp_tablet_tool_v2" && error.code == ZWP_TABLET_TOOL_V2_ERROR_ROLE.rawValue)
    }

    @Test func setCursorIsKeptForTheFocusClientWithTheProximitySerialAndANullSurfaceIsAllowed() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
        let tool = try #require(scene.tablet.tools.first)
        let cursor = try scene.client.makeSurface(width: 8, height: 8)
        zwp_tablet_tool_v2_set_cursor(tool, scene.tablet.proximitySerial &+ 1000, cursor.surface, 1, 1)
        zwp_tablet_tool_v2_set_cursor(tool, scene.tablet.proximitySerial, cursor.surface, 2, 3)
        zwp_tablet_tool_v2_set_cursor(tool, scene.tablet.proximitySerial, cursor.surface, 4, 5)
        zwp_tablet_tool_v2_set_cursor(tool, scene.tablet.proximitySerial, nil, 0, 0)
        // The cursor surface may not become a pointer cursor: it has the tablet cursor role.
        #expect(scene.client.roundtrip())
        #expect(scene.client.connectionError == 0)
    }

    @Test func aClientWithoutATabletSeatGetsNothingAndAnotherClientsToolObjectsStayQuiet() throws {
        let server = try TestServer()
        let listener = try Scene(server: server, at: (300, 300))
        let plain = try TestClient(server: server)
        let surface = try plain.makeSurface(width: 50, height: 50)
        plain.showPlainSurface(surface, x: 100, y: 100)
        listener.tool(.motion(screen: listener.screen, x: 110, y: 110))
        listener.tool(.tip(down: true))
        #expect(listener.tool(.tip(down: false)).isEmpty)
        #expect(plain.roundtrip())
    }

    @Test func aLockedSessionTakesTheToolFromTheWindows() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
        server.windows.lock()
        #expect(scene.client.roundtrip())
        #expect(scene.tablet.takeEvents() == ["tool.proximity_out", "tool.frame"])
        #expect(scene.tool(.motion(screen: scene.screen, x: 111, y: 111)).isEmpty)
    }

    @Test func theTabletHoldsAtMostSixteenTools() throws {
        let server = try TestServer()
        let scene = try Scene(server: server)
        for serial in 1...UInt64(Tablets.maximumTools) {
            #expect(scene.input.tabletTool(TabletToolDescription(serial: serial), .axes, time: 1))
        }
        let extra = TabletToolDescription(serial: 99)
        #expect(!scene.input.tabletAccepts(extra))
        #expect(!scene.input.tabletTool(extra, .motion(screen: scene.screen, x: 110, y: 110), time: 1))
        #expect(scene.input.tabletTool(TabletToolDescription(serial: 3), .axes, time: 1), "a known tool still works")
        #expect(scene.client.roundtrip())
        #expect(scene.tablet.tools.count == Tablets.maximumTools)
    }

    /// The objects of the tablet destroyed in every order, while the tool is over the surface
    /// and down: nothing is left behind and the rest of the tool's frames go nowhere.
    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]])
    func tabletObjectsDestroyedInAnyOrderLeaveNothingBehind(order: [Int]) throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let scene = try Scene(server: server)
            scene.tool(.motion(screen: scene.screen, x: 110, y: 110))
            scene.tool(.tip(down: true))
            let tablet = try #require(scene.tablet.tablets.first)
            let tool = try #require(scene.tablet.tools.first)
            let tabletSeat = try #require(scene.tablet.tabletSeat)
            let steps: [() -> Void] = [
                { zwp_tablet_manager_v2_destroy(scene.tablet.manager) },
                { zwp_tablet_seat_v2_destroy(tabletSeat) },
                { zwp_tablet_v2_destroy(tablet) },
                { zwp_tablet_tool_v2_destroy(tool) },
            ]
            for index in order {
                steps[index]()
                #expect(scene.client.roundtrip())
                scene.tool(.motion(screen: scene.screen, x: 111, y: 111), TabletToolAxes(pressure: 0.5))
            }
            scene.tool(.tip(down: false))
            scene.tool(.proximityOut)
            #expect(scene.client.connectionError == 0)
        }
        // Until the server has seen the client go: another test's posix_spawn child holds a copy of
        // the client's socket until its exec, so the hang-up can come late under load.
        #expect(server.run(seconds: 10) { server.liveCounts == baseline }, "\(server.liveCounts)")
    }

    /// 10,000 get_tablet_seat requests: past the per-client cap the client is disconnected with
    /// no_memory, and everything it made goes.
    @Test func aClientAskingForTenThousandTabletSeatsIsStoppedAtItsBudget() throws {
        let server = try TestServer()
        server.input(TabletToolDescription(), .axes)
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let seat = try TestSeat(client: client)
            let manager = try client.bind(zwp_tablet_manager_v2_interface_ptr(), version: 1)
            var made = 0
            for index in 0..<10_000 {
                _ = zwp_tablet_manager_v2_get_tablet_seat(manager, seat.seat)
                made += 1
                if index % 100 == 99, !client.roundtrip() { break }
            }
            #expect(made < 10_000, "the client was stopped on the way")
            // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
            #expect(client.connectionError == ENOMEM)
        }
        // Until the server has seen the client go: another test's posix_spawn child holds a copy of
        // the client's socket until its exec, so the hang-up can come late under load.
        #expect(server.run(seconds: 10) { server.liveCounts == baseline }, "\(server.liveCounts)")
    }
}

extension TestServer {
    /// One tablet tool frame, through the seat.
    func input(_ tool: TabletToolDescription, _ event: TabletToolEvent) {
        compositor.seat.tabletTool(tool, event, time: 1)
    }
}
