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
    struct TabletSetup {
        /// First: its buffer is destroyed before the client's connection goes.
        let surface: TestSurface
        let tablet: TestTabletSeat
        let fixture: ClientFixture
        var client: TestClient { fixture.client }
        var seat: TestSeat { fixture.seat }
        var input: Seat { fixture.input }
        var screen: ScreenID { fixture.output.screen.id }

        init(server: TestServer, at origin: (x: Int, y: Int) = (100, 100)) throws {
            fixture = try ClientFixture(server: server)
            tablet = try TestTabletSeat(client: fixture.client, seat: fixture.seat.seat)
            surface = try fixture.showSurface(width: 50, height: 50, x: origin.x, y: origin.y)
            #expect(fixture.client.roundtrip())
        }

        @discardableResult
        func tool(
            _ event: TabletToolEvent, _ axes: TabletToolAxes = TabletToolAxes(),
            tool: TabletToolDescription = TabletTests.pen
        ) -> [String] {
            input.tabletTool(tool, event, axes: axes, time: 1)
            client.roundtrip()
            return tablet.takeEvents()
        }
    }

    @Test func theTabletAndToolAreAnnouncedAtTheirFirstUseAndToLaterTabletSeats() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        #expect(setup.tablet.takeEvents().isEmpty, "no tablet before the first tablet input")
        let events = setup.tool(.motion(screen: setup.screen, x: 10, y: 10))
        #expect(
            events == [
                "tablet_added", "tablet.name(Strata virtual tablet)", "tablet.id(0, 0)", "tablet.done",
                "tool_added", "tool.type(0x140)", "tool.hardware_serial(4294967362)",
                "tool.capability(2)", "tool.capability(3)", "tool.capability(1)", "tool.done",
            ])
        let late = try TabletSetup(server: server, at: (300, 300))
        #expect(
            late.tablet.takeEvents() == [
                "tablet_added", "tablet.name(Strata virtual tablet)", "tablet.id(0, 0)", "tablet.done",
                "tool_added", "tool.type(0x140)", "tool.hardware_serial(4294967362)",
                "tool.capability(2)", "tool.capability(3)", "tool.capability(1)", "tool.done",
            ])
    }

    @Test func aPenComesInTouchesDrawsAndLeavesInFrames() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        let s = setup.surface.id
        #expect(
            setup.tool(.motion(screen: setup.screen, x: 110, y: 120), TabletToolAxes(distance: 0.5)).suffix(4)
                == ["tool.proximity_in(\(s))", "tool.motion(10.0, 20.0)", "tool.distance(32768)", "tool.frame"])
        #expect(
            setup.tool(.tip(down: true), TabletToolAxes(pressure: 0.25)) == [
                "tool.pressure(16384)", "tool.down", "tool.frame",
            ])
        let downSerial = setup.tablet.lastSerial
        #expect(
            server.compositor.seat.isValidInputSerial(downSerial, client: setup.client.serverClient),
            "the down serial is an input serial")
        #expect(
            setup.tool(
                .motion(screen: setup.screen, x: 112, y: 121), TabletToolAxes(pressure: 1, tiltX: 30, tiltY: -45))
                == ["tool.motion(12.0, 21.0)", "tool.pressure(65535)", "tool.tilt(30.0, -45.0)", "tool.frame"])
        #expect(setup.tool(.button(0x14b, pressed: true)) == ["tool.button(0x14b, 1)", "tool.frame"])
        #expect(setup.tool(.tip(down: false)) == ["tool.up", "tool.frame"])
        // Out with a button held: its release comes first, in the same frame.
        #expect(setup.tool(.proximityOut) == ["tool.button(0x14b, 0)", "tool.proximity_out", "tool.frame"])
        #expect(setup.input.tabletToolState(Self.pen).map { !$0.inProximity && !$0.down && $0.buttons.isEmpty } == true)
    }

    @Test func outWhileDownSendsUpFirst() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
        setup.tool(.tip(down: true))
        #expect(setup.tool(.proximityOut) == ["tool.up", "tool.proximity_out", "tool.frame"])
    }

    @Test func theToolMovesBetweenSurfacesUnlessItsTipIsDown() throws {
        let server = try TestServer()
        let a = try TabletSetup(server: server)
        let b = try TabletSetup(server: server, at: (300, 300))
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
        let setup = try TabletSetup(server: server)
        let mouse = TabletToolDescription(type: .mouse, serial: 7)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110), tool: mouse)
        let axes = TabletToolAxes(
            pressure: 0.5, distance: 7, tiltX: 10, rotation: -90, slider: 1, wheelDegrees: 1e9, wheelClicks: .max)
        #expect(
            setup.tool(.axes, axes, tool: mouse) == [
                "tool.distance(65535)", "tool.rotation(270.0)", "tool.wheel(360.0, 1000)", "tool.frame",
            ])
        let odd = TabletToolAxes(distance: .nan, rotation: .infinity, wheelDegrees: -.infinity)
        #expect(setup.tool(.axes, odd, tool: mouse).isEmpty, "values that are not finite are dropped")
        let airbrush = TabletToolDescription(type: .airbrush, serial: 8)
        setup.tool(.motion(screen: setup.screen, x: 111, y: 111), tool: airbrush)
        #expect(
            setup.tool(.axes, TabletToolAxes(pressure: -3, tiltX: 500, tiltY: -500, slider: -2), tool: airbrush)
                == ["tool.pressure(0)", "tool.tilt(90.0, -90.0)", "tool.slider(-65535)", "tool.frame"])
    }

    @Test func motionWithCoordinatesThatAreNotFiniteOrAnUnknownScreenIsDropped() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        #expect(setup.tool(.motion(screen: setup.screen, x: .nan, y: 1)).isEmpty)
        #expect(
            setup.tool(.motion(screen: ScreenID(999), x: 110, y: 110)).count == 11,
            "the tool is announced, and goes nowhere")
        #expect(setup.input.tabletToolState(Self.pen)?.inProximity == false)
        #expect(setup.tool(.tip(down: true)).isEmpty)
    }

    @Test func aToolOverADestroyedSurfaceLeavesItAndItsEventsGoNowhere() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
        setup.tool(.tip(down: true))
        wl_surface_destroy(setup.surface.surface)
        #expect(setup.client.roundtrip())
        #expect(setup.tablet.takeEvents() == ["tool.proximity_out", "tool.frame"])
        #expect(setup.tool(.motion(screen: setup.screen, x: 111, y: 111), TabletToolAxes(pressure: 1)).isEmpty)
        #expect(setup.tool(.button(0x14b, pressed: true)).isEmpty)
        #expect(setup.tool(.tip(down: false)).isEmpty)
        #expect(setup.tool(.proximityOut).isEmpty)
        #expect(setup.client.connectionError == 0)
    }

    @Test func setCursorWithASurfaceOfAnotherRoleIsTheRoleError() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
        let tool = try #require(setup.tablet.tools.first)
        // A surface that became a wl_pointer cursor has that role.
        let cursor = try setup.client.makeSurface(width: 8, height: 8)
        wl_pointer_set_cursor(setup.seat.getPointer(), 0, cursor.surface, 0, 0)
        zwp_tablet_tool_v2_set_cursor(tool, setup.tablet.proximitySerial, cursor.surface, 0, 0)
        #expect(!setup.client.roundtrip())
        let error = try #require(setup.client.protocolError)
        #expect(error.interface == "zwp_tablet_tool_v2" && error.code == ZWP_TABLET_TOOL_V2_ERROR_ROLE.rawValue)
    }

    @Test func setCursorIsKeptForTheFocusClientWithTheProximitySerialAndANullSurfaceIsAllowed() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
        let tool = try #require(setup.tablet.tools.first)
        let cursor = try setup.client.makeSurface(width: 8, height: 8)
        zwp_tablet_tool_v2_set_cursor(tool, setup.tablet.proximitySerial &+ 1000, cursor.surface, 1, 1)
        zwp_tablet_tool_v2_set_cursor(tool, setup.tablet.proximitySerial, cursor.surface, 2, 3)
        zwp_tablet_tool_v2_set_cursor(tool, setup.tablet.proximitySerial, cursor.surface, 4, 5)
        zwp_tablet_tool_v2_set_cursor(tool, setup.tablet.proximitySerial, nil, 0, 0)
        // The cursor surface may not become a pointer cursor: it has the tablet cursor role.
        #expect(setup.client.roundtrip())
        #expect(setup.client.connectionError == 0)
    }

    @Test func aClientWithoutATabletSeatGetsNothingAndAnotherClientsToolObjectsStayQuiet() throws {
        let server = try TestServer()
        let listener = try TabletSetup(server: server, at: (300, 300))
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
        let setup = try TabletSetup(server: server)
        setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
        server.windows.lock()
        #expect(setup.client.roundtrip())
        #expect(setup.tablet.takeEvents() == ["tool.proximity_out", "tool.frame"])
        #expect(setup.tool(.motion(screen: setup.screen, x: 111, y: 111)).isEmpty)
    }

    @Test func theTabletHoldsAtMostSixteenTools() throws {
        let server = try TestServer()
        let setup = try TabletSetup(server: server)
        for serial in 1...UInt64(Tablets.maximumTools) {
            #expect(setup.input.tabletTool(TabletToolDescription(serial: serial), .axes, time: 1))
        }
        let extra = TabletToolDescription(serial: 99)
        #expect(!setup.input.tabletAccepts(extra))
        #expect(!setup.input.tabletTool(extra, .motion(screen: setup.screen, x: 110, y: 110), time: 1))
        #expect(setup.input.tabletTool(TabletToolDescription(serial: 3), .axes, time: 1), "a known tool still works")
        #expect(setup.client.roundtrip())
        #expect(setup.tablet.tools.count == Tablets.maximumTools)
    }

    /// The objects of the tablet destroyed in every order, while the tool is over the surface
    /// and down: nothing is left behind and the rest of the tool's frames go nowhere.
    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]])
    func tabletObjectsDestroyedInAnyOrderLeaveNothingBehind(order: [Int]) throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let setup = try TabletSetup(server: server)
            setup.tool(.motion(screen: setup.screen, x: 110, y: 110))
            setup.tool(.tip(down: true))
            let tablet = try #require(setup.tablet.tablets.first)
            let tool = try #require(setup.tablet.tools.first)
            let tabletSeat = try #require(setup.tablet.tabletSeat)
            let steps: [() -> Void] = [
                { zwp_tablet_manager_v2_destroy(setup.tablet.manager) },
                { zwp_tablet_seat_v2_destroy(tabletSeat) },
                { zwp_tablet_v2_destroy(tablet) },
                { zwp_tablet_tool_v2_destroy(tool) },
            ]
            for index in order {
                steps[index]()
                #expect(setup.client.roundtrip())
                setup.tool(.motion(screen: setup.screen, x: 111, y: 111), TabletToolAxes(pressure: 0.5))
            }
            setup.tool(.tip(down: false))
            setup.tool(.proximityOut)
            #expect(setup.client.connectionError == 0)
        }
        server.expectLiveCounts(backAt: baseline)
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
        server.expectLiveCounts(backAt: baseline)
    }
}

extension TestServer {
    /// One tablet tool frame, through the seat.
    func input(_ tool: TabletToolDescription, _ event: TabletToolEvent) {
        compositor.seat.tabletTool(tool, event, time: 1)
    }
}
