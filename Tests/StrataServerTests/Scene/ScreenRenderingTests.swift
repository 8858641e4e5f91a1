import CStrataClientGlue
import CWaylandClient
import StrataModel
import StrataServer
import StrataTestSupport
import Testing

/// What screens show besides windows: mirroring of the main screen, black empty screens,
/// brightness and orientation, pixel-exact with deterministic buffers.
@Suite struct ScreenRenderingTests {
    /// A main screen of `mainSize` and a second screen of `secondSize`, one client.
    func twoScreens(main: (Int, Int), second: (Int, Int)) throws -> (
        TestServer, TestXdgShell, ScreenOutput, ScreenOutput
    ) {
        let server = try TestServer(screens: 1, width: main.0, height: main.1)
        let added = server.backend.addScreen(
            to: server.compositor, modes: [ScreenMode(width: second.0, height: second.1)])
        let secondOutput = try #require(added)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        return (server, shell, server.compositor.scene.outputs[0], secondOutput)
    }

    /// Maps a toplevel of one colour and puts it at (0, 0) of its screen.
    func showWindow(_ shell: TestXdgShell, _ server: TestServer, width: Int32, height: Int32, argb: UInt32) throws -> (
        TestToplevel, Window
    ) {
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.map(width: width, height: height, argb: argb))
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 0, y: 0, width: Int(width), height: Int(height)))
        return (toplevel, window)
    }

    @Test func anEmptyExternalScreenMirrorsTheMainScreenScaledToFitAndLetterboxed() throws {
        let (server, shell, _, second) = try twoScreens(main: (200, 100), second: (100, 100))
        let (_, _) = try showWindow(shell, server, width: 200, height: 100, argb: Colour.red)
        server.repaint()
        #expect(second.screen.isMirroring)
        // The 200×100 picture becomes 100×50 at y 25…75; black bars above and below.
        #expect(second.canvas.pixel(x: 50, y: 50) == Colour.red)
        #expect(second.canvas.pixel(x: 5, y: 30) == Colour.red)
        #expect(second.canvas.pixel(x: 50, y: 10) == 0xff00_0000)
        #expect(second.canvas.pixel(x: 50, y: 90) == 0xff00_0000)
    }

    @Test func mirroringFollowsTheMainScreensChanges() throws {
        let (server, shell, _, second) = try twoScreens(main: (200, 100), second: (100, 100))
        let (toplevel, _) = try showWindow(shell, server, width: 200, height: 100, argb: Colour.red)
        server.repaint()
        #expect(toplevel.ackAndRedraw(width: 200, height: 100, argb: Colour.blue))
        server.repaint()  // main repaints; the mirror is damaged and repaints in the same pass or the next
        server.repaint()
        #expect(second.canvas.pixel(x: 50, y: 50) == Colour.blue)
    }

    @Test func aWindowOnTheExternalScreenEndsMirroringAndItsDepartureResumesIt() throws {
        let (server, shell, _, second) = try twoScreens(main: (200, 100), second: (100, 100))
        let (_, mainWindow) = try showWindow(shell, server, width: 200, height: 100, argb: Colour.red)
        _ = mainWindow
        let (_, other) = try showWindow(shell, server, width: 20, height: 20, argb: Colour.green)
        #expect(server.windows.move(other, to: second.screen, origin: Point(x: 10, y: 10)))
        server.repaint()
        #expect(!second.screen.isMirroring)
        #expect(second.canvas.pixel(x: 15, y: 15) == Colour.green)
        #expect(second.canvas.pixel(x: 50, y: 50) == TestServer.background)
        server.windows.hide(other)
        server.repaint()
        #expect(second.screen.isMirroring)
        #expect(second.canvas.pixel(x: 50, y: 50) == Colour.red)
    }

    @Test func anEmptyExternalScreenWithMirroringOffIsBlack() throws {
        let (server, shell, _, second) = try twoScreens(main: (200, 100), second: (100, 100))
        _ = try showWindow(shell, server, width: 200, height: 100, argb: Colour.red)
        server.windows.setMirroring(false, for: second.screen)
        server.repaint()
        #expect(!second.screen.isMirroring)
        #expect(second.canvas.pixel(x: 50, y: 50) == 0xff00_0000)
    }

    @Test func halfBrightnessHalvesEveryChannelOfWhatTheScreenShows() throws {
        let server = try TestServer(width: 100, height: 100)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        _ = try showWindow(shell, server, width: 50, height: 50, argb: 0xffc0_8040)
        let output = server.compositor.scene.outputs[0]
        server.windows.setBrightness(0.5, for: output.screen)
        server.repaint()
        let shown = try #require(output.presentation?.pixel(x: 10, y: 10))
        func channel(_ p: UInt32, _ shift: UInt32) -> Int { Int((p >> shift) & 0xff) }
        #expect(
            abs(channel(shown, 16) - 0x60) <= 1 && abs(channel(shown, 8) - 0x40) <= 1
                && abs(channel(shown, 0) - 0x20) <= 1)
        // The composed picture itself is untouched (mirrors and screenshots of windows read it).
        #expect(output.canvas.pixel(x: 10, y: 10) == 0xffc0_8040)
        server.windows.setBrightness(1, for: output.screen)
        server.repaint()
        #expect(output.presentation == nil)
        #expect(output.displayCanvas.pixel(x: 10, y: 10) == 0xffc0_8040)
    }

    /// Where a logical pixel shows on the display for a wl_output transform (the same relation
    /// as a surface pixel to its buffer pixel), written out independently.
    static func displayPixel(transform: ScreenTransform, lx: Int, ly: Int, lw: Int, lh: Int) -> (Int, Int) {
        switch transform {
        case .rotated90: return (ly, lw - 1 - lx)
        case .rotated180: return (lw - 1 - lx, lh - 1 - ly)
        case .rotated270: return (lh - 1 - ly, lx)
        case .flipped: return (lw - 1 - lx, ly)
        case .flipped90: return (ly, lx)
        case .flipped180: return (lx, lh - 1 - ly)
        case .flipped270: return (lh - 1 - ly, lw - 1 - lx)
        case .normal: return (lx, ly)
        }
    }

    @Test(arguments: ScreenTransform.allCases)
    func everyScreenTransformShowsEachLogicalPixelWhereTheTransformSays(transform: ScreenTransform) throws {
        let server = try TestServer(width: 40, height: 20)
        let shell = try TestXdgShell(client: try TestClient(server: server))
        let output = server.compositor.scene.outputs[0]
        server.windows.setTransform(transform, for: output.screen)
        let lw = Int(output.width), lh = Int(output.height)
        #expect(transform.swapsAxes ? (lw, lh) == (20, 40) : (lw, lh) == (40, 20))
        // A window filling the logical screen with four quadrant colours.
        let toplevel = try #require(shell.makeToplevel())
        #expect(toplevel.commitInitial())
        toplevel.ack()
        let buffer = try #require(shell.makeBuffer(width: Int32(lw), height: Int32(lh), argb: Colour.red))
        buffer.fill(x: Int32(lw / 2), y: 0, width: Int32(lw / 2), height: Int32(lh / 2), Colour.green)
        buffer.fill(x: 0, y: Int32(lh / 2), width: Int32(lw / 2), height: Int32(lh / 2), Colour.blue)
        buffer.fill(x: Int32(lw / 2), y: Int32(lh / 2), width: Int32(lw / 2), height: Int32(lh / 2), Colour.yellow)
        toplevel.attach(buffer)
        toplevel.commit()
        #expect(shell.client.roundtrip())
        let window = try #require(server.windows.windows.last)
        server.compositor.windows.setFrame(window, Rect(x: 0, y: 0, width: lw, height: lh))
        server.repaint()
        let display = output.displayCanvas
        #expect(display.width == 40 && display.height == 20)
        for ly in 0..<lh {
            for lx in 0..<lw {
                let (px, py) = Self.displayPixel(transform: transform, lx: lx, ly: ly, lw: lw, lh: lh)
                let expected = buffer.pixels[ly * lw + lx]
                if display.pixel(x: Int32(px), y: Int32(py)) != expected {
                    Issue.record("\(transform): logical (\(lx),\(ly)) should show at (\(px),\(py))")
                    return
                }
            }
        }
    }

    final class OutputRecord {
        var transforms: [Int32] = []
        var modes: [(Int32, Int32)] = []
        var dones = 0
    }

    static var outputListener = wl_output_listener(
        geometry: { data, _, _, _, _, _, _, _, _, transform in
            guard let data else { return }
            Unmanaged<OutputRecord>.fromOpaque(data).takeUnretainedValue().transforms.append(transform)
        },
        mode: { data, _, _, width, height, _ in
            guard let data else { return }
            Unmanaged<OutputRecord>.fromOpaque(data).takeUnretainedValue().modes.append((width, height))
        },
        done: { data, _ in
            guard let data else { return }
            Unmanaged<OutputRecord>.fromOpaque(data).takeUnretainedValue().dones += 1
        },
        scale: { _, _, _ in },
        name: { _, _, _ in },
        description: { _, _, _ in })

    @Test func wlOutputAnnouncesTheNewTransformAndModeAfterAChange() throws {
        let server = try TestServer(width: 40, height: 20)
        let client = try TestClient(server: server)
        let record = OutputRecord()
        let proxy = try client.bind(wl_output_interface_ptr(), version: 4)
        wl_output_add_listener(proxy, &Self.outputListener, Unmanaged.passUnretained(record).toOpaque())
        #expect(client.roundtrip())
        #expect(record.transforms == [0] && record.dones == 1)
        let output = server.compositor.scene.outputs[0]
        server.windows.setTransform(.rotated90, for: output.screen)
        #expect(client.roundtrip())
        #expect(record.transforms == [0, 1] && record.dones == 2)
        // The mode stays the panel's (40×20); the logical screen turns to 20×40.
        #expect(record.modes.last.map { $0 == (40, 20) } == true)
        #expect(output.width == 20 && output.height == 40)
        withExtendedLifetime(record) {}
    }
}
