import CXCB
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// A Wayland client flooding the clipboard while Xwayland does not read: what the XWM writes to
/// X for a Wayland selection (its MIME types interned, the X selection owned) waits for a turn
/// with room in the X socket, one pending change per selection (the latest), so the flood costs
/// bounded work, the loop answers a bystander, and X gets the last selection once Xwayland reads.
@Suite("The XWM's selection writes under a Wayland flood", .serialized)
struct XWMSelectionFloodTests {
    private typealias H = XTestHarness

    @Test func selectionsSetWhileXwaylandIsStoppedWaitAsOneAndXGetsTheLast() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let wm = try #require(xwayland.wm)
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let x = try #require(TestXSelectionClient(display: xwayland.displayName))
        defer { x.disconnect() }
        let window = H.createWindow(c, x: 10, y: 20, width: 120, height: 90)
        H.setClass(c, window, "selection-flood")
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isVisible == true })
        let model = try #require(H.x11Windows(server).first)
        let copier = try ControlClient(server, flavor: .wlr)
        let bystander = try TestClient(server: server)
        let clipboard = x.atom("CLIPBOARD")
        var current = try copier.copy("selection start")
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) == wm.selectionWindow })
        let bridge = try #require(wm.selections.first { $0.selection === server.compositor.seat.clipboard })

        let pid = try #require(xwayland.pid)
        kill(pid, SIGSTOP)
        var stopped = true
        defer { if stopped { kill(pid, SIGCONT) } }
        // The X socket filled first: the model moves the X window at every turn until the XWM
        // finds the socket full (no xcb call of the test's while Xwayland is stopped).
        var moves = 0
        while !wm.isWaitingForWritable, moves < 20_000 {
            moves += 1
            server.compositor.windows.setFrame(
                model, Rect(x: moves % 300, y: 20, width: model.frame.width, height: model.frame.height))
            #expect(bystander.roundtrip())
        }
        #expect(wm.isWaitingForWritable, "the socket filled after \(moves) moves")

        // 2,000 selections of 12 MIME types each (interning them all would be 24,000 requests,
        // some 900 KB), 20 a round trip.
        var slowest = 0.0, mostDeferred = 0, last = ""
        for batch in 0..<100 {
            for index in 0..<20 {
                last = "selection \(batch * 20 + index)"
                let types =
                    ["text/plain;charset=utf-8", "text/plain"] + (0..<10).map { "application/x-strata-flood-\($0)" }
                let next = try copier.control.makeSource(mimeTypes: types, payload: Array(last.utf8))
                copier.control.set(next)
                current.destroy()
                current = next
            }
            #expect(copier.client.roundtrip())
            let start = Date()
            #expect(bystander.roundtrip())
            slowest = max(slowest, Date().timeIntervalSince(start))
            mostDeferred = max(mostDeferred, wm.deferredWriteCount)
        }
        #expect(wm.isWaitingForWritable, "Xwayland is still stopped: nothing of the flood was written")
        #expect(bridge.seatChangeIsPending)
        // One deferred write at most: the clipboard's pending change (the latest source).
        #expect(mostDeferred <= 1, "\(mostDeferred) writes waited")
        print(
            "XWM selection flood with Xwayland stopped: 2,000 selections; the socket full after \(moves) moves; "
                + "at most \(mostDeferred) deferred writes; slowest bystander round trip \(Int(slowest * 1000)) ms")

        kill(pid, SIGCONT)
        stopped = false
        #expect(
            server.run(seconds: 30) { !wm.isWaitingForWritable && wm.deferredWriteCount == 0 && wm.replies.isEmpty })
        #expect(server.run(seconds: 20) { x.owner(of: clipboard) == wm.selectionWindow && bridge.ownsXSelection })
        x.convert(clipboard, to: x.atom("UTF8_STRING"))
        #expect(
            server.run(seconds: 20) {
                copier.client.roundtrip(); x.pump(); return x.received != nil
            })
        #expect(x.received == Array(last.utf8), "X pastes \(String(decoding: x.received ?? [], as: UTF8.self))")
        #expect(xwayland.wm === wm)
        withExtendedLifetime(current) {}
    }
}
