import CXCB
import Foundation
import StrataModel
import StrataNestedBackends
import StrataServer
import Testing

/// The test's own X connection to the parent Xvfb: reads windows' pixels and properties back,
/// resizes them, and sends them events as a window manager or the user would.
final class X11Probe {
    let connection: OpaquePointer

    init(display: String) throws {
        guard let c = xcb_connect(display, nil), xcb_connection_has_error(c) == 0 else {
            throw ParentSessionError.didNotStart("the test cannot connect to \(display)")
        }
        connection = c
    }

    deinit { xcb_disconnect(connection) }

    /// The window's pixels (0xRRGGBB), row by row.
    func pixels(of window: UInt32, width: Int, height: Int) -> [UInt32]? {
        let cookie = xcb_get_image(
            connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, 0, 0, UInt16(width), UInt16(height), ~0)
        guard let reply = xcb_get_image_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_image_data_length(reply))
        guard length >= width * height * 4, let data = xcb_get_image_data(reply) else { return nil }
        return (0..<(width * height)).map { i in
            UnsafeRawPointer(data).loadUnaligned(fromByteOffset: i * 4, as: UInt32.self) & 0x00ff_ffff
        }
    }

    func stringProperty(_ atom: xcb_atom_t, of window: UInt32) -> String? {
        let cookie = xcb_get_property(connection, 0, window, atom, XCB_ATOM_ANY.rawValue, 0, 1024)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard let value = xcb_get_property_value(reply) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
    }

    func atom(_ name: String) -> xcb_atom_t {
        guard
            let reply = xcb_intern_atom_reply(
                connection, xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name), nil)
        else {
            return 0
        }
        defer { free(reply) }
        return reply.pointee.atom
    }

    func resize(_ window: UInt32, width: UInt32, height: UInt32) {
        let values = [width, height]
        xcb_configure_window(
            connection, window, UInt16(XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue), values)
        xcb_flush(connection)
    }

    /// Sends an event as the window manager or another client would (SendEvent).
    func send<Event>(_ event: Event, to window: UInt32, mask: UInt32, flush: Bool = true) {
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: event) { raw in
            for i in 0..<min(32, raw.count) { bytes[i] = raw[i] }
        }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = xcb_send_event(connection, 0, window, mask, chars.baseAddress)
            }
        }
        if flush { xcb_flush(connection) }
    }

    func button(_ button: UInt8, pressed: Bool, x: Int16, y: Int16, window: UInt32) {
        var e = xcb_button_press_event_t()
        e.response_type = UInt8(pressed ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE)
        e.detail = button
        e.time = 1000
        e.event = window
        e.event_x = x
        e.event_y = y
        e.same_screen = 1
        send(
            e, to: window, mask: pressed ? XCB_EVENT_MASK_BUTTON_PRESS.rawValue : XCB_EVENT_MASK_BUTTON_RELEASE.rawValue
        )
    }

    func motion(x: Int16, y: Int16, window: UInt32) {
        var e = xcb_motion_notify_event_t()
        e.response_type = UInt8(XCB_MOTION_NOTIFY)
        e.time = 1001
        e.event = window
        e.event_x = x
        e.event_y = y
        e.same_screen = 1
        send(e, to: window, mask: XCB_EVENT_MASK_POINTER_MOTION.rawValue)
    }

    func key(_ keycode: UInt8, pressed: Bool, time: UInt32 = 1002, window: UInt32, flush: Bool = true) {
        var e = xcb_key_press_event_t()
        e.response_type = UInt8(pressed ? XCB_KEY_PRESS : XCB_KEY_RELEASE)
        e.detail = keycode
        e.time = time
        e.event = window
        e.same_screen = 1
        send(
            e, to: window, mask: pressed ? XCB_EVENT_MASK_KEY_PRESS.rawValue : XCB_EVENT_MASK_KEY_RELEASE.rawValue,
            flush: flush)
    }

    /// What a window manager sends when the user closes the window.
    func deleteWindow(_ window: UInt32) {
        var e = xcb_client_message_event_t()
        e.response_type = UInt8(XCB_CLIENT_MESSAGE)
        e.format = 32
        e.window = window
        e.type = atom("WM_PROTOCOLS")
        e.data.data32.0 = atom("WM_DELETE_WINDOW")
        e.data.data32.1 = 0  // CurrentTime
        send(e, to: window, mask: 0)
    }
}

/// Strata nested in Debian's Xvfb: pixels read back from the X windows, input sent to them.
@Suite(
    .serialized, .timeLimit(.minutes(1)),
    .enabled(if: ParentXvfb.isInstalled, Comment(rawValue: ParentXvfb.missingMessage)))
struct XvfbParentTests {
    static let colour: UInt32 = 0xff3c_b371

    func nested(
        in xvfb: ParentXvfb, screens: Int = 1, width: Int = 320, height: Int = 200, useSharedMemory: Bool = true
    ) throws
        -> (X11Backend, Compositor)
    {
        let backend = try X11Backend(
            displayName: xvfb.display, screens: screens, modes: [ScreenMode(width: width, height: height)],
            useSharedMemory: useSharedMemory)
        let compositor = try Compositor(backend: backend)
        compositor.scene.backgroundARGB = Self.colour
        return (backend, compositor)
    }

    func window(_ backend: X11Backend, _ output: ScreenOutput) throws -> UInt32 {
        try #require(backend.window(for: output))
    }

    @Test(arguments: [true, false])
    func eachScreenIsAnXWindowNamedAfterItShowingTheCanvas(useSharedMemory: Bool) throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb, useSharedMemory: useSharedMemory)
        defer { compositor.shutdown() }
        #expect(backend.hasSharedMemory == useSharedMemory, "Xvfb has MIT-SHM")
        let probe = try X11Probe(display: xvfb.display)
        let output = try #require(compositor.scene.outputs.first)
        let window = try window(backend, output)
        #expect(output.screen.name == "X11-1")
        #expect(probe.stringProperty(XCB_ATOM_WM_NAME.rawValue, of: window) == "X11-1")
        #expect(probe.stringProperty(probe.atom("WM_CLASS"), of: window) == "strata\0Strata\0")
        #expect(step(compositor) { backend.presentedFrames(for: output) >= 1 })
        let pixels = try #require(
            settled(compositor, read: { probe.pixels(of: window, width: 320, height: 200) }) {
                $0.allSatisfy { $0 == Self.colour & 0xffffff }
            })
        #expect(pixels.allSatisfy { $0 == Self.colour & 0xffffff })
    }

    @Test func onlyDamageIsPutAndTheRestStays() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb)
        defer { compositor.shutdown() }
        let probe = try X11Probe(display: xvfb.display)
        let output = try #require(compositor.scene.outputs.first)
        let window = try window(backend, output)
        #expect(step(compositor) { backend.presentedFrames(for: output) >= 1 })
        settle(compositor, seconds: 0.1)
        let before = backend.presentedFrames(for: output)
        compositor.scene.backgroundARGB = 0xffc8_3232
        output.damage.addRect(x: 10, y: 20, width: 30, height: 40)
        compositor.scene.scheduleFrame(output)
        #expect(step(compositor) { backend.presentedFrames(for: output) > before })
        let pixels = try #require(
            settled(compositor, read: { probe.pixels(of: window, width: 320, height: 200) }) {
                $0.filter { $0 == 0xc8_3232 }.count == 30 * 40
                    && $0.filter { $0 == Self.colour & 0xffffff }.count == 320 * 200 - 30 * 40
            })
        #expect(pixels.filter { $0 == 0xc8_3232 }.count == 30 * 40)
        #expect(pixels[25 * 320 + 15] == 0xc8_3232)
        #expect(pixels.filter { $0 == Self.colour & 0xffffff }.count == 320 * 200 - 30 * 40)
    }

    @Test func aConfigureNotifyWithANewSizeBecomesTheScreensMode() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb)
        defer { compositor.shutdown() }
        let probe = try X11Probe(display: xvfb.display)
        let output = try #require(compositor.scene.outputs.first)
        let window = try window(backend, output)
        #expect(step(compositor) { backend.presentedFrames(for: output) >= 1 })
        probe.resize(window, width: 500, height: 300)
        #expect(step(compositor) { output.width == 500 && output.height == 300 })
        #expect(output.screen.currentMode == ScreenMode(width: 500, height: 300))
        let pixels = try #require(
            settled(compositor, read: { probe.pixels(of: window, width: 500, height: 300) }) {
                $0.allSatisfy { $0 == Self.colour & 0xffffff }
            })
        #expect(pixels.allSatisfy { $0 == Self.colour & 0xffffff })
    }

    @Test func pointerAndKeyEventsReachTheSeatInScreenCoordinatesAndEvdevCodes() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb, screens: 2)
        defer { compositor.shutdown() }
        let recorder = InputRecorder()
        backend.input = recorder
        let probe = try X11Probe(display: xvfb.display)
        let second = compositor.scene.outputs[1]
        let window = try window(backend, second)
        #expect(step(compositor) { backend.presentedFrames(for: second) >= 1 })
        _ = recorder.take()
        probe.motion(x: 7, y: 9, window: window)
        probe.button(1, pressed: true, x: 10, y: 20, window: window)
        probe.button(1, pressed: false, x: 10, y: 20, window: window)
        probe.button(3, pressed: true, x: 11, y: 21, window: window)
        probe.button(4, pressed: true, x: 11, y: 21, window: window)
        probe.button(4, pressed: false, x: 11, y: 21, window: window)
        probe.key(38, pressed: true, window: window)  // X keycode 38 = evdev 30 (KEY_A)
        probe.key(38, pressed: false, time: 1100, window: window)
        #expect(step(compositor) { recorder.events.count >= 12 })
        #expect(
            recorder.take() == [
                .motion(screen: "X11-2", x: 7, y: 9),
                .motion(screen: "X11-2", x: 10, y: 20), .button(0x110, pressed: true),
                .motion(screen: "X11-2", x: 10, y: 20), .button(0x110, pressed: false),
                .motion(screen: "X11-2", x: 11, y: 21), .button(0x111, pressed: true),
                .motion(screen: "X11-2", x: 11, y: 21), .axis(vertical: -10, horizontal: 0),
                .motion(screen: "X11-2", x: 11, y: 21),
                .key(30, pressed: true), .key(30, pressed: false),
            ])
    }

    /// Xvfb grants XKB's detectable autorepeat: a held key comes as presses and one release (no
    /// release-and-press pairs to guess from), and the repeated presses are dropped.
    @Test func autorepeatsAreDroppedAndHeldKeysAreReleasedWhenFocusLeaves() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb)
        defer { compositor.shutdown() }
        #expect(backend.detectableAutorepeat)
        let recorder = InputRecorder()
        backend.input = recorder
        let probe = try X11Probe(display: xvfb.display)
        let output = try #require(compositor.scene.outputs.first)
        let window = try window(backend, output)
        #expect(step(compositor) { backend.presentedFrames(for: output) >= 1 })
        _ = recorder.take()
        probe.key(38, pressed: true, time: 2000, window: window)
        // Autorepeats, as a server with detectable autorepeat sends them.
        probe.key(38, pressed: true, time: 2030, window: window)
        probe.key(38, pressed: true, time: 2060, window: window)
        var focusOut = xcb_focus_out_event_t()
        focusOut.response_type = UInt8(XCB_FOCUS_OUT)
        focusOut.event = window
        probe.send(focusOut, to: window, mask: XCB_EVENT_MASK_FOCUS_CHANGE.rawValue)
        #expect(step(compositor) { recorder.events.count >= 2 })
        settle(compositor, seconds: 0.1)
        #expect(recorder.take() == [.key(30, pressed: true), .key(30, pressed: false)])
    }

    @Test func wmDeleteWindowDisconnectsThatScreenAndTheLastOneEndsStrata() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb, screens: 2)
        defer { compositor.shutdown() }
        var lastClosed = 0
        backend.onLastScreenClosed = { lastClosed += 1 }
        let probe = try X11Probe(display: xvfb.display)
        let first = compositor.scene.outputs[0], second = compositor.scene.outputs[1]
        let firstWindow = try window(backend, first), secondWindow = try window(backend, second)
        probe.deleteWindow(firstWindow)
        #expect(step(compositor) { compositor.scene.outputs.count == 1 })
        #expect(compositor.scene.outputs.first === second)
        #expect(!first.screen.isConnected)
        #expect(lastClosed == 0)
        probe.deleteWindow(secondWindow)
        #expect(step(compositor) { lastClosed == 1 })
        #expect(compositor.scene.outputs.isEmpty)
        #expect(compositor.windows.screens.isEmpty)
    }

    @Test func losingTheXServerEndsStrataWithAMessage() throws {
        let xvfb = try ParentXvfb()
        let (backend, compositor) = try nested(in: xvfb)
        defer { compositor.shutdown() }
        var message: String?
        backend.onParentLost = { message = $0 }
        let output = try #require(compositor.scene.outputs.first)
        #expect(step(compositor) { backend.presentedFrames(for: output) >= 1 })
        xvfb.stop()
        #expect(step(compositor) { message != nil })
        #expect(message?.hasPrefix("lost the connection to the X server (DISPLAY=\(xvfb.display)): ") == true)
        compositor.scene.damageAll(output)
        compositor.scene.repaintDamagedScreens()
    }

    @Test func theParentsKeymapIsReadWithXkbcommonX11() throws {
        let xvfb = try ParentXvfb()
        let backend = try X11Backend(displayName: xvfb.display, modes: [ScreenMode(width: 64, height: 64)])
        #expect(backend.parentKeymap?.contains("xkb_keymap") == true)
    }
}
