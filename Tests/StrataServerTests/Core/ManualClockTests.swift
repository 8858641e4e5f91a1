import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `--clock manual`: a virtual clock from 0, frames only when stepped, the same times and
/// pictures in two runs of the same clients.
@Suite struct ManualClockTests {
    /// What one run of the scripted client saw and drew.
    struct RunResult: Equatable {
        var callbackTimes: [UInt32]
        var presentedTimes: [UInt64]
        var pixels: [UInt32]
        var frames: Int
    }

    /// A client that redraws at every frame callback with a colour made from the callback's
    /// time, under a manual clock stepped `steps` times; what it saw and the screen's pixels.
    func scriptedRun(steps: Int) throws -> RunResult {
        let server = try TestServer(width: 64, height: 48, clock: .manual)
        let client = try TestClient(server: server)
        let surface = try client.makeSurface(width: 32, height: 24, argb: 0xff10_2030)
        client.showPlainSurface(surface, x: 8, y: 4)
        var result = RunResult(callbackTimes: [], presentedTimes: [], pixels: [], frames: 0)
        var callback: TestFrameCallback?
        func redraw(time: UInt32) {
            surface.buffer.fill(x: 0, y: 0, width: 32, height: 12, 0xff00_0000 | (time &* 2654435761 & 0xffffff))
            callback = TestFrameCallback(surface: surface.surface)
            callback?.onDone = {
                guard let done = callback else { return }
                result.callbackTimes.append(done.time)
                redraw(time: done.time)
            }
            wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
            wl_surface_damage_buffer(surface.surface, 0, 0, 32, 12)
            wl_surface_commit(surface.surface)
        }
        redraw(time: 0)
        client.roundtrip()
        for _ in 0..<steps {
            server.compositor.clock.step(frames: 1)
            result.presentedTimes.append(server.compositor.scene.outputs[0].lastFrameNanoseconds)
            // The callback arrives in this roundtrip; the redraw it causes reaches Strata in the next.
            client.roundtrip()
            client.roundtrip()
        }
        let canvas = server.compositor.scene.outputs[0].canvas
        for y in 0..<canvas.height {
            for x in 0..<canvas.width { result.pixels.append(canvas.pixel(x: x, y: y) ?? 0) }
        }
        result.frames = server.compositor.scene.outputs[0].frames
        callback = nil
        return result
    }

    @Test func nothingIsPaintedOrCalledBackUntilTheClockIsStepped() throws {
        let server = try TestServer(width: 64, height: 48, clock: .manual)
        let client = try TestClient(server: server)
        let surface = try client.makeSurface(width: 16, height: 16, argb: 0xffff_0000)
        client.showPlainSurface(surface, x: 0, y: 0)
        let callback = try #require(TestFrameCallback(surface: surface.surface))
        wl_surface_commit(surface.surface)
        client.roundtrip()
        // A real frame clock would have ticked by now; the manual one waits.
        _ = server.run(seconds: 0.1)
        client.roundtrip()
        #expect(!callback.isDone)
        #expect(server.compositor.scene.outputs[0].frames == 0)
        #expect(server.compositor.clock.nanoseconds == 0)
        let time = server.compositor.clock.step(frames: 1)
        client.roundtrip()
        #expect(time == 16_666_667, "one frame at 60 Hz")
        #expect(callback.isDone)
        #expect(callback.time == 16)
        #expect(server.compositor.scene.outputs[0].frames == 1)
        #expect(server.compositor.scene.outputs[0].canvas.pixel(x: 4, y: 4) == 0xffff_0000)
    }

    @Test func twoRunsOfTheSameClientGiveIdenticalTimesAndPixels() throws {
        let first = try scriptedRun(steps: 6)
        let second = try scriptedRun(steps: 6)
        #expect(first == second)
        #expect(first.callbackTimes == [16, 33, 50, 66, 83, 100])
        #expect(first.presentedTimes == (1...6).map { UInt64($0) * 16_666_667 })
        #expect(first.frames == 6)
    }

    @Test func aStepWithNoFrameWantedStillMovesTheClockByOneFrame() throws {
        let server = try TestServer(width: 64, height: 48, clock: .manual)
        // A headless screen paints nothing until something needs it (docs/performance.md,
        // "Start-up"); the clock moves anyway.
        #expect(!server.compositor.scene.outputs[0].isFrameScheduled)
        // (Each expected time is a constant: Swift Testing's capture of `UInt64? == a + b` reads
        // past its operand under AddressSanitizer.)
        let period: UInt64 = 16_666_667
        let first = server.compositor.clock.step(frames: 1)
        #expect(first == period)
        server.compositor.scene.damageAll(server.compositor.scene.outputs[0])
        // The frame a damage asks for is due at once (a period has passed since the last one).
        let due = period + 1
        let second = server.compositor.clock.step(frames: 1)
        #expect(second == due)
        #expect(server.compositor.scene.outputs[0].frames == 1)
        #expect(!server.compositor.scene.outputs[0].isFrameScheduled)
        let time = server.compositor.clock.step(frames: 3)
        let afterThree = due + 3 * period
        #expect(time == afterThree)
        #expect(server.compositor.scene.outputs[0].frames == 1, "no frame without damage or callbacks")
    }

    @Test func inputEventsCarryTheVirtualTime() throws {
        let server = try TestServer(width: 64, height: 48, clock: .manual)
        server.compositor.clock.step(frames: 5)
        #expect(server.compositor.clock.milliseconds == 83)
        #expect(server.compositor.clock.microseconds == 83_333)
        #expect(server.compositor.clock.secondsAndNanoseconds.nanoseconds == 83_333_335)
    }

    @Test func theRealtimeClockCannotBeStepped() throws {
        let server = try TestServer(width: 64, height: 48)
        #expect(server.compositor.clock.step(frames: 1) == nil)
        #expect(server.compositor.clock.nanoseconds > 0)
    }
}
