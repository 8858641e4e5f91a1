import Foundation
import StrataModel
import StrataNestedBackends
import StrataServer
import StrataTestSupport
import Testing

/// Strata nested in Strata: the parent is an in-process headless Strata, the nested Strata its
/// client through a socket pair, both stepped on this thread. The parent's canvas, model and
/// seat are all at hand, so pixels, the window title, input and close are checked exactly.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct StrataParentTests {
    static let colour: UInt32 = 0xff3c_b371

    /// A socket pair whose one end is a client of `parent` (close-on-exec: no child another test
    /// starts inherits it); the other end, for a nested Strata's Wayland backend.
    static func connection(to parent: TestServer) throws -> Int32 {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0,
            parent.compositor.display.createClient(fd: fds[0]) != nil
        else {
            throw ParentSessionError.didNotStart("no socket pair to the parent Strata")
        }
        return fds[1]
    }

    final class Nesting {
        let parent: TestServer
        let backend: WaylandBackend
        let nested: Compositor

        init(screens: Int = 1, width: Int = 320, height: Int = 200, parentScale: Double = 1) throws {
            let parent = try TestServer(width: 640, height: 480)
            parent.windows.setScale(parentScale, for: parent.windows.screens[0])
            let parentEnd = try StrataParentTests.connection(to: parent)
            self.parent = parent
            backend = try WaylandBackend(
                fd: parentEnd, screens: screens, modes: [ScreenMode(width: width, height: height)],
                whileWaiting: { parent.step() })
            nested = try Compositor(backend: backend)
            nested.scene.backgroundARGB = StrataParentTests.colour
        }

        deinit { nested.shutdown() }

        /// Steps both loops until `condition` holds (at most `seconds`).
        @discardableResult
        func step(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                if Date() > deadline { return false }
                parent.step()
                nested.display.dispatch(timeout: 0.002)
            }
            return true
        }

        /// The parent's window showing the nested screen `name`.
        func parentWindow(_ name: String) -> Window? {
            parent.windows.windows.first { $0.title == name && !$0.isHidden }
        }

        var parentOutput: ScreenOutput { parent.compositor.scene.outputs[0] }
    }

    @Test func aNestedScreenIsAParentWindowTitledWithItsNameShowingTheCanvas() throws {
        let nesting = try Nesting()
        #expect(
            nesting.step {
                nesting.parentWindow("WL-1") != nil
                    && nesting.backend.committedFrames(for: nesting.nested.scene.outputs[0]) >= 1
            })
        let window = try #require(nesting.parentWindow("WL-1"))
        #expect(window.appID == "strata")
        #expect(window.frame.width == 320 && window.frame.height == 200)
        nesting.step(seconds: 0.1) { false }
        for (dx, dy) in [(0, 0), (319, 0), (0, 199), (319, 199), (160, 100)] {
            let pixel = nesting.parent.pixel(x: Int32(window.frame.x + dx), y: Int32(window.frame.y + dy))
            #expect(pixel == Self.colour, "parent pixel at window offset (\(dx), \(dy))")
        }
    }

    /// The canvas is x8r8g8b8, and its top bytes are what the clients' XRGB buffers held
    /// (Xwayland's are 0); the parent gets them set, for parents that read them as alpha
    /// (weston's headless screenshots showed an X window white before).
    /// A nested Strata hosted by a `TestServer`, so a test client can draw in it.
    final class HostedNesting {
        // Released in this order: the client before its server, the nested Strata before its parent.
        let shell: TestXdgShell
        let client: TestClient
        let nested: TestServer
        let backend: WaylandBackend
        let parent: TestServer

        init() throws {
            let parent = try TestServer(width: 640, height: 480)
            let parentEnd = try StrataParentTests.connection(to: parent)
            self.parent = parent
            backend = try WaylandBackend(
                fd: parentEnd, modes: [ScreenMode(width: 320, height: 200)], whileWaiting: { parent.step() })
            nested = TestServer(hosting: try Compositor(backend: backend), alsoStep: { parent.step() })
            client = try TestClient(server: nested)
            shell = try TestXdgShell(client: client)
        }
    }

    @Test func theParentGetsOpaquePixelsWhereAClientsXRGBBufferHeldZeroTopBytes() throws {
        let hosted = try HostedNesting()
        let toplevel = try #require(hosted.shell.makeToplevel())
        // Top byte 0, as Xwayland's buffers have it: XRGB8888 ignores it.
        #expect(toplevel.map(width: 320, height: 200, argb: 0x003c_b371))
        let deadline = Date().addingTimeInterval(10)
        var window: Window?
        while Date() < deadline {
            hosted.nested.step(timeout: 0.001)
            hosted.client.step()
            window = hosted.parent.windows.windows.first { $0.title == "WL-1" && !$0.isHidden }
            if let window,
                hosted.parent.pixel(x: Int32(window.frame.x + 5), y: Int32(window.frame.y + 5)) == Self.colour
            {
                break
            }
        }
        let shown = try #require(window)
        let nestedCanvas = hosted.nested.compositor.scene.outputs[0].canvas
        #expect(
            nestedCanvas.data[5 * Int(nestedCanvas.stride) / 4 + 5] == 0x003c_b371,
            "the nested canvas keeps the client's top byte")
        let parentCanvas = hosted.parent.compositor.scene.outputs[0].canvas
        let raw = parentCanvas.data[Int(shown.frame.y + 5) * Int(parentCanvas.stride) / 4 + Int(shown.frame.x + 5)]
        #expect(raw == Self.colour, "the parent's pixel is opaque: \(String(raw, radix: 16))")
        toplevel.destroyToplevel()
    }

    @Test func theParentsPointerKeysAndTouchDriveTheNestedSeat() throws {
        let nesting = try Nesting()
        let recorder = InputRecorder()
        nesting.backend.input = recorder
        #expect(
            nesting.step {
                nesting.parentWindow("WL-1") != nil
                    && nesting.backend.committedFrames(for: nesting.nested.scene.outputs[0]) >= 1
            })
        let frame = try #require(nesting.parentWindow("WL-1")).frame
        let seat = nesting.parent.compositor.seat!
        let x = Double(frame.x) + 10, y = Double(frame.y) + 20
        seat.pointerMotion(on: nesting.parentOutput, x: x, y: y, time: 10)
        seat.pointerMotion(on: nesting.parentOutput, x: x + 5, y: y + 1, time: 11)
        seat.pointerButton(0x110, pressed: true, time: 12)
        seat.pointerButton(0x110, pressed: false, time: 13)
        seat.pointerAxis(vertical: 15, horizontal: 0, time: 14)
        seat.key(30, pressed: true, time: 15)
        seat.key(30, pressed: false, time: 16)
        seat.touchDown(id: 4, on: nesting.parentOutput, x: x, y: y, time: 17)
        seat.touchMotion(id: 4, x: x + 2, y: y + 2, time: 18)
        seat.touchUp(id: 4, time: 19)
        #expect(nesting.step { recorder.events.contains(.touchUp(4)) })
        #expect(
            recorder.take() == [
                .motion(screen: "WL-1", x: 10, y: 20), .motion(screen: "WL-1", x: 15, y: 21),
                .button(0x110, pressed: true), .button(0x110, pressed: false), .axis(vertical: 15, horizontal: 0),
                .key(30, pressed: true), .key(30, pressed: false),
                .touchDown(4, screen: "WL-1", x: 10, y: 20), .touchMotion(4, x: 12, y: 22), .touchUp(4),
            ])
        #expect(nesting.backend.parentKeymap?.contains("xkb_keymap") == true)
        // The parent's keymap is handed to the nested seat (here: the recorder standing in for it).
        #expect(recorder.keymaps.last == nesting.backend.parentKeymap)
    }

    @Test func keysHeldWhenTheParentTakesTheKeyboardAwayAreReleased() throws {
        let nesting = try Nesting()
        let recorder = InputRecorder()
        nesting.backend.input = recorder
        #expect(nesting.step { nesting.parentWindow("WL-1")?.isKeyWindow == true })
        nesting.parent.compositor.seat.key(42, pressed: true, time: 1)
        #expect(nesting.step { recorder.events == [.key(42, pressed: true)] })
        nesting.parent.windows.hide(try #require(nesting.parentWindow("WL-1")))
        #expect(nesting.step { recorder.events.count == 2 })
        #expect(recorder.take() == [.key(42, pressed: true), .key(42, pressed: false)])
    }

    @Test func closingAParentWindowDisconnectsItsScreenAndTheLastOneEndsStrata() throws {
        let nesting = try Nesting(screens: 2)
        var lastClosed = 0
        nesting.backend.onLastScreenClosed = { lastClosed += 1 }
        #expect(nesting.step { nesting.parentWindow("WL-1") != nil && nesting.parentWindow("WL-2") != nil })
        let first = nesting.nested.scene.outputs[0]
        try #require(nesting.parentWindow("WL-1")).content?.closeRequest()
        #expect(nesting.step { nesting.nested.scene.outputs.count == 1 })
        #expect(!first.screen.isConnected)
        #expect(
            nesting.step { nesting.parent.windows.windows.filter { $0.title == "WL-1" }.isEmpty },
            "the parent window is gone")
        #expect(lastClosed == 0)
        try #require(nesting.parentWindow("WL-2")).content?.closeRequest()
        #expect(nesting.step { lastClosed == 1 })
        #expect(nesting.nested.scene.outputs.isEmpty)
    }

    @Test func aNestedScreenTakesTheParentOutputsScaleAndIsShownPixelForPixel() throws {
        let nesting = try Nesting(parentScale: 2)
        let recorder = InputRecorder()
        nesting.backend.input = recorder
        let output = nesting.nested.scene.outputs[0]
        // The window entered the parent's scale-2 output: the screen is scale 2, its mode twice
        // the window's size in the parent, which stays 320×200.
        #expect(nesting.step { output.screen.scale == 2 && nesting.backend.committedFrames(for: output) >= 1 })
        #expect(output.canvas.width == 640 && output.canvas.height == 400)
        #expect(output.width == 320 && output.height == 200)
        let window = try #require(nesting.parentWindow("WL-1"))
        #expect(window.frame.width == 320 && window.frame.height == 200)
        nesting.step(seconds: 0.1) { false }
        // The parent composes at scale 2 too: the nested canvas fills 640×400 of its pixels.
        let x0 = Int32(window.frame.x * 2), y0 = Int32(window.frame.y * 2)
        #expect(nesting.parent.pixel(x: x0 + 639, y: y0 + 399) == Self.colour)
        #expect(nesting.parent.pixel(x: x0 + 100, y: y0 + 400) == TestServer.background)
        // Input: the parent's surface coordinates are the nested screen's logical ones.
        let seat = nesting.parent.compositor.seat!
        seat.pointerMotion(
            on: nesting.parentOutput, x: Double(window.frame.x) + 10.5, y: Double(window.frame.y) + 20, time: 1)
        #expect(nesting.step { !recorder.events.isEmpty })
        #expect(recorder.take() == [.motion(screen: "WL-1", x: 10.5, y: 20)])
        // The parent's output goes back to scale 1: so does the nested screen.
        nesting.parent.windows.setScale(1, for: nesting.parentOutput.screen)
        #expect(nesting.step { output.screen.scale == 1 && output.canvas.width == 320 })
    }

    @Test func fullscreenInTheParentBecomesTheNestedScreensMode() throws {
        let nesting = try Nesting()
        let output = nesting.nested.scene.outputs[0]
        #expect(nesting.step { nesting.backend.committedFrames(for: output) >= 1 })
        nesting.backend.setFullscreen(true, for: output)
        #expect(nesting.step { output.width == 640 && output.height == 480 })
        let frames = nesting.backend.committedFrames(for: output)
        #expect(
            nesting.step {
                nesting.backend.committedFrames(for: output) > frames
                    || nesting.parent.pixel(x: 639, y: 479) == Self.colour
            })
        #expect(
            nesting.step {
                nesting.parent.pixel(x: 639, y: 479) == Self.colour && nesting.parent.pixel(x: 0, y: 0) == Self.colour
            })
        nesting.backend.setFullscreen(false, for: output)
        #expect(nesting.step { output.width == 320 && output.height == 200 })
    }

    @Test func framesWaitForTheParentsFrameCallbackAndDamageAccumulates() throws {
        let nesting = try Nesting()
        let output = nesting.nested.scene.outputs[0]
        #expect(
            nesting.step { nesting.parentWindow("WL-1") != nil && nesting.backend.committedFrames(for: output) >= 1 })
        let window = try #require(nesting.parentWindow("WL-1"))
        #expect(
            nesting.step {
                nesting.parent.pixel(x: Int32(window.frame.x + 5), y: Int32(window.frame.y + 5)) == Self.colour
            })
        // Without stepping the parent, its frame callback cannot come: repaints pile up as damage.
        let before = nesting.backend.committedFrames(for: output)
        for i in 0..<5 {
            nesting.nested.scene.backgroundARGB = 0xff00_0010 + UInt32(i)
            nesting.nested.scene.damageAll(output)
            nesting.nested.scene.repaint(output)
        }
        #expect(nesting.backend.committedFrames(for: output) <= before + 1)
        nesting.nested.scene.backgroundARGB = 0xffc8_3232
        nesting.nested.scene.damageAll(output)
        nesting.nested.scene.repaint(output)
        #expect(
            nesting.step {
                nesting.parent.pixel(x: Int32(window.frame.x + 5), y: Int32(window.frame.y + 5)) == 0xffc8_3232
            })
        #expect(
            nesting.backend.committedFrames(for: output) <= before + 3,
            "one frame per parent frame callback, not one per repaint")
    }
}
