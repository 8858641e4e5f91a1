import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// What one wp_presentation_feedback heard.
final class FeedbackRecord {
    var syncOutputs = 0
    var presented: (seconds: UInt64, nanoseconds: UInt32, refresh: UInt32, sequence: UInt64, flags: UInt32)?
    var discarded = false
}

final class ClockRecord {
    var clock: UInt32?
}

/// wp_presentation: CLOCK_MONOTONIC, presented with the frame's time, discarded when replaced.
@Suite struct PresentationTests {
    static var presentationListener = wp_presentation_listener(clock_id: { data, _, clock in
        guard let data else { return }
        Unmanaged<ClockRecord>.fromOpaque(data).takeUnretainedValue().clock = clock
    })
    static var feedbackListener = wp_presentation_feedback_listener(
        sync_output: { data, _, _ in
            guard let data else { return }
            Unmanaged<FeedbackRecord>.fromOpaque(data).takeUnretainedValue().syncOutputs += 1
        },
        presented: { data, _, secHi, secLo, nsec, refresh, seqHi, seqLo, flags in
            guard let data else { return }
            Unmanaged<FeedbackRecord>.fromOpaque(data).takeUnretainedValue().presented =
                (UInt64(secHi) << 32 | UInt64(secLo), nsec, refresh, UInt64(seqHi) << 32 | UInt64(seqLo), flags)
        },
        discarded: { data, _ in
            guard let data else { return }
            Unmanaged<FeedbackRecord>.fromOpaque(data).takeUnretainedValue().discarded = true
        })

    /// Asks feedback for the surface's next commit; the record is kept alive by the test.
    func feedback(_ presentation: OpaquePointer, _ surface: OpaquePointer, record: FeedbackRecord) {
        let feedback = wp_presentation_feedback(presentation, surface)
        wp_presentation_feedback_add_listener(
            feedback, &Self.feedbackListener, Unmanaged.passUnretained(record).toOpaque())
    }

    /// A 20×20 surface shown and painted once, and a feedback asked for its next commit (the
    /// client bound to wl_output first when `bindingOutput`).
    func shownSurfaceAwaitingFeedback(on server: TestServer, bindingOutput: Bool = false) throws -> (
        TestClient, TestSurface, FeedbackRecord
    ) {
        let client = try TestClient(server: server)
        if bindingOutput { _ = try client.bind(wl_output_interface_ptr(), version: 4) }
        let presentation = try client.bind(wp_presentation_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 20, height: 20, argb: Colour.red)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.repaint()
        let record = FeedbackRecord()
        feedback(presentation, surface.surface, record: record)
        return (client, surface, record)
    }

    /// The surface's whole buffer attached, damaged and committed again.
    func commitWholeBuffer(_ surface: TestSurface) {
        wl_surface_attach(surface.surface, surface.buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface.surface, 0, 0, surface.buffer.width, surface.buffer.height)
        wl_surface_commit(surface.surface)
    }

    @Test func theClockIsMonotonic() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let presentation = try client.bind(wp_presentation_interface_ptr(), version: 1)
        let clock = ClockRecord()
        wp_presentation_add_listener(
            presentation, &Self.presentationListener, Unmanaged.passUnretained(clock).toOpaque())
        client.roundtrip()
        #expect(clock.clock == UInt32(CLOCK_MONOTONIC))
    }

    @Test func aShownCommitIsPresentedWithTheFramesTimeAndItsOutput() throws {
        // The manual clock: no frame can come while the client round-trips (under the realtime
        // clock a loaded machine lets the frame timer fire first), and the frame's time is known.
        let server = try TestServer(clock: .manual)
        server.compositor.clock.step(frames: 3)
        let (client, surface, record) = try shownSurfaceAwaitingFeedback(on: server, bindingOutput: true)
        surface.buffer.fill(Colour.blue)
        commitWholeBuffer(surface)
        client.roundtrip()
        #expect(record.presented == nil, "not before the frame")
        let frameTime = server.compositor.clock.nanoseconds
        server.repaint()
        client.roundtrip()
        let presented = try #require(record.presented)
        let time = presented.seconds * 1_000_000_000 + UInt64(presented.nanoseconds)
        let threeFrames: UInt64 = 3 * 16_666_667
        #expect(time == frameTime)
        #expect(time == threeFrames)
        #expect(presented.refresh == 16_666_667, "60 Hz, to the nanosecond")
        #expect(presented.sequence == UInt64(server.compositor.scene.outputs[0].frames))
        #expect(presented.flags == 0)
        #expect(record.syncOutputs == 1)
        #expect(!record.discarded)
    }

    @Test func aCommitReplacedBeforeAFrameIsDiscarded() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let presentation = try client.bind(wp_presentation_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 20, height: 20, argb: Colour.red)
        client.showPlainSurface(surface, x: 0, y: 0)
        server.repaint()
        let first = FeedbackRecord(), second = FeedbackRecord()
        for record in [first, second] {
            feedback(presentation, surface.surface, record: record)
            commitWholeBuffer(surface)
        }
        client.roundtrip()
        server.repaint()
        client.roundtrip()
        #expect(first.discarded && first.presented == nil)
        #expect(second.presented != nil && !second.discarded)
    }

    @Test func feedbackOfADestroyedSurfaceIsDiscarded() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let presentation = try client.bind(wp_presentation_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 20, height: 20, argb: Colour.red)
        let record = FeedbackRecord()
        feedback(presentation, surface.surface, record: record)
        wl_surface_commit(surface.surface)  // never shown: no window
        client.roundtrip()
        wl_surface_destroy(surface.surface)
        client.roundtrip()
        #expect(record.discarded)
        #expect(record.presented == nil)
    }

    /// The refresh a feedback carries is the mode's period to the nanosecond (rounded), the
    /// period the frame clock ticks at; a period in whole milliseconds paced 60 Hz at 62.5.
    @Test(arguments: [(60000, UInt32(16_666_667)), (59940, 16_683_350), (30000, 33_333_333), (144000, 6_944_444)])
    func theFeedbackCarriesTheModesRefreshPeriod(milliHz: Int, period: UInt32) throws {
        let server = try TestServer(modes: [ScreenMode(width: 320, height: 240, refreshMilliHz: milliHz)])
        let (client, surface, record) = try shownSurfaceAwaitingFeedback(on: server)
        commitWholeBuffer(surface)
        client.roundtrip()
        server.repaint()
        client.roundtrip()
        #expect(record.presented?.refresh == period)
    }

    @Test func theFrameClockAnswersFeedbackWithoutAForcedRepaint() throws {
        let server = try TestServer()
        let (client, surface, record) = try shownSurfaceAwaitingFeedback(on: server)
        wl_surface_commit(surface.surface)  // no new buffer, no damage: still answered by a frame
        #expect(
            server.run(seconds: 10) {
                client.roundtrip(); return record.presented != nil
            })
    }
}
