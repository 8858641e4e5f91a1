import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

/// zwlr_screencopy_manager_v1: frames of the screen as shown, into client wl_shm buffers.
@Suite struct ScreencopyTests {
    final class FrameRecord {
        var buffer: (format: UInt32, width: UInt32, height: UInt32, stride: UInt32)?
        var bufferDone = false
        var flags: UInt32?
        var ready = false
        var failed = false
        var damage: [(UInt32, UInt32, UInt32, UInt32)] = []
    }

    static var frameListener = zwlr_screencopy_frame_v1_listener(
        buffer: { data, _, format, width, height, stride in
            record(data).buffer = (format, width, height, stride)
        },
        flags: { data, _, flags in record(data).flags = flags },
        ready: { data, _, _, _, _ in record(data).ready = true },
        failed: { data, _ in record(data).failed = true },
        damage: { data, _, x, y, w, h in record(data).damage.append((x, y, w, h)) },
        linux_dmabuf: { _, _, _, _, _ in },
        buffer_done: { data, _ in record(data).bufferDone = true })

    static func record(_ data: UnsafeMutableRawPointer?) -> FrameRecord {
        Unmanaged<FrameRecord>.fromOpaque(data!).takeUnretainedValue()
    }

    /// A screen with a red window at its top left, a client with the manager and the output.
    /// Released in declaration order: the window before the connection it lives on.
    struct ScreencopySetup {
        let toplevel: TestToplevel
        let manager: OpaquePointer
        let output: OpaquePointer
        let fixture: ClientFixture
        var shell: TestXdgShell { fixture.shell }
        var server: TestServer { fixture.server }
    }

    static func makeSetup(width: Int = 320, height: Int = 200) throws -> ScreencopySetup {
        let fixture = try ClientFixture(width: width, height: height)
        let toplevel = try #require(fixture.shell.makeToplevel())
        #expect(toplevel.map(width: 60, height: 40, argb: 0xffff_0000))
        let manager = try fixture.client.bind(zwlr_screencopy_manager_v1_interface_ptr(), version: 3)
        let output = try fixture.client.bind(wl_output_interface_ptr(), version: 4)
        return ScreencopySetup(toplevel: toplevel, manager: manager, output: output, fixture: fixture)
    }

    func listen(_ frame: OpaquePointer?, _ record: FrameRecord) {
        zwlr_screencopy_frame_v1_add_listener(frame, &Self.frameListener, Unmanaged.passUnretained(record).toOpaque())
    }

    @Test func aFrameCopiesTheWholeScreenAsStrataShowsIt() throws {
        let setup = try Self.makeSetup()
        let record = FrameRecord()
        let frame = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        listen(frame, record)
        #expect(setup.shell.client.roundtrip())
        let buffer = try #require(record.buffer)
        #expect(
            buffer.format == WL_SHM_FORMAT_XRGB8888.rawValue && buffer.width == 320 && buffer.height == 200
                && buffer.stride == 1280)
        #expect(record.bufferDone)
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(setup.shell.client.wait { record.ready })
        #expect(record.flags == 0 && !record.failed)
        setup.server.repaint()
        var mismatches = 0
        for y in 0..<Int32(200) {
            for x in 0..<Int32(320)
            where target.pixels[Int(y * 320 + x)] | 0xff00_0000 != setup.server.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(target.pixels[0] & 0xffffff == 0xff0000)
        zwlr_screencopy_frame_v1_destroy(frame)
    }

    @Test func aRegionFrameIsClippedToTheScreen() throws {
        let setup = try Self.makeSetup()
        let record = FrameRecord()
        let frame = zwlr_screencopy_manager_v1_capture_output_region(setup.manager, 0, setup.output, 50, 30, 1000, 20)
        listen(frame, record)
        #expect(setup.shell.client.roundtrip())
        #expect(record.buffer.map { $0.width == 270 && $0.height == 20 } == true)
        let target = try #require(setup.shell.makeBuffer(width: 270, height: 20, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(setup.shell.client.wait { record.ready })
        // The red window ends at x 60, y 40 (screen coordinates): frame (9, 9) is red, (10, 0) is not.
        #expect(target.pixels[9 * 270 + 9] & 0xffffff == 0xff0000)
        #expect(target.pixels[10] & 0xffffff != 0xff0000)
        let outside = FrameRecord()
        listen(
            zwlr_screencopy_manager_v1_capture_output_region(setup.manager, 0, setup.output, 400, 0, 10, 10), outside)
        #expect(setup.shell.client.roundtrip())
        #expect(outside.failed && outside.buffer == nil)
    }

    @Test func aBufferOfTheWrongSizeIsAnInvalidBufferError() throws {
        let setup = try Self.makeSetup()
        let frame = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        let target = try #require(setup.shell.makeBuffer(width: 10, height: 10, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(!setup.shell.client.roundtrip())
        #expect(setup.shell.client.protocolError?.code == ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER.rawValue)
    }

    @Test func aFrameCopiedTwiceIsAnAlreadyUsedError() throws {
        let setup = try Self.makeSetup()
        let frame = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        zwlr_screencopy_frame_v1_copy(frame, target.buffer)
        #expect(!setup.shell.client.roundtrip())
        #expect(setup.shell.client.protocolError?.code == ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED.rawValue)
    }

    @Test func copyWithDamageWaitsForAFrameThatChangesTheRegion() throws {
        let setup = try Self.makeSetup()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        // The manager's first copy is immediate and wholly damaged.
        let first = FrameRecord()
        let frame1 = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        listen(frame1, first)
        zwlr_screencopy_frame_v1_copy_with_damage(frame1, target.buffer)
        #expect(setup.shell.client.wait { first.ready })
        #expect(first.damage.count == 1 && first.damage[0] == (0, 0, 320, 200))
        // The second waits until the window shows something new.
        let second = FrameRecord()
        let frame2 = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        listen(frame2, second)
        zwlr_screencopy_frame_v1_copy_with_damage(frame2, target.buffer)
        #expect(setup.shell.client.roundtrip())
        setup.server.repaint()
        #expect(setup.shell.client.roundtrip())
        #expect(!second.ready)
        #expect(setup.toplevel.ackAndRedraw(width: 60, height: 40, argb: 0xff00_ff00))
        setup.server.repaint()
        #expect(setup.shell.client.wait { second.ready })
        #expect(!second.damage.isEmpty && second.damage.allSatisfy { $0.0 + $0.2 <= 60 && $0.1 + $0.3 <= 40 })
        #expect(target.pixels[0] & 0xffffff == 0x00ff00)
    }

    @Test func aFrameWaitingOnAScreenThatDisconnectsFails() throws {
        let setup = try Self.makeSetup()
        let target = try #require(setup.shell.makeBuffer(width: 320, height: 200, argb: 0))
        let first = FrameRecord(), second = FrameRecord()
        let frame1 = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        listen(frame1, first)
        zwlr_screencopy_frame_v1_copy_with_damage(frame1, target.buffer)
        #expect(setup.shell.client.wait { first.ready })
        let frame2 = zwlr_screencopy_manager_v1_capture_output(setup.manager, 0, setup.output)
        listen(frame2, second)
        zwlr_screencopy_frame_v1_copy_with_damage(frame2, target.buffer)
        #expect(setup.shell.client.roundtrip())
        setup.server.compositor.disconnectScreen(setup.server.compositor.scene.outputs[0])
        #expect(setup.shell.client.wait { second.failed })
    }

    @Test func unprivilegedClientsDoNotSeeTheManager() throws {
        let server = try TestServer()
        #expect(try TestClient(server: server).globals["zwlr_screencopy_manager_v1"]?.version == 3)
        server.compositor.clientPrivilege = .nobody
        let other = try TestClient(server: server)
        #expect(other.globals["zwlr_screencopy_manager_v1"] == nil)
        #expect(other.globals["wl_compositor"] != nil)
    }
}
