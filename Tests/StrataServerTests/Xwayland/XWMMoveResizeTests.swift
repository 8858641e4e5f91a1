import CXCB
import Foundation
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// `_NET_WM_MOVERESIZE`: an X client with its own title bar (GTK, Chromium under X11) asks the
/// window manager to move or resize its window by the button it holds. The press Xwayland holds
/// on the window stands for xdg_toplevel.move's serial; the release ends it.
@Suite(
    "The XWM's interactive move and resize", .serialized,
    .enabled(if: XTestHarness.isInstalled, XTestHarness.missingMessage))
struct XWMMoveResizeTests {
    private typealias H = XTestHarness

    /// Xwayland in process with one mapped, key X window (200×150), and the seat to drag it with.
    private struct OneWindow {
        let server: TestServer
        let c: OpaquePointer
        let window: xcb_window_t
        let model: Window
        let output: ScreenOutput
        let seat: Seat
        /// The model's frame once shown.
        let before: Rect

        /// The pointer to (dx, dy) from the window's first origin.
        func pointer(_ dx: Int, _ dy: Int, time: UInt32) {
            seat.pointerMotion(on: output, x: Double(before.x + dx), y: Double(before.y + dy), time: time)
        }

        func button(pressed: Bool, time: UInt32) {
            seat.pointerButton(0x110, pressed: pressed, time: time)
        }

        /// Sends `_NET_WM_MOVERESIZE`, then a title as a barrier: once the model has the title,
        /// the XWM has handled the message (it handles an X client's events in order).
        func moveResize(direction: UInt32, barrier: String) {
            H.sendToRoot(c, window: window, type: H.atom(c, "_NET_WM_MOVERESIZE"), [0, 0, direction, 1, 1])
            H.set(c, window, H.atom(c, "_NET_WM_NAME"), type: H.atom(c, "UTF8_STRING"), format: 8, Array(barrier.utf8))
            xcb_flush(c)
            #expect(server.run(seconds: 20) { model.title == barrier })
        }

        /// X's geometry of the window.
        var xGeometry: Rect? { H.geometry(c, window) }
    }

    private static func withOneWindow(_ body: (OneWindow) throws -> Void) throws {
        let (server, xwayland) = try H.start()
        defer { xwayland.shutdown() }
        let c = try #require(H.connect(xwayland))
        defer { xcb_disconnect(c) }
        let window = H.createWindow(c, x: 0, y: 0, width: 200, height: 150)
        H.setClass(c, window, "moves")
        xcb_map_window(c, window)
        xcb_flush(c)
        #expect(server.run(seconds: 20) { H.x11Windows(server).first?.isKeyWindow == true })
        let model = try #require(H.x11Windows(server).first)
        try body(
            OneWindow(
                server: server, c: c, window: window, model: model,
                output: try #require(server.compositor.scene.outputs.first),
                seat: try #require(server.compositor.seat), before: model.frame))
    }

    @Test func aMoveByTheHeldButtonFollowsThePointerUntilTheRelease() throws {
        try Self.withOneWindow { w in
            w.pointer(50, 10, time: 1)
            w.button(pressed: true, time: 2)
            w.moveResize(direction: 8, barrier: "moving")
            w.pointer(80, 30, time: 3)
            let moved = Rect(x: w.before.x + 30, y: w.before.y + 20, width: w.before.width, height: w.before.height)
            #expect(w.model.frame == moved)
            #expect(w.server.run(seconds: 20) { w.xGeometry == moved }, "X has \(String(describing: w.xGeometry))")
            w.button(pressed: false, time: 4)
            w.pointer(120, 60, time: 5)
            #expect(w.model.frame == moved, "the release ended the move")
        }
    }

    @Test func aResizeFromTheTopLeftCornerKeepsTheBottomRightCorner() throws {
        try Self.withOneWindow { w in
            w.pointer(2, 2, time: 1)
            w.button(pressed: true, time: 2)
            w.moveResize(direction: 0, barrier: "resizing")
            w.pointer(-18, -8, time: 3)
            let resized = Rect(
                x: w.before.x - 20, y: w.before.y - 10, width: w.before.width + 20, height: w.before.height + 10)
            #expect(w.server.run(seconds: 20) { w.xGeometry == resized }, "X has \(String(describing: w.xGeometry))")
            // The model's size follows what Xwayland draws at the new size.
            #expect(w.server.run(seconds: 20) { w.model.frame == resized }, "the model has \(w.model.frame)")
            w.button(pressed: false, time: 4)
            w.pointer(40, 40, time: 5)
            #expect(w.xGeometry == resized, "the release ended the resize")
        }
    }

    /// Without a held press, for the keyboard directions, cancel and nonsense, the window stays:
    /// the pointer's next motion moves nothing.
    @Test func withoutAHeldPressOrWithAnotherDirectionNothingMoves() throws {
        try Self.withOneWindow { w in
            w.pointer(50, 10, time: 1)
            w.moveResize(direction: 8, barrier: "no press")
            w.pointer(90, 40, time: 2)
            #expect(w.model.frame == w.before)

            w.pointer(50, 10, time: 3)
            w.button(pressed: true, time: 4)
            for (index, direction) in [UInt32(9), 10, 11, 12, 0xffff_ffff].enumerated() {
                w.moveResize(direction: direction, barrier: "direction \(index)")
            }
            // A window that is not managed (the root) is ignored too.
            H.sendToRoot(w.c, window: H.root(w.c), type: H.atom(w.c, "_NET_WM_MOVERESIZE"), [0, 0, 8, 1, 1])
            w.moveResize(direction: 12, barrier: "after the root's")
            w.pointer(90, 40, time: 5)
            #expect(w.model.frame == w.before)
            w.button(pressed: false, time: 6)
            #expect(!w.model.isClosed && H.x11Windows(w.server).count == 1)
        }
    }

    // MARK: Pointer bindings (Super + drag), through the same move and resize

    @Test func superAndALeftDragMovesTheXWindow() throws {
        try Self.withOneWindow { w in
            w.pointer(50, 10, time: 1)
            w.seat.key(125, pressed: true, time: 2)
            w.button(pressed: true, time: 3)
            w.pointer(80, 30, time: 4)
            let moved = Rect(x: w.before.x + 30, y: w.before.y + 20, width: w.before.width, height: w.before.height)
            #expect(w.model.frame == moved)
            #expect(w.server.run(seconds: 20) { w.xGeometry == moved }, "X has \(String(describing: w.xGeometry))")
            w.button(pressed: false, time: 5)
            w.seat.key(125, pressed: false, time: 6)
            w.pointer(120, 60, time: 7)
            #expect(w.model.frame == moved, "the release ended the move")
        }
    }

    @Test func superAndARightDragResizesTheXWindowFromTheNearestCorner() throws {
        try Self.withOneWindow { w in
            // Near the bottom-right corner of the 200×150 window.
            w.pointer(190, 140, time: 1)
            w.seat.key(125, pressed: true, time: 2)
            w.seat.pointerButton(0x111, pressed: true, time: 3)
            w.pointer(220, 160, time: 4)
            let resized = Rect(x: w.before.x, y: w.before.y, width: w.before.width + 30, height: w.before.height + 20)
            #expect(w.server.run(seconds: 20) { w.xGeometry == resized }, "X has \(String(describing: w.xGeometry))")
            #expect(w.server.run(seconds: 20) { w.model.frame == resized }, "the model has \(w.model.frame)")
            w.seat.pointerButton(0x111, pressed: false, time: 5)
            w.seat.key(125, pressed: false, time: 6)
        }
    }
}
