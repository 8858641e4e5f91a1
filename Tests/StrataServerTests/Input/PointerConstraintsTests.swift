import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// What a zwp_locked_pointer_v1 / zwp_confined_pointer_v1 was told, in order.
final class ConstraintRecord {
    var events: [String] = []
}

/// zwp_pointer_constraints_v1: a constraint is in effect while its surface has the pointer focus
/// and its window is key; a lock stops the pointer (relative motion still flows), a confinement
/// keeps it in the region.
@Suite struct PointerConstraintsTests {
    static var lockedListener = zwp_locked_pointer_v1_listener(
        locked: { data, _ in record(data)?.events.append("locked") },
        unlocked: { data, _ in record(data)?.events.append("unlocked") })
    static var confinedListener = zwp_confined_pointer_v1_listener(
        confined: { data, _ in record(data)?.events.append("confined") },
        unconfined: { data, _ in record(data)?.events.append("unconfined") })
    static func record(_ data: UnsafeMutableRawPointer?) -> ConstraintRecord? {
        data.map { Unmanaged<ConstraintRecord>.fromOpaque($0).takeUnretainedValue() }
    }

    /// A client with a 100×100 key window at (100, 100), the pointer at (150, 150) over it.
    /// (Properties are released in this order: the seat before its client, the client before
    /// its server.)
    final class ConstraintSetup {
        let record = ConstraintRecord()
        let window: TestSurface
        let constraints: OpaquePointer
        let fixture: ClientFixture
        var seat: TestSeat { fixture.seat }
        var client: TestClient { fixture.client }
        var server: TestServer { fixture.server }
        var output: ScreenOutput { fixture.output }

        init(pointerAt point: (Double, Double) = (150, 150)) throws {
            fixture = try ClientFixture()
            let seat = fixture.seat
            seat.getPointer()
            seat.getKeyboard()
            seat.getTouch()
            window = try fixture.showSurface(width: 100, height: 100, x: 100, y: 100)
            constraints = try fixture.client.bind(zwp_pointer_constraints_v1_interface_ptr(), version: 1)
            fixture.pointAt(point.0, point.1)
            _ = seat.takeEvents()
        }

        func lock(
            _ surface: OpaquePointer? = nil, region: OpaquePointer? = nil,
            lifetime: zwp_pointer_constraints_v1_lifetime = ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT
        ) -> OpaquePointer? {
            let locked = zwp_pointer_constraints_v1_lock_pointer(
                constraints, surface ?? window.surface, seat.pointer, region, lifetime.rawValue)
            zwp_locked_pointer_v1_add_listener(
                locked, &PointerConstraintsTests.lockedListener, Unmanaged.passUnretained(record).toOpaque())
            return locked
        }

        func confine(
            region: OpaquePointer? = nil,
            lifetime: zwp_pointer_constraints_v1_lifetime = ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT
        ) -> OpaquePointer? {
            let confined = zwp_pointer_constraints_v1_confine_pointer(
                constraints, window.surface, seat.pointer, region, lifetime.rawValue)
            zwp_confined_pointer_v1_add_listener(
                confined, &PointerConstraintsTests.confinedListener, Unmanaged.passUnretained(record).toOpaque())
            return confined
        }

        func region(_ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32) throws -> OpaquePointer? {
            let compositor = try client.bind(wl_compositor_interface_ptr(), version: 5)
            let region = wl_compositor_create_region(compositor)
            wl_region_add(region, x, y, width, height)
            return region
        }

        func move(toX x: Double, y: Double) {
            server.compositor.seat.pointerMotion(on: output, x: x, y: y, time: 2)
            client.roundtrip()
        }

        var position: (Double, Double)? { server.compositor.seat.pointerPosition.map { ($0.x, $0.y) } }
    }

    @Test func aLockOnTheFocusedKeySurfaceIsLockedAtOnce() throws {
        let setup = try ConstraintSetup()
        _ = setup.lock()
        setup.client.roundtrip()
        #expect(setup.record.events == ["locked"])
        #expect(setup.server.compositor.seat.pointerConstraint?.locked == true)
    }

    @Test func aLockedPointerStaysWhileRelativeMotionFlows() throws {
        let setup = try ConstraintSetup()
        let relatives = RelativeRecord()
        let manager = try setup.client.bind(zwp_relative_pointer_manager_v1_interface_ptr(), version: 1)
        let relative = zwp_relative_pointer_manager_v1_get_relative_pointer(manager, setup.seat.pointer)
        zwp_relative_pointer_v1_add_listener(
            relative, &RelativePointerTests.listener, Unmanaged.passUnretained(relatives).toOpaque())
        _ = setup.lock()
        setup.client.roundtrip()
        _ = setup.seat.takeEvents()
        setup.move(toX: 160, y: 170)
        setup.server.compositor.seat.pointerMotion(dx: 5, dy: -3, time: 3)
        setup.client.roundtrip()
        #expect(setup.position.map { $0 == (150, 150) } == true, "the pointer did not move")
        #expect(!setup.seat.takeEvents().contains { if case .pointerMotion = $0 { return true } else { return false } })
        #expect(relatives.motions.map { [$0.dx, $0.dy] } == [[10, 20], [5, -3]])
    }

    @Test func aVirtualPointersMotionUnderALockIsRelativeMotionOnly() throws {
        let setup = try ConstraintSetup()
        let relatives = RelativeRecord()
        let manager = try setup.client.bind(zwp_relative_pointer_manager_v1_interface_ptr(), version: 1)
        let relative = zwp_relative_pointer_manager_v1_get_relative_pointer(manager, setup.seat.pointer)
        zwp_relative_pointer_v1_add_listener(
            relative, &RelativePointerTests.listener, Unmanaged.passUnretained(relatives).toOpaque())
        _ = setup.lock()
        setup.client.roundtrip()
        let virtualManager = try setup.client.bind(zwlr_virtual_pointer_manager_v1_interface_ptr(), version: 2)
        let pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(virtualManager, nil)
        for _ in 0..<3 {
            zwlr_virtual_pointer_v1_motion(pointer, 0, wl_fixed_from_double(4), wl_fixed_from_double(-2))
            zwlr_virtual_pointer_v1_frame(pointer)
        }
        setup.client.roundtrip()
        #expect(setup.position.map { $0 == (150, 150) } == true)
        #expect(relatives.motions.map { [$0.dx, $0.dy] } == [[4, -2], [4, -2], [4, -2]])
    }

    @Test func aConfinedPointerIsClampedToItsRegion() throws {
        let setup = try ConstraintSetup()
        let region = try setup.region(10, 10, 50, 50)
        _ = setup.confine(region: region)
        setup.client.roundtrip()
        #expect(setup.record.events == ["confined"])
        _ = setup.seat.takeEvents()
        setup.move(toX: 400, y: 400)
        #expect(setup.position.map { $0 == (159, 159) } == true)
        #expect(setup.seat.takeEvents().contains(.pointerMotion(x: 59, y: 59)))
        setup.server.compositor.seat.pointerMotion(dx: -500, dy: 0, time: 3)
        setup.client.roundtrip()
        #expect(setup.position.map { $0 == (110, 159) } == true)
        setup.move(toX: 130, y: 130)
        #expect(setup.position.map { $0 == (130, 130) } == true, "inside the region the pointer moves freely")
    }

    @Test func aConfinedPointerDoesNotLeaveItsScreen() throws {
        let setup = try ConstraintSetup()
        let second = try #require(setup.server.backend.addScreen(to: setup.server.compositor))
        _ = setup.confine()
        setup.client.roundtrip()
        setup.server.compositor.seat.pointerMotion(on: second, x: 10, y: 10, time: 3)
        setup.client.roundtrip()
        let p = try #require(setup.server.compositor.seat.pointerPosition)
        #expect(p.output === setup.output && p.x == 150 && p.y == 150)
    }

    @Test func aLockOnAnUnfocusedSurfaceWaitsUntilThePointerAndKeyComeToIt() throws {
        let setup = try ConstraintSetup(pointerAt: (20, 20))
        _ = setup.lock()
        setup.client.roundtrip()
        #expect(setup.record.events.isEmpty)
        setup.move(toX: 150, y: 150)
        #expect(setup.record.events == ["locked"])
    }

    @Test func aOneShotLockEndsForGoodWhenItsWindowResignsKey() throws {
        let setup = try ConstraintSetup()
        _ = setup.lock()
        setup.client.roundtrip()
        let other = try setup.client.makeSurface(width: 10, height: 10)
        setup.client.showPlainSurface(other, x: 400, y: 400)
        #expect(setup.record.events == ["locked", "unlocked"])
        let focus = try #require(setup.server.compositor.seat.pointerFocus)
        setup.server.windows.makeKey(try #require(setup.server.compositor.scene.window(showing: focus)))
        setup.client.roundtrip()
        #expect(setup.record.events == ["locked", "unlocked"], "a one-shot lock does not come back")
        #expect(setup.server.compositor.seat.pointerConstraint == nil)
    }

    @Test func aPersistentConfinementComesBackWhenItsWindowIsKeyAgain() throws {
        let setup = try ConstraintSetup()
        _ = setup.confine(lifetime: ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT)
        setup.client.roundtrip()
        let other = try setup.client.makeSurface(width: 10, height: 10)
        let otherWindow = try #require(setup.client.showPlainSurface(other, x: 400, y: 400))
        #expect(setup.record.events == ["confined", "unconfined"])
        let focus = try #require(setup.server.compositor.seat.pointerFocus)
        let window = try #require(setup.server.compositor.scene.window(showing: focus))
        setup.server.windows.makeKey(window)
        setup.client.roundtrip()
        #expect(setup.record.events == ["confined", "unconfined", "confined"])
        setup.server.windows.makeKey(otherWindow)
        setup.client.roundtrip()
        #expect(setup.record.events == ["confined", "unconfined", "confined", "unconfined"])
    }

    @Test func leavingTheSurfaceEndsTheConstraint() throws {
        let setup = try ConstraintSetup()
        _ = setup.confine(
            region: try setup.region(0, 0, 100, 100), lifetime: ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT)
        setup.client.roundtrip()
        // Another window appears under the pointer without taking key: the focus leaves.
        let other = try TestClient(server: setup.server)
        let cover = try other.makeSurface(width: 50, height: 50)
        other.showPlainSurface(cover, x: 140, y: 140, makeKey: false)
        setup.client.roundtrip()
        #expect(setup.record.events == ["confined", "unconfined"])
    }

    @Test func aSecondConstraintOnOneSurfaceIsAnAlreadyConstrainedError() throws {
        let setup = try ConstraintSetup()
        _ = setup.lock()
        _ = setup.confine()
        #expect(!setup.client.roundtrip())
        #expect(setup.client.protocolError?.code == ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue)
        #expect(setup.client.protocolError?.interface == "zwp_pointer_constraints_v1")
    }

    @Test func aNewConstraintIsAllowedOnceTheOldOneIsDestroyed() throws {
        let setup = try ConstraintSetup()
        let locked = setup.lock()
        setup.client.roundtrip()
        zwp_locked_pointer_v1_destroy(locked)
        _ = setup.confine()
        #expect(setup.client.roundtrip())
        #expect(setup.record.events == ["locked", "confined"])
    }

    @Test func anUnknownLifetimeIsAnError() throws {
        let setup = try ConstraintSetup()
        _ = zwp_pointer_constraints_v1_lock_pointer(setup.constraints, setup.window.surface, setup.seat.pointer, nil, 7)
        #expect(!setup.client.roundtrip())
        // The protocol names no error for an unknown enum value: wl_display's invalid_method, on
        // the object that got the request.
        #expect(setup.client.protocolError?.code == WL_DISPLAY_ERROR_INVALID_METHOD.rawValue)
        #expect(setup.client.protocolError?.interface == "zwp_pointer_constraints_v1")
    }

    @Test func theCursorPositionHintIsAppliedWhenTheLockEnds() throws {
        let setup = try ConstraintSetup()
        let locked = setup.lock()
        setup.client.roundtrip()
        zwp_locked_pointer_v1_set_cursor_position_hint(locked, wl_fixed_from_double(20), wl_fixed_from_double(30))
        wl_surface_commit(setup.window.surface)
        setup.client.roundtrip()
        #expect(setup.position.map { $0 == (150, 150) } == true, "the hint waits for the end of the lock")
        zwp_locked_pointer_v1_destroy(locked)
        setup.client.roundtrip()
        #expect(setup.position.map { $0 == (120, 130) } == true)
    }

    @Test func aLockRegionAppliesWithTheSurfaceCommit() throws {
        let setup = try ConstraintSetup()
        let locked = setup.lock(region: try setup.region(0, 0, 10, 10))
        setup.client.roundtrip()
        #expect(setup.record.events.isEmpty, "the pointer is outside the region")
        zwp_locked_pointer_v1_set_region(locked, nil)
        setup.client.roundtrip()
        #expect(setup.record.events.isEmpty, "set_region waits for the commit")
        wl_surface_commit(setup.window.surface)
        setup.client.roundtrip()
        #expect(setup.record.events == ["locked"])
    }

    @Test func objectsDestroyedInAnyOrderLeaveAnInertConstraint() throws {
        let setup = try ConstraintSetup()
        let locked = setup.lock()
        setup.client.roundtrip()
        wl_surface_destroy(setup.window.surface)
        setup.client.roundtrip()
        zwp_locked_pointer_v1_set_cursor_position_hint(locked, 0, 0)
        zwp_locked_pointer_v1_set_region(locked, nil)
        setup.move(toX: 10, y: 10)
        zwp_locked_pointer_v1_destroy(locked)
        #expect(setup.client.roundtrip())
        #expect(setup.position.map { $0 == (10, 10) } == true)
    }
}
