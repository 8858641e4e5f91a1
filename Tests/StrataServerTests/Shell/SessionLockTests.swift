import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// A client window (a plain surface shown as a key window) with a seat, to see what it is given
/// while the session is locked.
final class LockBystander {
    // Released in this order: the buffer's proxy before its connection.
    let surface: TestSurface
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, argb: UInt32 = 0xffff_0000) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getPointer()
        seat.getKeyboard()
        seat.getTouch()
        surface = try client.makeSurface(width: 200, height: 200, argb: argb)
        self.seat = seat
        self.client = client
        client.showPlainSurface(surface, x: 0, y: 0)
        _ = seat.takeEvents()
    }
}

/// ext_session_lock_manager_v1 (`LockScreen`, `SessionLock`, `SessionLockSurface`).
@Suite struct SessionLockTests {
    static let lockBlue: UInt32 = 0xff00_00ff

    /// A locker that locked and shows a blue lock surface on every screen.
    static func lockedLocker(_ server: TestServer) throws -> (TestSessionLock, [TestLockSurface]) {
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        #expect(locker.events == ["locked"])
        let surfaces = locker.bindOutputs().compactMap { locker.showLockSurface(on: $0, argb: lockBlue) }
        return (locker, surfaces)
    }

    @Test func lockingSendsLockedAndTheKeyWindowResigns() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        let key = try #require(server.windows.keyWindow)
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        #expect(locker.events == ["locked"])
        #expect(server.windows.isLocked)
        #expect(server.windows.keyWindow == nil)
        #expect(!key.isKeyWindow)
        app.client.roundtrip()
        #expect(app.seat.takeEvents().contains(.keyboardLeave(surface: app.surface.id)))
    }

    @Test func aLockedScreenIsBlackUntilItsLockSurfaceIsDrawnAndThenShowsOnlyThat() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000)
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        #expect(server.pixel(x: 10, y: 10) == 0xff00_0000, "the window is not drawn")
        #expect(server.pixel(x: 400, y: 300) == 0xff00_0000, "no background either")
        let output = try #require(locker.bindOutputs().first)
        let lockSurface = try #require(locker.showLockSurface(on: output, argb: Self.lockBlue))
        #expect(lockSurface.configures.map { [$0.width, $0.height] } == [[640, 480]])
        #expect(server.pixel(x: 10, y: 10) == Self.lockBlue)
        #expect(server.pixel(x: 639, y: 479) == Self.lockBlue)
    }

    @Test func keysPointerAndTouchGoOnlyToTheLockSurface() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        let (locker, surfaces) = try Self.lockedLocker(server)
        let lockSurface = try #require(surfaces.first)
        let lockerSeat = try TestSeat(client: locker.client)
        lockerSeat.getPointer()
        lockerSeat.getKeyboard()
        lockerSeat.getTouch()
        locker.client.roundtrip()
        app.client.roundtrip()
        _ = app.seat.takeEvents()
        _ = lockerSeat.takeEvents()

        let seat: Seat = try #require(server.compositor.seat)
        let output = try #require(server.compositor.scene.outputs.first)
        seat.pointerMotion(on: output, x: 50, y: 50, time: 1)
        seat.pointerButton(0x110, pressed: true, time: 2)
        seat.pointerButton(0x110, pressed: false, time: 3)
        seat.key(KEY_A, pressed: true, time: 4)
        seat.key(KEY_A, pressed: false, time: 5)
        seat.touchDown(id: 1, on: output, x: 20, y: 20, time: 6)
        seat.touchUp(id: 1, time: 7)
        app.client.roundtrip()
        locker.client.roundtrip()
        #expect(app.seat.takeEvents() == [])
        let events = lockerSeat.takeEvents()
        #expect(events.contains(.pointerEnter(surface: lockSurface.id, x: 50, y: 50)))
        #expect(events.contains(.pointerButton(button: 0x110, pressed: true)))
        #expect(events.contains(.key(key: KEY_A, pressed: true)))
        #expect(events.contains(.touchDown(surface: lockSurface.id, id: 1, x: 20, y: 20)))
        #expect(server.compositor.seat.keyboardFocus?.client == locker.client.serverClient)
    }

    @Test func unlockingRestoresTheKeyWindowAndItsPicture() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        let key = try #require(server.windows.keyWindow)
        let (locker, _) = try Self.lockedLocker(server)
        #expect(server.pixel(x: 10, y: 10) == Self.lockBlue)
        locker.unlockAndDestroy()
        locker.client.roundtrip()
        #expect(!server.windows.isLocked)
        #expect(server.windows.keyWindow === key)
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000)
        #expect(server.pixel(x: 400, y: 300) == TestServer.background)
        app.client.roundtrip()
        #expect(app.seat.takeEvents().contains(.keyboardEnter(surface: app.surface.id, keys: [])))
    }

    @Test func aSecondLockerIsFinishedWhileTheFirstHoldsTheLock() throws {
        let server = try TestServer()
        let (first, _) = try Self.lockedLocker(server)
        let second = try TestSessionLock(client: try TestClient(server: server))
        second.client.roundtrip()
        #expect(second.events == ["finished"])
        // A finished lock is destroyed with destroy, and its lock surfaces are never shown.
        let output = try #require(second.bindOutputs().first)
        let green = try #require(second.showLockSurface(on: output, argb: 0xff00_ff00))
        #expect(server.pixel(x: 10, y: 10) == Self.lockBlue)
        green.destroy()
        second.destroy()
        #expect(second.client.roundtrip())
        #expect(first.client.roundtrip())
        #expect(server.windows.isLocked)
    }

    @Test func aLockerThatDiesLeavesTheScreensBlackUntilANewLockerLocksAndUnlocks() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        let key = try #require(server.windows.keyWindow)
        do {
            let (locker, _) = try Self.lockedLocker(server)
            #expect(server.pixel(x: 10, y: 10) == Self.lockBlue)
            _ = locker
        }
        #expect(server.waitForClients(1), "the locker's hang-up is seen")
        #expect(server.windows.isLocked)
        #expect(server.windows.keyWindow == nil)
        #expect(server.pixel(x: 10, y: 10) == 0xff00_0000)
        server.compositor.seat.key(KEY_A, pressed: true, time: 1)
        server.compositor.seat.key(KEY_A, pressed: false, time: 2)
        app.client.roundtrip()
        #expect(!app.seat.takeEvents().contains { if case .key = $0 { return true } else { return false } })

        let (rescuer, _) = try Self.lockedLocker(server)
        #expect(server.pixel(x: 10, y: 10) == Self.lockBlue)
        rescuer.unlockAndDestroy()
        rescuer.client.roundtrip()
        #expect(!server.windows.isLocked)
        #expect(server.windows.keyWindow === key)
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000)
    }

    @Test func aScreenConnectedWhileLockedStaysBlackUntilItGetsALockSurface() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        let (locker, _) = try Self.lockedLocker(server)
        let added = try #require(
            server.compositor.connectScreen(
                name: "EXTRA", modes: [ScreenMode(width: 320, height: 200)], backendName: "test"))
        locker.client.roundtrip()
        #expect(server.pixel(x: 5, y: 5, screen: 1) == 0xff00_0000)
        // Windows moved onto the new screen are not drawn either.
        if let window = server.windows.windows.first {
            server.windows.move(window, to: added.screen, origin: Point(x: 0, y: 0))
        }
        #expect(server.pixel(x: 5, y: 5, screen: 1) == 0xff00_0000)
        let outputs = locker.bindOutputs()
        #expect(outputs.count == 2)
        let lockSurface = try #require(locker.showLockSurface(on: outputs[1], argb: 0xff00_ff00))
        #expect(lockSurface.configures.last.map { [$0.width, $0.height] } == [320, 200])
        #expect(server.pixel(x: 5, y: 5, screen: 1) == 0xff00_ff00)
        #expect(server.pixel(x: 5, y: 5, screen: 0) == Self.lockBlue)
    }

    @Test func whenTheScreenWhoseLockSurfaceHasTheKeysGoesTheKeysGoToAnotherScreensLockSurface() throws {
        let server = try TestServer(screens: 2)
        let (locker, surfaces) = try Self.lockedLocker(server)
        #expect(surfaces.count == 2)
        let first = try #require(server.compositor.surface(of: locker.client.serverClient, id: surfaces[0].id))
        let second = try #require(server.compositor.surface(of: locker.client.serverClient, id: surfaces[1].id))
        #expect(server.compositor.seat.keyboardFocus === first)
        server.compositor.disconnectScreen(server.compositor.scene.outputs[0])
        locker.client.roundtrip()
        #expect(server.compositor.seat.keyboardFocus === second)
        #expect(server.pixel(x: 5, y: 5, screen: 0) == Self.lockBlue)
    }

    @Test func aScreenThatChangesSizeReconfiguresItsLockSurface() throws {
        let server = try TestServer()
        let (locker, surfaces) = try Self.lockedLocker(server)
        let lockSurface = try #require(surfaces.first)
        let screen = try #require(server.windows.mainScreen)
        server.windows.setScale(2, for: screen)
        locker.client.roundtrip()
        #expect(lockSurface.configures.last.map { [$0.width, $0.height] } == [320, 240])
        #expect(lockSurface.ackAndDraw(argb: 0xff00_ff00))
        #expect(locker.client.roundtrip())
    }

    @Test func noWindowBecomesKeyWhileLockedEvenWhenItAsks() throws {
        let server = try TestServer()
        let (holder, _) = try Self.lockedLocker(server)
        defer { withExtendedLifetime(holder) {} }
        let late = try LockBystander(server)
        defer { withExtendedLifetime(late) {} }
        #expect(server.windows.keyWindow == nil)
        late.client.roundtrip()
        #expect(!late.seat.takeEvents().contains { if case .keyboardEnter = $0 { return true } else { return false } })
    }

    @Test func theManagerIsOfferedToUnprivilegedClients() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .nobody
        #expect(try TestClient(server: server).globals["ext_session_lock_manager_v1"] != nil)
    }

    // MARK: The spec's errors

    @Test func destroyAfterLockedIsInvalidDestroy() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        locker.destroy()
        #expect(!locker.client.roundtrip())
        // (The proxy is gone with the destructor: the error names no interface on the client.)
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY.rawValue)
        #expect(server.windows.isLocked, "a locker that errs is one that died")
    }

    @Test func unlockWithoutLockedIsInvalidUnlock() throws {
        let server = try TestServer()
        let (holder, _) = try Self.lockedLocker(server)
        defer { withExtendedLifetime(holder) {} }
        let second = try TestSessionLock(client: try TestClient(server: server))
        second.client.roundtrip()
        #expect(second.events == ["finished"])
        second.unlockAndDestroy()
        #expect(!second.client.roundtrip())
        #expect(second.client.protocolError?.code == EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK.rawValue)
        #expect(server.windows.isLocked)
    }

    @Test func aSurfaceWithARoleIsRefused() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        let surface = try #require(locker.makeSurface())
        _ = locker.lockSurface(surface, output: output)
        locker.client.roundtrip()
        let outputs = locker.bindOutputs()
        _ = locker.lockSurface(surface, output: try #require(outputs.first))
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_V1_ERROR_ROLE.rawValue)
    }

    @Test func aSecondLockSurfaceOnOneScreenIsDuplicateOutput() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        _ = locker.newLockSurface(output: output)
        _ = locker.newLockSurface(output: output)
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT.rawValue)
    }

    @Test func aSurfaceWithABufferIsAlreadyConstructed() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        let drawn = try locker.client.makeSurface(width: 10, height: 10)
        _ = locker.lockSurface(drawn.surface, output: output)
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED.rawValue)
    }

    @Test func aCommitBeforeTheFirstAckIsAnError() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        let lockSurface = try #require(locker.newLockSurface(output: output))
        locker.client.roundtrip()
        wl_surface_commit(lockSurface.surface)
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK.rawValue)
        #expect(locker.client.protocolError?.interface == "ext_session_lock_surface_v1")
    }

    @Test func aCommitWithoutABufferIsNullBuffer() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        let lockSurface = try #require(locker.newLockSurface(output: output))
        locker.client.roundtrip()
        lockSurface.ack()
        wl_surface_commit(lockSurface.surface)
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER.rawValue)
    }

    @Test func aBufferOfAnotherSizeIsDimensionsMismatch() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        let output = try #require(locker.bindOutputs().first)
        let lockSurface = try #require(locker.newLockSurface(output: output))
        locker.client.roundtrip()
        lockSurface.ack()
        lockSurface.draw(width: 639, height: 480, argb: Self.lockBlue)
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH.rawValue)
        for _ in 0..<3 { server.step() }
        #expect(server.pixel(x: 10, y: 10) == 0xff00_0000, "the wrong-sized picture is never shown")
    }

    @Test func anUnknownOrRepeatedSerialIsInvalidSerial() throws {
        let server = try TestServer()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        let output = try #require(locker.bindOutputs().first)
        let lockSurface = try #require(locker.newLockSurface(output: output))
        locker.client.roundtrip()
        lockSurface.ack()
        #expect(locker.client.roundtrip())
        lockSurface.ack()
        #expect(!locker.client.roundtrip())
        #expect(locker.client.protocolError?.code == EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL.rawValue)
    }

    // MARK: Hostile lockers

    @Test func lockUnlockStormsLeaveNothingBehindAndTheKeyWindowKey() throws {
        let server = try TestServer()
        let app = try LockBystander(server)
        defer { withExtendedLifetime(app) {} }
        let key = try #require(server.windows.keyWindow)
        server.step()
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        locker.unlockAndDestroy()
        let manager = try locker.client.bind(ext_session_lock_manager_v1_interface_ptr(), version: 1)
        for round in 0..<200 {
            guard let lock = ext_session_lock_manager_v1_lock(manager) else { break }
            if round % 2 == 0 {
                ext_session_lock_v1_unlock_and_destroy(lock)  // locked at once: a legal unlock
            } else if let surface = locker.makeSurface(), let outputs = Optional(locker.bindOutputs()),
                let output = outputs.first,
                let lockSurface = ext_session_lock_v1_get_lock_surface(lock, surface, output)
            {
                ext_session_lock_v1_unlock_and_destroy(lock)
                ext_session_lock_surface_v1_destroy(lockSurface)
                wl_surface_destroy(surface)
                for output in outputs { wl_output_release(output) }
            }
        }
        #expect(locker.client.roundtrip())
        #expect(!server.windows.isLocked)
        #expect(server.windows.keyWindow === key)
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000)
        app.client.roundtrip()
        #expect(server.compositor.seat.keyboardFocus?.client == app.client.serverClient)
    }

    @Test func aLockerDyingMidConfigureLeavesTheSessionLockedAndNothingBehind() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let locker = try TestSessionLock(client: try TestClient(server: server))
            let output = try #require(locker.bindOutputs().first)
            _ = locker.newLockSurface(output: output)
            locker.client.roundtrip()
            _ = locker
        }
        #expect(server.waitForClients(0), "the locker's hang-up is seen")
        #expect(server.windows.isLocked)
        #expect(server.pixel(x: 10, y: 10) == 0xff00_0000)
        // A new locker takes over and unlocks.
        do {
            let (rescuer, _) = try Self.lockedLocker(server)
            rescuer.unlockAndDestroy()
            rescuer.client.roundtrip()
            _ = rescuer
        }
        #expect(server.waitForClients(0), "the rescuer's hang-up is seen")
        #expect(!server.windows.isLocked)
        #expect(server.liveCounts == baseline)
    }

    @Test func lockSurfacesOnAScreenThatIsGoneAreInertAndCapped() throws {
        let server = try TestServer(screens: 2)
        let locker = try TestSessionLock(client: try TestClient(server: server))
        locker.client.roundtrip()
        let outputs = locker.bindOutputs()
        #expect(outputs.count == 2)
        locker.client.roundtrip()
        server.compositor.disconnectScreen(server.compositor.scene.outputs[1])
        for index in 0..<ClientBudget.maxLockSurfacesPerLock {
            let surface = try #require(locker.makeSurface())
            let lockSurface = try #require(locker.lockSurface(surface, output: outputs[1]))
            if index == 0 {
                // Inert: never configured, its commits are not checked.
                wl_surface_commit(surface)
                #expect(locker.client.roundtrip())
                #expect(lockSurface.configures.isEmpty)
            }
        }
        #expect(locker.client.roundtrip())
        _ = locker.newLockSurface(output: outputs[0])
        #expect(!locker.client.roundtrip())
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
        #expect(locker.client.connectionError == ENOMEM)
    }
}
