import Foundation
import StrataModel
import StrataRender
import StrataServer
import StrataTestSupport
import Testing

/// The cursor and pointer constraints with the built `strata` and real Debian clients.
@Suite(.serialized) struct CursorEndToEndTests {
    static let themeArrow = CursorTheme().image(named: "default")
    static let background: UInt32 = 0xff20_2428

    /// Every fully opaque pixel of the theme's arrow at the pointer (hotspot there), every fully
    /// transparent one the background; returns how many opaque pixels matched.
    static func matchArrow(_ image: PNGFile.Pixels, _ arrow: CursorImage, at point: (Int, Int)) -> (
        matched: Int, opaque: Int, mismatches: [String]
    ) {
        var matched = 0, opaque = 0
        var mismatches: [String] = []
        for y in 0..<Int(arrow.height) {
            for x in 0..<Int(arrow.width) {
                guard let p = arrow.pixel(x: Int32(x), y: Int32(y)) else { continue }
                let sx = point.0 - Int(arrow.hotspotX) + x, sy = point.1 - Int(arrow.hotspotY) + y
                guard sx >= 0, sy >= 0, sx < image.width, sy < image.height else { continue }
                let shown = image.argb[sy * image.width + sx]
                if p >> 24 == 0xff {
                    opaque += 1
                    if shown == p {
                        matched += 1
                    } else {
                        mismatches.append("(\(sx),\(sy)) \(String(shown, radix: 16)) ≠ \(String(p, radix: 16))")
                    }
                } else if p == 0, shown != background {
                    mismatches.append("(\(sx),\(sy)) \(String(shown, radix: 16)) should be the background")
                }
            }
        }
        return (matched, opaque, mismatches)
    }

    @Test(
        .enabled(
            if: ControlTests.ctl != nil && themeArrow != nil,
            "strata-ctl is not built or no Xcursor theme is installed (adwaita-icon-theme)"))
    func theThemesArrowAppearsInAHeadlessScreenshotWhenThePointerIsOverTheBackground() async throws {
        let arrow = try #require(Self.themeArrow)
        let session = try await ControlTests.Session.start(["--size", "640x480"])
        // Before any pointer input there is no cursor: the screen is all background.
        try await session.ctl("screenshot", "-o", "before.png")
        let before = try PNGFile.read(path: session.run.root + "/before.png")
        #expect(before.argb.allSatisfy { $0 == Self.background })
        try await session.ctl("input", "pointer", "move", "200", "150")
        try await session.ctl("screenshot", "-o", "after.png")
        let after = try PNGFile.read(path: session.run.root + "/after.png")
        let match = Self.matchArrow(after, arrow, at: (200, 150))
        #expect(match.opaque > 20 && match.matched == match.opaque, "\(match.mismatches.prefix(10))")
        #expect(match.mismatches.isEmpty)
        // Everything away from the arrow is background.
        #expect(after.argb[(100 * after.width) + 100] == Self.background)
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ControlTests.ctl != nil, "strata-ctl is not built"))
    func withoutAnyCursorThemeTheBuiltInArrowIsDrawnAndSaidSo() async throws {
        let arrow = try #require(CursorImage.builtInArrow())
        // libXcursor searches only XCURSOR_PATH: an empty folder has no theme at all.
        let empty = NSTemporaryDirectory() + "strata-no-cursors-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let run = try StrataRun(
            ["--size", "320x240"],
            environment: [
                "PATH": ControlTests.path, "XCURSOR_PATH": empty,
                "XCURSOR_THEME": nil,
            ])
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let session = ControlTests.Session(run: run, socket: socket)
        try await session.ctl("input", "pointer", "move", "100", "80")
        try await session.ctl("screenshot", "-o", "shot.png")
        let shot = try PNGFile.read(path: run.root + "/shot.png")
        let match = Self.matchArrow(shot, arrow, at: (100, 80))
        #expect(
            match.opaque > 20 && match.matched == match.opaque && match.mismatches.isEmpty,
            "\(match.mismatches.prefix(10))")
        #expect(run.stderr.contains("using a built-in arrow"), "stderr: \(run.stderr)")
        #expect(await session.stop().status == 0)
    }

    @Test(.enabled(if: ControlTests.ctl != nil, "strata-ctl is not built"))
    func hideCursorKeepsScreenshotsFreeOfTheCursor() async throws {
        let session = try await ControlTests.Session.start(["--size", "320x240", "--hide-cursor"])
        try await session.ctl("input", "pointer", "move", "100", "100")
        try await session.ctl("screenshot", "-o", "shot.png")
        let shot = try PNGFile.read(path: session.run.root + "/shot.png")
        #expect(shot.argb.allSatisfy { $0 == Self.background })
        #expect(await session.stop().status == 0)
    }

    // MARK: Real clients against an in-process server

    static func visibleWindows(_ server: TestServer) -> [Window] {
        server.windows.windows.filter(\.isVisible)
    }

    static func click(_ server: TestServer) {
        server.compositor.seat.pointerButton(0x110, pressed: true, time: 50)
        server.run(seconds: 0.05)
        server.compositor.seat.pointerButton(0x110, pressed: false, time: 51)
        server.run(seconds: 0.05)
    }

    @Test(
        .enabled(
            if: TestProcess.isInstalled("weston-confine"), "weston-confine is not installed (apt-get install weston)"))
    func westonConfineConfinesThePointerToItsWindowOnAClickAndReleasesItOnTheNext() throws {
        let server = try TestServer()
        let output = try #require(server.compositor.scene.outputs.first)
        let process = try TestProcess(["weston-confine"], server: server)
        #expect(
            server.run(seconds: 20) { !Self.visibleWindows(server).isEmpty }, "no window; stderr: \(process.stderr)")
        server.run(seconds: 0.3)
        let window = try #require(Self.visibleWindows(server).first)
        let frame = window.frame
        let seat: Seat = server.compositor.seat
        seat.pointerMotion(
            on: output, x: Double(frame.x + frame.width / 2), y: Double(frame.y + frame.height / 2), time: 10)
        server.run(seconds: 0.1)
        #expect(seat.pointerConstraint == nil)
        Self.click(server)
        #expect(
            server.run(seconds: 20) { seat.pointerConstraint != nil },
            "not confined after a click; stderr: \(process.stderr)")
        #expect(seat.pointerConstraint?.locked == false)
        // Pushed far to the top left, the pointer stops inside the window.
        seat.pointerMotion(on: output, x: 0, y: 0, time: 20)
        server.run(seconds: 0.1)
        let confined = try #require(seat.pointerPosition)
        #expect(
            confined.x >= Double(frame.x) && confined.y >= Double(frame.y),
            "at (\(confined.x), \(confined.y)), frame \(frame)")
        #expect(confined.x < Double(frame.x + frame.width) && confined.y < Double(frame.y + frame.height))
        seat.pointerMotion(dx: 10_000, dy: 10_000, time: 21)
        server.run(seconds: 0.1)
        let far = try #require(seat.pointerPosition)
        #expect(
            far.x < Double(frame.x + frame.width) && far.y < Double(frame.y + frame.height),
            "at (\(far.x), \(far.y)), frame \(frame)")
        // The next click releases it: the pointer goes where it is pushed.
        Self.click(server)
        #expect(server.run(seconds: 20) { seat.pointerConstraint == nil }, "still confined after the second click")
        seat.pointerMotion(on: output, x: 2, y: 3, time: 30)
        server.run(seconds: 0.1)
        #expect(seat.pointerPosition.map { $0.x == 2 && $0.y == 3 } == true)
    }

    @Test(
        .enabled(
            if: TestProcess.isInstalled("gtk3-demo") && TestProcess.isInstalled("dbus-run-session"),
            "gtk3-demo (apt-get install gtk-3-examples) or dbus-run-session (dbus) is missing"))
    func gtk3DemoShowsAVisibleCursorOfItsOwn() throws {
        try expectOwnCursor(["dbus-run-session", "--", "gtk3-demo", "--run=menus"])
    }

    @Test(
        .enabled(
            if: TestProcess.isInstalled("gtk4-demo") && TestProcess.isInstalled("dbus-run-session"),
            "gtk4-demo (apt-get install gtk-4-examples) or dbus-run-session (dbus) is missing"))
    func gtk4DemoShowsAVisibleCursorOfItsOwn() throws {
        // GTK 4.8 draws with cairo when there is no GL (Strata offers none).
        try expectOwnCursor(["dbus-run-session", "--", "gtk4-demo"], environment: ["GSK_RENDERER": "cairo"])
    }

    /// A GTK demo's window under the pointer gets a cursor surface of the toolkit's, shown on
    /// the screen.
    func expectOwnCursor(_ command: [String], environment: [String: String] = [:]) throws {
        let server = try TestServer()
        let output = try #require(server.compositor.scene.outputs.first)
        var env = ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]
        for (name, value) in environment { env[name] = value }
        let process = try TestProcess(command, server: server, environment: env)
        #expect(
            server.run(seconds: 20) { !Self.visibleWindows(server).isEmpty }, "no gtk window; stderr: \(process.stderr)"
        )
        server.run(seconds: 0.5)
        let window = try #require(Self.visibleWindows(server).last)
        let point = (x: window.frame.x + window.frame.width / 2, y: window.frame.y + window.frame.height / 2)
        server.compositor.seat.pointerMotion(on: output, x: Double(point.x), y: Double(point.y), time: 10)
        // GTK answers the enter with wl_pointer.set_cursor (or a cursor shape) of its own.
        let set = server.run(seconds: 20) {
            if case .surface(let surface, _, _) = server.compositor.cursor.currentImage { return surface.hasContent }
            return false
        }
        #expect(set, "\(command) set no cursor surface; stderr: \(process.stderr)")
        server.repaint()
        let rect = try #require(server.compositor.cursor.rect?.rect)
        #expect(rect.width > 0 && rect.height > 0)
        // The cursor's pixels are on the screen: some differ from what the window shows without it.
        var withCursor: [UInt32] = []
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { withCursor.append(server.pixel(x: Int32(x), y: Int32(y)) ?? 0) }
        }
        server.compositor.cursor.isHidden = true
        var without: [UInt32] = []
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { without.append(server.pixel(x: Int32(x), y: Int32(y)) ?? 0) }
        }
        #expect(withCursor != without, "the cursor changed no pixel")
    }
}
