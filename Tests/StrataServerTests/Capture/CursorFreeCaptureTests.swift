import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// Captures without the cursor (ext_image_copy_capture without `paint_cursors`, screencopy
/// without `overlay_cursor`) on screens whose shown image is not their canvas: scaled, turned,
/// dimmed. The oracle is the screen itself with the cursor hidden, pixel for pixel.
@Suite struct CursorFreeCaptureTests {
    enum Setup: String, CaseIterable, CustomStringConvertible {
        case scaledBy2, scaledBy1Point5, turned, dimmed, turnedScaledAndDimmed, overscannedAndScaled
        var description: String { rawValue }

        func apply(to windows: WindowManager) throws {
            let screen = windows.screens[0]
            switch self {
            case .scaledBy2: windows.setScale(2, for: screen)
            case .scaledBy1Point5: windows.setScale(1.5, for: screen)
            case .turned: windows.setTransform(.rotated90, for: screen)
            case .dimmed: windows.setBrightness(0.5, for: screen)
            case .turnedScaledAndDimmed:
                windows.setTransform(.rotated270, for: screen)
                windows.setScale(2, for: screen)
                windows.setBrightness(0.75, for: screen)
            case .overscannedAndScaled:
                try windows.setOverscan(5, compensation: .scale, for: screen)
                windows.setScale(1.5, for: screen)
            }
        }
    }

    /// The pixels of what the screen shows (`displayCanvas`).
    static func shown(_ output: ScreenOutput) -> [UInt32] {
        let canvas = output.displayCanvas
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(canvas.width) * Int(canvas.height))
        for y in 0..<canvas.height {
            for x in 0..<canvas.width { pixels.append(canvas.pixel(x: x, y: y) ?? 0) }
        }
        return pixels
    }

    static func pixels(_ buffer: TestBuffer) -> [UInt32] {
        (0..<Int(buffer.width) * Int(buffer.height)).map { buffer.pixels[$0] | 0xff00_0000 }
    }

    static func differences(_ a: [UInt32], _ b: [UInt32]) -> Int {
        a.count != b.count ? Int.max : zip(a, b).filter { $0 != $1 }.count
    }

    /// Sets the screen up, puts the pointer (the theme's arrow) on the red window's bottom right
    /// corner, and paints.
    static func prepare(_ server: TestServer, _ setup: Setup, client: TestClient) throws -> ScreenOutput {
        try setup.apply(to: server.windows)
        let output = server.compositor.scene.outputs[0]
        server.compositor.seat.pointerMotion(on: output, x: 58.5, y: 38.5, time: 1)
        #expect(client.roundtrip())
        server.repaint()
        return output
    }

    /// After the captures: the screen still shows the cursor as before, nothing was presented,
    /// and with the cursor hidden it shows exactly the capture without it.
    static func check(
        _ server: TestServer, _ output: ScreenOutput, before: [UInt32], painted: Int,
        withCursor: [UInt32], withoutCursor: [UInt32]
    ) {
        #expect(output.paintedFrames == painted, "a capture presents nothing")
        #expect(differences(shown(output), before) == 0, "the shown image keeps its cursor")
        #expect(differences(withCursor, before) == 0)
        server.compositor.cursor.isHidden = true
        server.repaint()
        let bare = shown(output)
        #expect(differences(withoutCursor, bare) == 0)
        #expect(differences(withCursor, bare) > 0, "the cursor is in the screen's image")
    }

    @Test(arguments: Setup.allCases)
    func anImageCopyCaptureWithoutPaintCursorsHasNoCursorOnAnyScreen(_ setup: Setup) throws {
        let capture = try ImageCopyCaptureTests.CaptureSetup()
        let output = try Self.prepare(capture.server, setup, client: capture.client)
        let width = output.displayCanvas.width, height = output.displayCanvas.height
        let before = Self.shown(output), painted = output.paintedFrames
        let source = ext_output_image_capture_source_manager_v1_create_source(capture.outputSources, capture.output)
        let (plain, _) = capture.session(of: source)
        let (withCursors, _) = capture.session(
            of: source, options: EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_OPTIONS_PAINT_CURSORS.rawValue)
        let without = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let with = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let (_, one) = capture.capture(plain, into: without.buffer)
        let (_, two) = capture.capture(withCursors, into: with.buffer)
        #expect(capture.client.wait { one.ready && two.ready })
        Self.check(
            capture.server, output, before: before, painted: painted, withCursor: Self.pixels(with),
            withoutCursor: Self.pixels(without))
    }

    @Test(arguments: Setup.allCases)
    func aScreencopyFrameWithoutOverlayCursorHasNoCursorOnAnyScreen(_ setup: Setup) throws {
        let capture = try ScreencopyTests.makeSetup()
        let output = try Self.prepare(capture.server, setup, client: capture.shell.client)
        let width = output.displayCanvas.width, height = output.displayCanvas.height
        let before = Self.shown(output), painted = output.paintedFrames
        let without = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let with = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let one = ScreencopyTests.FrameRecord(), two = ScreencopyTests.FrameRecord()
        let plain = zwlr_screencopy_manager_v1_capture_output(capture.manager, 0, capture.output)
        let overlaid = zwlr_screencopy_manager_v1_capture_output(capture.manager, 1, capture.output)
        ScreencopyTests().listen(plain, one)
        ScreencopyTests().listen(overlaid, two)
        #expect(capture.shell.client.roundtrip())
        zwlr_screencopy_frame_v1_copy(plain, without.buffer)
        zwlr_screencopy_frame_v1_copy(overlaid, with.buffer)
        #expect(capture.shell.client.wait { one.ready && two.ready })
        Self.check(
            capture.server, output, before: before, painted: painted, withCursor: Self.pixels(with),
            withoutCursor: Self.pixels(without))
        zwlr_screencopy_frame_v1_destroy(plain)
        zwlr_screencopy_frame_v1_destroy(overlaid)
    }

    @Test func aScreencopyFrameOfAMirroringScreenWithoutOverlayCursorHasNoCursor() throws {
        let server = try TestServer(screens: 2, width: 320, height: 200)
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: 60, height: 40, argb: 0xffff_0000))
        let manager = try client.bind(zwlr_screencopy_manager_v1_interface_ptr(), version: 3)
        let names = client.allGlobals.filter { $0.interface == "wl_output" }.map(\.name).sorted()
        let mirrorName = try #require(names.last)
        let wlOutput = try #require(client.bind(name: mirrorName, wl_output_interface_ptr(), version: 4))
        let main = server.compositor.scene.outputs[0], mirror = server.compositor.scene.outputs[1]
        #expect(mirror.screen.isMirroring)
        server.compositor.seat.pointerMotion(on: main, x: 58.5, y: 38.5, time: 1)
        #expect(client.roundtrip())
        server.repaint()
        let before = Self.shown(mirror), painted = mirror.paintedFrames
        let without = try #require(shell.makeBuffer(width: 320, height: 200, argb: 0))
        let with = try #require(shell.makeBuffer(width: 320, height: 200, argb: 0))
        let one = ScreencopyTests.FrameRecord(), two = ScreencopyTests.FrameRecord()
        let plain = zwlr_screencopy_manager_v1_capture_output(manager, 0, wlOutput)
        let overlaid = zwlr_screencopy_manager_v1_capture_output(manager, 1, wlOutput)
        ScreencopyTests().listen(plain, one)
        ScreencopyTests().listen(overlaid, two)
        #expect(client.roundtrip())
        zwlr_screencopy_frame_v1_copy(plain, without.buffer)
        zwlr_screencopy_frame_v1_copy(overlaid, with.buffer)
        #expect(client.wait { one.ready && two.ready })
        let mainAfter = Self.shown(main)
        Self.check(
            server, mirror, before: before, painted: painted, withCursor: Self.pixels(with),
            withoutCursor: Self.pixels(without))
        server.compositor.cursor.isHidden = false
        server.repaint()
        #expect(Self.differences(Self.shown(main), mainAfter) == 0, "the main screen keeps its cursor")
        zwlr_screencopy_frame_v1_destroy(plain)
        zwlr_screencopy_frame_v1_destroy(overlaid)
        withExtendedLifetime(toplevel) {}
    }

    /// A capture waiting for the next frame copies it inside the repaint: the frame's own
    /// bookkeeping (the damage other waiting captures hear) stays as it was.
    @Test func aWaitingCaptureWithoutTheCursorLeavesTheFramesDamageToTheNextWaiter() throws {
        let capture = try ImageCopyCaptureTests.CaptureSetup()
        let output = try Self.prepare(capture.server, .turned, client: capture.client)
        let width = output.displayCanvas.width, height = output.displayCanvas.height
        let (plain, _) = capture.outputSession()
        let without = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let (first, one) = capture.capture(plain, into: without.buffer)
        #expect(capture.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        // Both wait: the capture without the cursor first, a screencopy frame with damage after it.
        let (_, two) = capture.capture(plain, into: without.buffer)
        let manager = try capture.client.bind(zwlr_screencopy_manager_v1_interface_ptr(), version: 3)
        let copy = ScreencopyTests.FrameRecord()
        let target = try #require(capture.shell.makeBuffer(width: width, height: height, argb: 0))
        let primer = ScreencopyTests.FrameRecord()
        let first2 = zwlr_screencopy_manager_v1_capture_output(manager, 1, capture.output)
        ScreencopyTests().listen(first2, primer)
        zwlr_screencopy_frame_v1_copy_with_damage(first2, target.buffer)
        #expect(capture.client.wait { primer.ready })
        let frame = zwlr_screencopy_manager_v1_capture_output(manager, 1, capture.output)
        ScreencopyTests().listen(frame, copy)
        zwlr_screencopy_frame_v1_copy_with_damage(frame, target.buffer)
        #expect(capture.client.roundtrip())
        #expect(!two.ready && !copy.ready)
        // The window turns green: a 60×40 logical rectangle, turned into the display's pixels.
        #expect(capture.toplevel.ackAndRedraw(width: 60, height: 40, argb: ImageCopyCaptureTests.green))
        capture.server.repaint()
        #expect(capture.client.wait { two.ready && copy.ready })
        let presented = two.damage.map { [UInt32($0.0), UInt32($0.1), UInt32($0.2), UInt32($0.3)] }
        #expect(copy.damage.map { [$0.0, $0.1, $0.2, $0.3] } == presented)
        #expect(!copy.damage.isEmpty)
        zwlr_screencopy_frame_v1_destroy(first2)
        zwlr_screencopy_frame_v1_destroy(frame)
    }
}
