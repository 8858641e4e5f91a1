import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `_NET_WM_MOVERESIZE`: an X client with its own title bar (GTK, Chromium under X11) asks the
/// window manager to move or resize its window by the button it holds. The press Xwayland holds
/// on the window stands for xdg_toplevel.move's serial; the release ends it.
@Suite("The XWM's interactive move and resize", .serialized)
struct XWMMoveResizeTests {
    private typealias H = XTestHarness
    private static let leftButton: UInt32 = 0x110

    /// One mapped, key X window (200×150), its model window and the screen's output.
    private static func mapOne(_ server: TestServer, _ c: OpaquePointer) throws -> (xcb_window_t, Window, ScreenOutput) {
        let window = H.createWindow(c, x: 0, y: 0, width: 200, height: 150)
        H.setClass(c, window, "moves")
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isKeyWindow == true })
        let model = try #require(H.x11Windows(server).first)
        let output = try #require(server.compositor.outputs.first)
        return (window, model, output)
    }

    /// Sends `_NET_WM_MOVERESIZE` for `window`, then a title as a barrier: once the model has the
    /// title, the XWM has handled the message (it handles an X client's events in order).
    private static func moveResize(_ server: TestServer, _ c: OpaquePointer, _ window: xcb_window_t, _ model: Window,
                                   direction: UInt32, barrier: String) {
        H.sendToRoot(c, window: window, type: H.atom(c, "_NET_WM_MOVERESIZE"), [0, 0, direction, 1, 1])
        H.set(c, window, H.atom(c, "_NET_WM_NAME"), type: H.atom(c, "UTF8_STRING"), format: 8, Array(barrier.utf8))
        xcb_flush(c)
        #expect(server.run(seconds: 20) { model.title == barrier })
    }

    @Test func aMoveByTheHeldButtonFollowsThePointerUntilTheRelease() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model, output) = try Self.mapOne(server, c)
        let before = model.frame
        let seat = try #require(server.compositor.seat)
        seat.pointerMotion(on: output, x: Double(before.x + 50), y: Double(before.y + 10), time: 1)
        seat.pointerButton(Self.leftButton, pressed: true, time: 2)
        Self.moveResize(server, c, window, model, direction: 8, barrier: "moving")

        seat.pointerMotion(on: output, x: Double(before.x + 80), y: Double(before.y + 30), time: 3)
        let moved = Rect(x: before.x + 30, y: before.y + 20, width: before.width, height: before.height)
        #expect(model.frame == moved)
        #expect(server.run(seconds: 20) { H.geometry(c, window) == moved }, "X has \(String(describing: H.geometry(c, window)))")
        seat.pointerButton(Self.leftButton, pressed: false, time: 4)
        seat.pointerMotion(on: output, x: Double(before.x + 120), y: Double(before.y + 60), time: 5)
        #expect(model.frame == moved, "the release ended the move")
    }

    @Test func aResizeFromTheTopLeftCornerKeepsTheBottomRightCorner() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model, output) = try Self.mapOne(server, c)
        let before = model.frame
        let seat = try #require(server.compositor.seat)
        seat.pointerMotion(on: output, x: Double(before.x + 2), y: Double(before.y + 2), time: 1)
        seat.pointerButton(Self.leftButton, pressed: true, time: 2)
        Self.moveResize(server, c, window, model, direction: 0, barrier: "resizing")

        seat.pointerMotion(on: output, x: Double(before.x - 18), y: Double(before.y - 8), time: 3)
        let resized = Rect(x: before.x - 20, y: before.y - 10, width: before.width + 20, height: before.height + 10)
        #expect(server.run(seconds: 20) { H.geometry(c, window) == resized }, "X has \(String(describing: H.geometry(c, window)))")
        // The model's size follows what Xwayland draws at the new size.
        #expect(server.run(seconds: 20) { model.frame == resized }, "the model has \(model.frame)")
        seat.pointerButton(Self.leftButton, pressed: false, time: 4)
        seat.pointerMotion(on: output, x: Double(before.x + 40), y: Double(before.y + 40), time: 5)
        #expect(H.geometry(c, window) == resized, "the release ended the resize")
    }

    /// Without a held press, for the keyboard directions, cancel and nonsense, the window stays:
    /// the pointer's next motion moves nothing.
    @Test func withoutAHeldPressOrWithAnotherDirectionNothingMoves() throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let (window, model, output) = try Self.mapOne(server, c)
        let before = model.frame
        let seat = try #require(server.compositor.seat)
        seat.pointerMotion(on: output, x: Double(before.x + 50), y: Double(before.y + 10), time: 1)
        Self.moveResize(server, c, window, model, direction: 8, barrier: "no press")
        seat.pointerMotion(on: output, x: Double(before.x + 90), y: Double(before.y + 40), time: 2)
        #expect(model.frame == before)

        seat.pointerMotion(on: output, x: Double(before.x + 50), y: Double(before.y + 10), time: 3)
        seat.pointerButton(Self.leftButton, pressed: true, time: 4)
        for (index, direction) in [UInt32(9), 10, 11, 12, 0xffff_ffff].enumerated() {
            Self.moveResize(server, c, window, model, direction: direction, barrier: "direction \(index)")
        }
        // A window that is not managed (the root) is ignored too.
        H.sendToRoot(c, window: H.root(c), type: H.atom(c, "_NET_WM_MOVERESIZE"), [0, 0, 8, 1, 1])
        seat.pointerMotion(on: output, x: Double(before.x + 90), y: Double(before.y + 40), time: 5)
        #expect(model.frame == before)
        seat.pointerButton(Self.leftButton, pressed: false, time: 6)
        #expect(!model.isClosed && H.x11Windows(server).count == 1)
    }
}
