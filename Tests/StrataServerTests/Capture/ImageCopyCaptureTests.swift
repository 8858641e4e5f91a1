import CStrataClientGlue
import CWaylandClient
import Glibc
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// ext_image_copy_capture_manager_v1 with output and toplevel sources: a screen's or one
/// window's pixels into the client's wl_shm buffers.
@Suite struct ImageCopyCaptureTests {
    final class SessionRecord {
        var size: (UInt32, UInt32)?
        var formats: [UInt32] = []
        var dones = 0
        var stopped = false
    }

    final class FrameRecord {
        var transform: UInt32?
        var damage: [(Int32, Int32, Int32, Int32)] = []
        var presented = false
        var ready = false
        var failed: UInt32?
    }

    static var sessionListener = ext_image_copy_capture_session_v1_listener(
        buffer_size: { data, _, w, h in
            let r = session(data)
            r.size = (w, h)
            r.formats = []
        },
        shm_format: { data, _, format in session(data).formats.append(format) },
        dmabuf_device: { _, _, _ in },
        dmabuf_format: { _, _, _, _ in },
        done: { data, _ in session(data).dones += 1 },
        stopped: { data, _ in session(data).stopped = true })

    static var frameListener = ext_image_copy_capture_frame_v1_listener(
        transform: { data, _, t in frame(data).transform = t },
        damage: { data, _, x, y, w, h in frame(data).damage.append((x, y, w, h)) },
        presentation_time: { data, _, _, _, _ in frame(data).presented = true },
        ready: { data, _ in frame(data).ready = true },
        failed: { data, _, reason in frame(data).failed = reason })

    static func session(_ data: UnsafeMutableRawPointer?) -> SessionRecord {
        Unmanaged<SessionRecord>.fromOpaque(data!).takeUnretainedValue()
    }
    static func frame(_ data: UnsafeMutableRawPointer?) -> FrameRecord {
        Unmanaged<FrameRecord>.fromOpaque(data!).takeUnretainedValue()
    }

    static let red: UInt32 = 0xffff_0000, green: UInt32 = 0xff00_ff00, blue: UInt32 = 0xff00_00ff
    static let bufferConstraints = EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS.rawValue
    static let stopped = EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_STOPPED.rawValue
    static let unknown = EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_UNKNOWN.rawValue

    /// A 320×200 screen with a red 60×40 window at its top left, and a client with the capture
    /// globals (the records live as long as the setup). Released in declaration order: the
    /// window before the connection it lives on.
    final class CaptureSetup {
        let toplevel: TestToplevel
        let fixture: ClientFixture
        let manager: OpaquePointer
        let outputSources: OpaquePointer
        let toplevelSources: OpaquePointer
        let output: OpaquePointer
        var sessions: [SessionRecord] = []
        var frames: [FrameRecord] = []
        /// The toplevel lists' records (their handles' events come as long as the connection lives).
        var lists: [ForeignToplevelListTests.TopList] = []
        var shell: TestXdgShell { fixture.shell }
        var client: TestClient { fixture.client }
        var server: TestServer { fixture.server }

        init() throws {
            fixture = try ClientFixture(width: 320, height: 200)
            let client = fixture.client
            toplevel = try #require(fixture.shell.makeToplevel())
            xdg_toplevel_set_title(toplevel.toplevel, "red")
            #expect(toplevel.map(width: 60, height: 40, argb: ImageCopyCaptureTests.red))
            manager = try client.bind(ext_image_copy_capture_manager_v1_interface_ptr(), version: 1)
            outputSources = try client.bind(ext_output_image_capture_source_manager_v1_interface_ptr(), version: 1)
            toplevelSources = try client.bind(
                ext_foreign_toplevel_image_capture_source_manager_v1_interface_ptr(), version: 1)
            output = try client.bind(wl_output_interface_ptr(), version: 4)
        }

        func session(of source: OpaquePointer?, options: UInt32 = 0) -> (OpaquePointer?, SessionRecord) {
            let record = SessionRecord()
            sessions.append(record)
            let session = ext_image_copy_capture_manager_v1_create_session(manager, source, options)
            ext_image_copy_capture_session_v1_add_listener(
                session, &ImageCopyCaptureTests.sessionListener,
                Unmanaged.passUnretained(record).toOpaque())
            return (session, record)
        }

        func outputSession() -> (OpaquePointer?, SessionRecord) {
            let source = ext_output_image_capture_source_manager_v1_create_source(outputSources, output)
            defer { ext_image_capture_source_v1_destroy(source) }
            return session(of: source)
        }

        /// A session of the toplevel titled `title`, through a handle of the client's list.
        func toplevelSession(title: String) throws -> (OpaquePointer?, SessionRecord, ForeignToplevelListTests.TopList)
        {
            let (_, list) = try ForeignToplevelListTests.bindList(client)
            lists.append(list)
            let handle = try #require(list.entry(title)).proxy
            let source = ext_foreign_toplevel_image_capture_source_manager_v1_create_source(toplevelSources, handle)
            defer { ext_image_capture_source_v1_destroy(source) }
            let (session, record) = session(of: source)
            return (session, record, list)
        }

        /// A frame of `session` capturing into `buffer` (damaged whole); not yet answered.
        @discardableResult
        func capture(_ session: OpaquePointer?, into buffer: OpaquePointer?) -> (OpaquePointer?, FrameRecord) {
            let record = FrameRecord()
            frames.append(record)
            let frame = ext_image_copy_capture_session_v1_create_frame(session)
            ext_image_copy_capture_frame_v1_add_listener(
                frame, &ImageCopyCaptureTests.frameListener,
                Unmanaged.passUnretained(record).toOpaque())
            ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer)
            ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, Int32.max, Int32.max)
            ext_image_copy_capture_frame_v1_capture(frame)
            return (frame, record)
        }
    }

    // MARK: Screens

    @Test func anOutputSessionAnnouncesTheScreenSizeAndItsTwoFormats() throws {
        let setup = try CaptureSetup()
        let (_, record) = setup.outputSession()
        #expect(setup.client.roundtrip())
        #expect(record.size.map { $0 == (320, 200) } == true)
        #expect(record.formats == [WL_SHM_FORMAT_XRGB8888.rawValue, WL_SHM_FORMAT_ARGB8888.rawValue])
        #expect(record.dones == 1 && !record.stopped)
    }

    @Test func anOutputCaptureCopiesTheScreenPixelForPixel() throws {
        let setup = try CaptureSetup()
        let (session, _) = setup.outputSession()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        let (frame, record) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { record.ready })
        #expect(record.failed == nil && record.transform == WL_OUTPUT_TRANSFORM_NORMAL.rawValue && record.presented)
        #expect(record.damage.count == 1 && record.damage[0] == (0, 0, 320, 200))
        var mismatches = 0
        for y in 0..<Int32(200) {
            for x in 0..<Int32(320)
            where target.pixels[Int(y * 320 + x)] | 0xff00_0000 != setup.server.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(target.pixels[0] & 0xffffff == 0xff0000 && target.pixels[Int(39 * 320 + 59)] & 0xffffff == 0xff0000)
        #expect(target.pixels[Int(40 * 320 + 60)] | 0xff00_0000 == TestServer.background)
        ext_image_copy_capture_frame_v1_destroy(frame)
        #expect(setup.client.roundtrip())
    }

    @Test func theSecondCaptureOfAnUnchangedScreenWaitsUntilSomethingChanges() throws {
        let setup = try CaptureSetup()
        let (session, _) = setup.outputSession()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0, hasAlpha: true))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        // An ARGB8888 buffer gets the screen opaque.
        #expect(target.pixels[0] == Self.red)
        ext_image_copy_capture_frame_v1_destroy(first)
        let (_, two) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        setup.server.repaint()
        #expect(setup.client.roundtrip())
        #expect(!two.ready && two.failed == nil)
        #expect(setup.toplevel.ackAndRedraw(width: 60, height: 40, argb: Self.green))
        setup.server.repaint()
        #expect(setup.client.wait { two.ready })
        #expect(
            !two.damage.isEmpty
                && two.damage.allSatisfy { $0.0 >= 0 && $0.1 >= 0 && $0.0 + $0.2 <= 60 && $0.1 + $0.3 <= 40 })
        #expect(target.pixels[0] == Self.green)
    }

    @Test func theCursorIsInTheScreensImageOnlyWithPaintCursors() throws {
        let setup = try CaptureSetup()
        // The pointer at the window's bottom right corner: the theme's arrow over red and background.
        setup.server.compositor.seat.pointerMotion(on: setup.server.compositor.scene.outputs[0], x: 58, y: 38, time: 1)
        #expect(setup.client.roundtrip())
        setup.server.repaint()
        let rect = try #require(setup.server.compositor.cursor.rect?.rect)
        let source = ext_output_image_capture_source_manager_v1_create_source(setup.outputSources, setup.output)
        let (plain, _) = setup.session(of: source)
        let (painted, _) = setup.session(
            of: source, options: EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_OPTIONS_PAINT_CURSORS.rawValue)
        let without = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0, hasAlpha: true))
        let with = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0, hasAlpha: true))
        let (_, one) = setup.capture(plain, into: without.buffer)
        let (_, two) = setup.capture(painted, into: with.buffer)
        #expect(setup.client.wait { one.ready && two.ready })
        var erased = 0, shown = 0, drawnOver = 0
        for y in Int32(rect.y)..<Int32(rect.maxY) {
            for x in Int32(rect.x)..<Int32(rect.maxX) where x < 320 && y < 200 {
                let i = Int(y * 320 + x)
                let under = x < 60 && y < 40 ? Self.red : TestServer.background
                if without.pixels[i] != under { erased += 1 }
                if with.pixels[i] != setup.server.pixel(x: x, y: y) { shown += 1 }
                if with.pixels[i] != under { drawnOver += 1 }
            }
        }
        // Without the option every pixel is what is under the cursor; with it, what the screen shows.
        #expect(erased == 0 && shown == 0 && drawnOver > 0)
    }

    @Test func aScreenThatDisconnectsStopsItsSessionsAndFailsTheWaitingFrame() throws {
        let setup = try CaptureSetup()
        let (session, record) = setup.outputSession()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        let (second, two) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        setup.server.compositor.disconnectScreen(setup.server.compositor.scene.outputs[0])
        #expect(setup.client.wait { two.failed != nil })
        #expect(two.failed == Self.stopped && record.stopped)
        ext_image_copy_capture_frame_v1_destroy(second)
        // A new frame of the stopped session fails at once.
        let (_, three) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        #expect(three.failed == Self.stopped)
        // A source made from the gone screen's wl_output names nothing: its session stops at once.
        let (_, late) = setup.outputSession()
        #expect(setup.client.roundtrip())
        #expect(late.stopped && late.size == nil)
    }

    @Test func aModeChangeAnnouncesTheNewSizeAndAnOldBufferFailsWithBufferConstraints() throws {
        let server = try TestServer(modes: [ScreenMode(width: 320, height: 200), ScreenMode(width: 160, height: 100)])
        let client = try TestClient(server: server)
        let shell = try TestXdgShell(client: client)
        let manager = try client.bind(ext_image_copy_capture_manager_v1_interface_ptr(), version: 1)
        let sources = try client.bind(ext_output_image_capture_source_manager_v1_interface_ptr(), version: 1)
        let output = try client.bind(wl_output_interface_ptr(), version: 4)
        let source = ext_output_image_capture_source_manager_v1_create_source(sources, output)
        let record = SessionRecord()
        let session = ext_image_copy_capture_manager_v1_create_session(manager, source, 0)
        ext_image_copy_capture_session_v1_add_listener(
            session, &Self.sessionListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(client.roundtrip())
        #expect(record.size.map { $0 == (320, 200) } == true)
        let screen = try #require(server.windows.screens.first)
        try server.windows.setMode(ScreenMode(width: 160, height: 100), for: screen)
        #expect(client.roundtrip())
        #expect(record.size.map { $0 == (160, 100) } == true && record.dones == 2)
        let old = try #require(shell.makeBuffer(width: 320, height: 200, argb: 0))
        let frameRecord = FrameRecord()
        let frame = ext_image_copy_capture_session_v1_create_frame(session)
        ext_image_copy_capture_frame_v1_add_listener(
            frame, &Self.frameListener, Unmanaged.passUnretained(frameRecord).toOpaque())
        ext_image_copy_capture_frame_v1_attach_buffer(frame, old.buffer)
        ext_image_copy_capture_frame_v1_capture(frame)
        #expect(client.roundtrip())
        #expect(frameRecord.failed == Self.bufferConstraints)
    }

    // MARK: Windows

    @Test func aToplevelCaptureIsTheWindowAloneAtItsSizeNotTheScreensCrop() throws {
        let setup = try CaptureSetup()
        // A blue window above the red one, covering its right half.
        let cover = try #require(setup.shell.makeToplevel())
        #expect(cover.map(width: 100, height: 100, argb: Self.blue))
        let coverWindow = try #require(setup.server.windows.windows.last)
        setup.server.compositor.windows.setFrame(coverWindow, Rect(x: 30, y: 0, width: 100, height: 100))
        #expect(setup.server.pixel(x: 40, y: 10) == Self.blue)
        let (session, record, _) = try setup.toplevelSession(title: "red")
        #expect(setup.client.roundtrip())
        #expect(record.size.map { $0 == (60, 40) } == true)
        #expect(record.formats == [WL_SHM_FORMAT_ARGB8888.rawValue, WL_SHM_FORMAT_XRGB8888.rawValue])
        let target = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: 0, hasAlpha: true))
        let (_, frame) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { frame.ready })
        #expect(
            frame.transform == WL_OUTPUT_TRANSFORM_NORMAL.rawValue && frame.damage.count == 1
                && frame.damage[0] == (0, 0, 60, 40))
        #expect((0..<(60 * 40)).allSatisfy { target.pixels[$0] == Self.red })
    }

    @Test func aToplevelOnAScaledScreenIsCapturedAtTheScreensScale() throws {
        let setup = try CaptureSetup()
        setup.server.windows.setScale(2, for: setup.server.compositor.scene.outputs[0].screen)
        // Left half red, right half green, at buffer scale 1.
        let split = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: Self.red))
        split.fill(x: 30, y: 0, width: 30, height: 40, Self.green)
        setup.toplevel.ack()
        setup.toplevel.attach(split)
        setup.toplevel.commit()
        #expect(setup.client.roundtrip())
        let (session, record, _) = try setup.toplevelSession(title: "red")
        #expect(setup.client.roundtrip())
        #expect(record.size.map { $0 == (120, 80) } == true)
        let target = try #require(setup.shell.makeBuffer(width: 120, height: 80, argb: 0))
        let (_, frame) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { frame.ready })
        var wrong = 0
        for y in 0..<80 {
            for x in 0..<120 where target.pixels[y * 120 + x] | 0xff00_0000 != (x < 60 ? Self.red : Self.green) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test func aToplevelCaptureWaitsForItsWindowNotForOthers() throws {
        let setup = try CaptureSetup()
        let other = try #require(setup.shell.makeToplevel())
        #expect(other.map(width: 50, height: 50, argb: Self.blue))
        let (session, _, _) = try setup.toplevelSession(title: "red")
        let target = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: 0))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        let (_, two) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        #expect(other.ackAndRedraw(width: 50, height: 50, argb: Self.green))
        setup.server.repaint()
        #expect(setup.client.roundtrip())
        #expect(!two.ready && two.failed == nil)
        #expect(setup.toplevel.ackAndRedraw(width: 60, height: 40, argb: Self.green))
        #expect(setup.client.wait { two.ready })
        #expect((0..<(60 * 40)).allSatisfy { target.pixels[$0] | 0xff00_0000 == Self.green })
    }

    @Test func aMinimizedWindowIsStillCapturedAndATransparentOneStaysTransparent() throws {
        let setup = try CaptureSetup()
        let glass = try #require(setup.shell.makeToplevel())
        xdg_toplevel_set_title(glass.toplevel, "glass")
        #expect(glass.commitInitial())
        glass.ack()
        let pane = try #require(setup.shell.makeBuffer(width: 20, height: 10, argb: 0, hasAlpha: true))
        pane.fill(x: 0, y: 0, width: 10, height: 10, 0x8000_0080)
        glass.attach(pane)
        glass.commit()
        #expect(setup.client.roundtrip())
        let window = try #require(setup.server.windows.windows.first { $0.title == "glass" })
        setup.server.windows.hide(window)
        let (session, _, _) = try setup.toplevelSession(title: "glass")
        let target = try #require(setup.shell.makeBuffer(width: 20, height: 10, argb: 0xffff_ffff, hasAlpha: true))
        let (_, frame) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { frame.ready })
        #expect(target.pixels[0] == 0x8000_0080 && target.pixels[15] == 0)
    }

    @Test func aWindowThatClosesStopsItsSessionAndFailsTheWaitingFrame() throws {
        let setup = try CaptureSetup()
        let (session, record, list) = try setup.toplevelSession(title: "red")
        let target = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: 0))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        let (_, two) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        setup.toplevel.destroyToplevel()
        #expect(setup.client.roundtrip())
        #expect(record.stopped && two.failed == Self.stopped)
        // A source of the closed handle names nothing.
        let closed = try #require(list.entry("red"))
        #expect(closed.closed)
        let source = ext_foreign_toplevel_image_capture_source_manager_v1_create_source(
            setup.toplevelSources, closed.proxy)
        let (_, late) = setup.session(of: source)
        #expect(setup.client.roundtrip())
        #expect(late.stopped && late.size == nil)
    }

    @Test func anUnmappingWindowStopsItsSessionWithoutABlankFrame() throws {
        let setup = try CaptureSetup()
        let (session, record, _) = try setup.toplevelSession(title: "red")
        let target = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: 0))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        let (_, two) = setup.capture(session, into: target.buffer)
        #expect(setup.client.roundtrip())
        #expect(setup.toplevel.unmap())
        #expect(record.stopped && two.failed == Self.stopped && !two.ready)
        #expect((0..<(60 * 40)).allSatisfy { target.pixels[$0] | 0xff00_0000 == Self.red })
    }

    @Test func aResizedWindowAnnouncesItsNewSize() throws {
        let setup = try CaptureSetup()
        let (session, record, _) = try setup.toplevelSession(title: "red")
        #expect(setup.client.roundtrip())
        #expect(setup.toplevel.ackAndRedraw(width: 80, height: 30, argb: Self.red))
        #expect(record.size.map { $0 == (80, 30) } == true && record.dones == 2)
        let old = try #require(setup.shell.makeBuffer(width: 60, height: 40, argb: 0))
        let (_, frame) = setup.capture(session, into: old.buffer)
        #expect(setup.client.roundtrip())
        #expect(frame.failed == Self.bufferConstraints)
    }

    // MARK: Bad buffers, errors, budgets, lifetimes

    @Test func aTooSmallBufferOrOneNotOfShmFailsWithBufferConstraints() throws {
        let setup = try CaptureSetup()
        let (session, _) = setup.outputSession()
        let small = try #require(setup.shell.makeBuffer(width: 10, height: 10, argb: 0))
        let (first, one) = setup.capture(session, into: small.buffer)
        #expect(setup.client.roundtrip())
        #expect(one.failed == Self.bufferConstraints)
        ext_image_copy_capture_frame_v1_destroy(first)
        let pixels = try setup.client.bind(wp_single_pixel_buffer_manager_v1_interface_ptr(), version: 1)
        let single = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(pixels, 0, 0, 0, 0xffff_ffff)
        let (second, two) = setup.capture(session, into: single)
        #expect(setup.client.roundtrip())
        #expect(two.failed == Self.bufferConstraints)
        ext_image_copy_capture_frame_v1_destroy(second)
        // Neither counted as a capture: the next good one is immediate.
        let good = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        let (_, three) = setup.capture(session, into: good.buffer)
        #expect(setup.client.wait { three.ready })
        wl_buffer_destroy(single)
    }

    @Test func aBufferDestroyedWhileItsFrameWaitsFailsTheFrame() throws {
        let setup = try CaptureSetup()
        let (session, _) = setup.outputSession()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        let (first, one) = setup.capture(session, into: target.buffer)
        #expect(setup.client.wait { one.ready })
        ext_image_copy_capture_frame_v1_destroy(first)
        var doomed = setup.shell.makeBuffer(width: 320, height: 200, argb: 0)
        #expect(doomed != nil)
        let (_, two) = setup.capture(session, into: doomed?.buffer)
        #expect(setup.client.roundtrip())
        doomed = nil
        #expect(setup.client.roundtrip())
        #expect(two.failed == Self.unknown)
        #expect(setup.toplevel.ackAndRedraw(width: 60, height: 40, argb: Self.green))
        setup.server.repaint()
        #expect(setup.client.roundtrip())
        #expect(!two.ready)
    }

    /// Sends `body`'s requests on a fresh setup and returns the protocol error they caused.
    static func error(_ body: (CaptureSetup, OpaquePointer?) throws -> Void) throws -> (
        code: UInt32, interface: String
    )? {
        let setup = try CaptureSetup()
        let (session, _) = setup.outputSession()
        try body(setup, session)
        #expect(!setup.client.roundtrip())
        return setup.client.protocolError.map { ($0.code, $0.interface) }
    }

    @Test func theSpecsErrorsAreRaised() throws {
        let invalidOption = try Self.error { setup, _ in
            let source = ext_output_image_capture_source_manager_v1_create_source(setup.outputSources, setup.output)
            _ = ext_image_copy_capture_manager_v1_create_session(setup.manager, source, 2)
        }
        #expect(
            invalidOption?.code == EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_ERROR_INVALID_OPTION.rawValue
                && invalidOption?.interface == "ext_image_copy_capture_manager_v1")
        let duplicateFrame = try Self.error { _, session in
            _ = ext_image_copy_capture_session_v1_create_frame(session)
            _ = ext_image_copy_capture_session_v1_create_frame(session)
        }
        #expect(
            duplicateFrame?.code == EXT_IMAGE_COPY_CAPTURE_SESSION_V1_ERROR_DUPLICATE_FRAME.rawValue
                && duplicateFrame?.interface == "ext_image_copy_capture_session_v1")
        let noBuffer = try Self.error { _, session in
            ext_image_copy_capture_frame_v1_capture(ext_image_copy_capture_session_v1_create_frame(session))
        }
        #expect(
            noBuffer?.code == EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_NO_BUFFER.rawValue
                && noBuffer?.interface == "ext_image_copy_capture_frame_v1")
        for (x, y, w, h) in [(-1, 0, 10, 10), (0, -1, 10, 10), (0, 0, 0, 10), (0, 0, 10, -5)]
            as [(Int32, Int32, Int32, Int32)]
        {
            let badDamage = try Self.error { _, session in
                ext_image_copy_capture_frame_v1_damage_buffer(
                    ext_image_copy_capture_session_v1_create_frame(session), x, y, w, h)
            }
            #expect(badDamage?.code == EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_INVALID_BUFFER_DAMAGE.rawValue)
        }
        for late in 0..<3 {
            let alreadyCaptured = try Self.error { setup, session in
                let buffer = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
                let (frame, _) = setup.capture(session, into: buffer.buffer)
                switch late {
                case 0: ext_image_copy_capture_frame_v1_capture(frame)
                case 1: ext_image_copy_capture_frame_v1_attach_buffer(frame, buffer.buffer)
                default: ext_image_copy_capture_frame_v1_damage_buffer(frame, 0, 0, 1, 1)
                }
            }
            #expect(alreadyCaptured?.code == EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_ALREADY_CAPTURED.rawValue)
        }
        let duplicateSession = try Self.error { setup, _ in
            let source = ext_output_image_capture_source_manager_v1_create_source(setup.outputSources, setup.output)
            let seat = try setup.client.bind(wl_seat_interface_ptr(), version: 8)
            let pointer = wl_seat_get_pointer(seat)
            let cursor = ext_image_copy_capture_manager_v1_create_pointer_cursor_session(setup.manager, source, pointer)
            _ = ext_image_copy_capture_cursor_session_v1_get_capture_session(cursor)
            _ = ext_image_copy_capture_cursor_session_v1_get_capture_session(cursor)
        }
        #expect(
            duplicateSession?.code == EXT_IMAGE_COPY_CAPTURE_CURSOR_SESSION_V1_ERROR_DUPLICATE_SESSION.rawValue
                && duplicateSession?.interface == "ext_image_copy_capture_cursor_session_v1")
    }

    @Test func cursorSessionsAreNotOfferedTheirSessionStopsAtOnce() throws {
        let setup = try CaptureSetup()
        let source = ext_output_image_capture_source_manager_v1_create_source(setup.outputSources, setup.output)
        let seat = try setup.client.bind(wl_seat_interface_ptr(), version: 8)
        let cursor = ext_image_copy_capture_manager_v1_create_pointer_cursor_session(
            setup.manager, source, wl_seat_get_pointer(seat))
        let record = SessionRecord()
        let session = ext_image_copy_capture_cursor_session_v1_get_capture_session(cursor)
        ext_image_copy_capture_session_v1_add_listener(
            session, &Self.sessionListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(setup.client.roundtrip())
        #expect(record.stopped && record.size == nil)
    }

    @Test func tenThousandSessionsStopAtTheBudgetAndLeaveNothingBehind() throws {
        let setup = try CaptureSetup()
        let source = ext_output_image_capture_source_manager_v1_create_source(setup.outputSources, setup.output)
        // Up to the cap, made and destroyed: the count is given back.
        for _ in 0..<2 {
            var made: [OpaquePointer?] = []
            for _ in 0..<ClientBudget.maxCaptureSessionsPerClient {
                made.append(ext_image_copy_capture_manager_v1_create_session(setup.manager, source, 0))
            }
            #expect(setup.client.roundtrip())
            #expect(setup.server.compositor.imageCopyCapture.sessionCount == ClientBudget.maxCaptureSessionsPerClient)
            for session in made { ext_image_copy_capture_session_v1_destroy(session) }
            #expect(setup.client.roundtrip())
            #expect(setup.server.compositor.imageCopyCapture.sessionCount == 0)
        }
        // 10,000 without destroying: the one past the cap is no_memory.
        var sent = 0
        while sent < 10_000 {
            for _ in 0..<100 { _ = ext_image_copy_capture_manager_v1_create_session(setup.manager, source, 0) }
            sent += 100
            if !setup.client.roundtrip() { break }
        }
        #expect(sent < 10_000)
        // wl_display.error no_memory: libwayland-client reports it as ENOMEM.
        #expect(setup.client.connectionError == ENOMEM)
        setup.server.step()
        #expect(setup.server.compositor.imageCopyCapture.sessionCount == 0)
    }

    @Test func destroyingInAnyOrderLeavesNothingBehind() throws {
        let server = try TestServer(width: 320, height: 200)
        let baseline = server.liveCounts
        for order in 0..<4 {
            let client = try TestClient(server: server)
            let shell = try TestXdgShell(client: client)
            let toplevel = try #require(shell.makeToplevel())
            xdg_toplevel_set_title(toplevel.toplevel, "app")
            #expect(toplevel.map(width: 60, height: 40, argb: Self.red))
            let manager = try client.bind(ext_image_copy_capture_manager_v1_interface_ptr(), version: 1)
            let sources = try client.bind(
                ext_foreign_toplevel_image_capture_source_manager_v1_interface_ptr(), version: 1)
            let (list, entries) = try ForeignToplevelListTests.bindList(client)
            defer { withExtendedLifetime(entries) {} }
            let handle = try #require(entries.entry("app")).proxy
            let source = ext_foreign_toplevel_image_capture_source_manager_v1_create_source(sources, handle)
            let session = ext_image_copy_capture_manager_v1_create_session(manager, source, 0)
            let buffer = try #require(shell.makeBuffer(width: 60, height: 40, argb: 0))
            let first = ext_image_copy_capture_session_v1_create_frame(session)
            ext_image_copy_capture_frame_v1_attach_buffer(first, buffer.buffer)
            ext_image_copy_capture_frame_v1_capture(first)
            ext_image_copy_capture_frame_v1_destroy(first)
            // A second frame waits for the window to change.
            let waiting = ext_image_copy_capture_session_v1_create_frame(session)
            ext_image_copy_capture_frame_v1_attach_buffer(waiting, buffer.buffer)
            ext_image_copy_capture_frame_v1_capture(waiting)
            #expect(client.roundtrip())
            switch order {
            case 0:  // the handle, the source, the manager, the list, then the session and the frame
                ext_foreign_toplevel_handle_v1_destroy(handle)
                ext_image_capture_source_v1_destroy(source)
                ext_image_copy_capture_manager_v1_destroy(manager)
                ext_foreign_toplevel_list_v1_destroy(list)
                #expect(client.roundtrip())
                #expect(toplevel.ackAndRedraw(width: 60, height: 40, argb: Self.green))
                ext_image_copy_capture_session_v1_destroy(session)
                ext_image_copy_capture_frame_v1_destroy(waiting)
            case 1:  // the session under its waiting frame, then the window
                ext_image_copy_capture_session_v1_destroy(session)
                #expect(client.roundtrip())
                toplevel.destroyToplevel()
                #expect(client.roundtrip())
                ext_image_copy_capture_frame_v1_destroy(waiting)
            case 2:  // the window's surface first, then the frame, then the rest
                toplevel.destroySurface()
                #expect(client.roundtrip())
                ext_image_copy_capture_frame_v1_destroy(waiting)
                ext_image_copy_capture_session_v1_destroy(session)
                ext_image_capture_source_v1_destroy(source)
            default:  // nothing: the client disconnects with everything alive
                break
            }
            #expect(client.roundtrip())
        }
        server.step()
        #expect(server.liveCounts == baseline)
        #expect(server.compositor.imageCopyCapture.sessionCount == 0)
    }
}
