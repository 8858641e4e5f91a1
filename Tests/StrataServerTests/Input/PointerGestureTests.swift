import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataServer
import StrataTestSupport
import Testing

/// zwp_pointer_gestures_v1 v3: swipe, pinch and hold go to the gesture objects of the client
/// under the pointer when the gesture begins, until its end.
@Suite struct PointerGestureTests {
    /// A client with a surface shown at (100, 100), 50×50, its wl_pointer and gesture objects,
    /// and the pointer over it.
    struct GestureSetup {
        /// First: its buffer is destroyed before the client's connection goes.
        let surface: TestSurface
        let gestures: TestPointerGestures
        let swipe: OpaquePointer
        let pinch: OpaquePointer
        let hold: OpaquePointer
        let fixture: ClientFixture
        var client: TestClient { fixture.client }
        var seat: TestSeat { fixture.seat }
        var input: Seat { fixture.input }

        init(server: TestServer, at origin: (x: Int, y: Int) = (100, 100)) throws {
            fixture = try ClientFixture(server: server)
            gestures = try TestPointerGestures(client: fixture.client)
            let pointer = try #require(fixture.seat.getPointer())
            swipe = try #require(gestures.swipe(pointer: pointer))
            pinch = try #require(gestures.pinch(pointer: pointer))
            hold = try #require(gestures.hold(pointer: pointer))
            surface = try fixture.showSurface(width: 50, height: 50, x: origin.x, y: origin.y)
            #expect(fixture.client.roundtrip())
        }

        func pointAt(_ x: Double, _ y: Double) { fixture.pointAt(x, y) }
    }

    @Test func aSwipeGoesToTheSwipeObjectOfTheClientUnderThePointer() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
        setup.input.pointerGestureUpdate(dx: 4.5, dy: -2, time: 6)
        setup.input.pointerGestureEnd(cancelled: false, time: 7)
        #expect(setup.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "swipe.begin(\(setup.surface.id), 3)", "swipe.update(4.5, -2.0)", "swipe.end(0)",
            ])
        let serials = setup.gestures.serials
        #expect(serials.count == 2 && serials[0] != 0 && serials[1] > serials[0], "begin and end carry new serials")
        #expect(setup.input.pointerGestureInProgress == nil)
    }

    @Test func aPinchCarriesItsScaleAndRotationAndAHoldHasNoUpdate() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.pinch, fingers: 2, time: 5)
        setup.input.pointerGestureUpdate(dx: 1, dy: 2, scale: 1.5, rotation: -10.25, time: 6)
        setup.input.pointerGestureEnd(cancelled: true, time: 7)
        setup.input.pointerGestureBegin(.hold, fingers: 1, time: 8)
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 9)
        setup.input.pointerGestureEnd(cancelled: false, time: 10)
        #expect(setup.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "pinch.begin(\(setup.surface.id), 2)", "pinch.update(1.0, 2.0, 1.5, -10.25)", "pinch.end(1)",
                "hold.begin(\(setup.surface.id), 1)", "hold.end(0)",
            ])
    }

    @Test func aGestureStaysWithItsSurfaceWhenThePointerMovesAway() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        let other = try GestureSetup(server: server, at: (300, 300))
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.swipe, fingers: 4, time: 5)
        setup.pointAt(310, 310)
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 6)
        setup.input.pointerGestureEnd(cancelled: false, time: 7)
        #expect(setup.client.roundtrip() && other.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "swipe.begin(\(setup.surface.id), 4)", "swipe.update(1.0, 1.0)", "swipe.end(0)",
            ])
        #expect(other.gestures.takeEvents().isEmpty)
    }

    @Test func aNewBeginEndsTheGestureInProgressAsCancelled() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
        setup.input.pointerGestureBegin(.pinch, fingers: 2, time: 6)
        setup.input.pointerGestureUpdate(dx: 0, dy: 0, scale: 2, time: 7)
        #expect(setup.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "swipe.begin(\(setup.surface.id), 3)", "swipe.end(1)", "pinch.begin(\(setup.surface.id), 2)",
                "pinch.update(0.0, 0.0, 2.0, 0.0)",
            ])
        #expect(setup.input.pointerGestureInProgress == .pinch)
    }

    @Test func nothingIsSentWithoutAPointerFocusOrToAnotherClient() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(10, 10)
        setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 6)
        setup.input.pointerGestureEnd(cancelled: false, time: 7)
        setup.input.pointerGestureEnd(cancelled: false, time: 8)
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 9)
        #expect(setup.client.roundtrip())
        #expect(setup.gestures.takeEvents().isEmpty)
    }

    @Test func absurdFingerCountsAndNumbersAreClampedOrDropped() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.pinch, fingers: .max, time: 5)
        setup.input.pointerGestureUpdate(dx: .nan, dy: 1, time: 6)
        setup.input.pointerGestureUpdate(dx: .infinity, dy: 1, time: 6)
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, scale: -.infinity, time: 6)
        setup.input.pointerGestureUpdate(dx: 1e300, dy: -1e300, scale: -5, rotation: 1e12, time: 7)
        setup.input.pointerGestureEnd(cancelled: false, time: 8)
        setup.input.pointerGestureBegin(.hold, fingers: 0, time: 9)
        #expect(setup.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "pinch.begin(\(setup.surface.id), 10)",
                "pinch.update(8388607.98828125, -8388608.0, 0.0, 8388607.98828125)", "pinch.end(0)",
                "hold.begin(\(setup.surface.id), 1)",
            ])
    }

    @Test func theDeathOfTheGestureSurfaceEndsItAsCancelled() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
        #expect(setup.client.roundtrip())
        _ = setup.gestures.takeEvents()
        wl_surface_destroy(setup.surface.surface)
        #expect(setup.client.roundtrip())
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 6)
        setup.input.pointerGestureEnd(cancelled: false, time: 7)
        #expect(setup.client.roundtrip())
        #expect(setup.gestures.takeEvents() == ["swipe.end(1)"])
    }

    @Test func aGestureObjectOfAReleasedPointerOrMadeMidGestureIsToldNothing() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        let first = try #require(setup.seat.pointer)
        // A second wl_pointer with its own swipe object, released before the gesture.
        let second = try #require(setup.seat.getPointer())
        let orphan = try #require(setup.gestures.swipe(pointer: second))
        wl_pointer_release(second)
        #expect(setup.client.roundtrip())
        setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
        // Made during the gesture: it saw no begin, so it gets no update or end.
        let late = try #require(setup.gestures.swipe(pointer: first))
        #expect(setup.client.roundtrip())
        setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 6)
        setup.input.pointerGestureEnd(cancelled: false, time: 7)
        #expect(setup.client.roundtrip())
        #expect(
            setup.gestures.takeEvents() == [
                "swipe.begin(\(setup.surface.id), 3)", "swipe.update(1.0, 1.0)", "swipe.end(0)",
            ])
        zwp_pointer_gesture_swipe_v1_destroy(orphan)
        zwp_pointer_gesture_swipe_v1_destroy(late)
        #expect(setup.client.roundtrip())
    }

    @Test func aVersionOneClientGetsSwipeAndPinchObjects() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let gestures = try TestPointerGestures(client: client, version: 1)
        let pointer = try #require(seat.getPointer())
        let swipe = try #require(gestures.swipe(pointer: pointer))
        let pinch = try #require(gestures.pinch(pointer: pointer))
        #expect(client.roundtrip())
        #expect(wl_proxy_get_version(swipe) == 1 && wl_proxy_get_version(pinch) == 1)
        zwp_pointer_gesture_swipe_v1_destroy(swipe)
        zwp_pointer_gesture_pinch_v1_destroy(pinch)
        zwp_pointer_gestures_v1_destroy(gestures.manager)
        #expect(client.roundtrip())
    }

    /// Objects destroyed in every order (manager, pointer, gestures; mid-gesture) leave nothing
    /// behind, and the gesture's end finds nothing dead.
    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1]])
    func gestureObjectsDestroyedInAnyOrderLeaveNothingBehind(order: [Int]) throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let setup = try GestureSetup(server: server)
            setup.pointAt(110, 110)
            setup.input.pointerGestureBegin(.swipe, fingers: 3, time: 5)
            #expect(setup.client.roundtrip())
            let pointer = try #require(setup.seat.pointer)
            let steps: [() -> Void] = [
                { zwp_pointer_gestures_v1_release(setup.gestures.manager) },
                { wl_pointer_release(pointer) },
                { zwp_pointer_gesture_swipe_v1_destroy(setup.swipe) },
                {
                    zwp_pointer_gesture_pinch_v1_destroy(setup.pinch); zwp_pointer_gesture_hold_v1_destroy(setup.hold)
                },
            ]
            for index in order {
                steps[index]()
                #expect(setup.client.roundtrip())
                setup.input.pointerGestureUpdate(dx: 1, dy: 1, time: 6)
            }
            setup.input.pointerGestureEnd(cancelled: false, time: 7)
            #expect(setup.client.roundtrip())
            #expect(setup.client.connectionError == 0)
        }
        server.expectLiveCounts(backAt: baseline)
    }

    /// 10,000 gesture requests: past the per-client cap the client is disconnected with
    /// no_memory; making and destroying them costs the same whatever was made before.
    @Test func aClientMakingTenThousandGestureObjectsIsStoppedAtItsBudget() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let seat = try TestSeat(client: client)
            let gestures = try TestPointerGestures(client: client)
            let pointer = try #require(seat.getPointer())
            var made = 0
            for index in 0..<10_000 {
                _ = zwp_pointer_gestures_v1_get_swipe_gesture(gestures.manager, pointer)
                made += 1
                if index % 100 == 99, !client.roundtrip() { break }
            }
            #expect(made < 10_000, "the client was stopped on the way")
            // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
            #expect(client.connectionError == ENOMEM)
        }
        server.expectLiveCounts(backAt: baseline)
    }

    @Test func aClientAtItsBudgetDestroyingItsGesturesInAnyOrderCanMakeThemAgain() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let gestures = try TestPointerGestures(client: client)
        let pointer = try #require(seat.getPointer())
        var made: [OpaquePointer] = []
        for _ in 0..<ClientBudget.maxPointerGesturesPerClient {
            made.append(try #require(zwp_pointer_gestures_v1_get_hold_gesture(gestures.manager, pointer)))
        }
        #expect(client.roundtrip())
        // Every other one, then the rest backwards: the slots are reused.
        for (index, gesture) in made.enumerated() where index % 2 == 0 { zwp_pointer_gesture_hold_v1_destroy(gesture) }
        for (index, gesture) in made.enumerated().reversed() where index % 2 == 1 {
            zwp_pointer_gesture_hold_v1_destroy(gesture)
        }
        #expect(client.roundtrip())
        for _ in 0..<ClientBudget.maxPointerGesturesPerClient {
            _ = zwp_pointer_gestures_v1_get_hold_gesture(gestures.manager, pointer)
        }
        #expect(client.roundtrip())
        #expect(client.connectionError == 0)
    }

    @Test func theSessionLockCancelsTheGestureInProgress() throws {
        let server = try TestServer()
        let setup = try GestureSetup(server: server)
        setup.pointAt(110, 110)
        setup.input.pointerGestureBegin(.hold, fingers: 2, time: 5)
        server.windows.lock()
        setup.input.pointerGestureEnd(cancelled: false, time: 6)
        #expect(setup.client.roundtrip())
        #expect(setup.gestures.takeEvents() == ["hold.begin(\(setup.surface.id), 2)", "hold.end(1)"])
    }
}
