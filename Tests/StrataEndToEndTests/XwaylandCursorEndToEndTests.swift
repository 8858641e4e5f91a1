import Foundation
import StrataRender
import Testing

/// The cursors of X windows, to the pixel (docs/xwayland.md, "X cursors"): the root window's
/// cursor is the theme's arrow, so an X window that sets no cursor (xclock, a GTK 3 header bar
/// under X11) shows it; a cursor an X client sets (xterm's I-beam) shows as it is. The expected
/// pixels are composed here: the cursor image read from the same Xcursor theme and size Strata
/// reads, hotspot at the pointer, over the window's own image (`screenshot --window`), with
/// pixman's OVER on premultiplied pixels.
@Suite("Xwayland cursors end to end", .serialized)
struct XwaylandCursorEndToEndTests {
    static let theme = CursorTheme()
    static let arrow = theme.image(named: "default")

    static func installed(_ programs: String...) -> Bool {
        (["Xwayland"] + programs).allSatisfy(StrataRun.isInstalled) && ControlTests.ctl != nil && arrow != nil
    }
    static let missing: Comment =
        "Xwayland, a client, strata-ctl or an Xcursor theme (adwaita-icon-theme) is missing"

    /// The environment words that make an X client's libXcursor load Strata's theme and size.
    static var themeWords: String {
        "XCURSOR_SIZE=\(theme.size)" + (theme.themeName.map { " XCURSOR_THEME=\($0)" } ?? "")
    }

    /// pixman's OVER of one premultiplied pixel on an opaque one (its rounded division by 255).
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let inverse = 255 - (source >> 24)
        var out: UInt32 = 0xff00_0000
        for shift: UInt32 in [0, 8, 16] {
            let t = (destination >> shift & 0xff) * inverse + 0x80
            let scaled = ((t >> 8) + t) >> 8
            out |= min(255, (source >> shift & 0xff) + scaled) << shift
        }
        return out
    }

    /// Every pixel of `cursor` (hotspot at `pointer`) that lies over an opaque pixel of the window
    /// (its own image `window`, its frame's corner at `origin`): `cursor` over the window's pixel
    /// in the screenshot `shot`. Returns how many were compared and the mismatches.
    static func compare(
        _ shot: PNGFile.Pixels, cursor: CursorImage, at pointer: (Int, Int), window: PNGFile.Pixels,
        origin: (Int, Int)
    ) -> (compared: Int, mismatches: [String]) {
        var compared = 0
        var mismatches: [String] = []
        for y in 0..<Int(cursor.height) {
            for x in 0..<Int(cursor.width) {
                guard let p = cursor.pixel(x: Int32(x), y: Int32(y)) else { continue }
                let sx = pointer.0 - Int(cursor.hotspotX) + x, sy = pointer.1 - Int(cursor.hotspotY) + y
                let wx = sx - origin.0, wy = sy - origin.1
                guard sx >= 0, sy >= 0, sx < shot.width, sy < shot.height, wx >= 0, wy >= 0, wx < window.width,
                    wy < window.height
                else { continue }
                let below = window.at(wx, wy)
                guard below >> 24 == 0xff else { continue }
                compared += 1
                let expected = over(p, below), shown = shot.at(sx, sy)
                if shown != expected {
                    mismatches.append("(\(sx),\(sy)) \(String(shown, radix: 16)) ≠ \(String(expected, radix: 16))")
                }
            }
        }
        return (compared, mismatches)
    }

    /// The window whose title starts with `title` once it shows: its id and frame.
    static func shownWindow(_ session: ControlTests.Session, title: String) async throws -> (
        id: Int, x: Int, y: Int, width: Int, height: Int
    )? {
        for _ in 0..<600 {
            for window in try await session.windows() {
                guard (window["title"] as? String)?.hasPrefix(title) == true, window["hidden"] as? Bool == false,
                    let id = window["id"] as? Int, let frame = window["frame"] as? [String: Any],
                    let x = frame["x"] as? Int, let y = frame["y"] as? Int, let width = frame["width"] as? Int,
                    let height = frame["height"] as? Int
                else { continue }
                return (id, x, y, width, height)
            }
        }
        return nil
    }

    /// Moves the pointer to `pointer` and takes screenshots (the screen's and the window's own)
    /// until the screen shows `cursor` there over the window, or 300 tries passed; the last
    /// comparison and the screenshot's path.
    static func cursorShown(
        _ session: ControlTests.Session, window id: Int, at pointer: (Int, Int), cursor: CursorImage, name: String
    ) async throws -> (compared: Int, mismatches: [String], path: String) {
        try await session.ctl("input", "pointer", "move", String(pointer.0), String(pointer.1))
        var last: (compared: Int, mismatches: [String]) = (0, ["no screenshot"])
        let path = session.run.root + "/\(name).png", windowPath = session.run.root + "/\(name)-window.png"
        for _ in 0..<300 {
            try await session.ctl("screenshot", "--window", String(id), "-o", windowPath)
            let frame = try #require(try await session.windows().first { $0["id"] as? Int == id }?["frame"])
            let origin = try #require(frame as? [String: Any])
            try await session.ctl("screenshot", "-o", path)
            last = compare(
                try PNGFile.read(path: path), cursor: cursor, at: pointer,
                window: try PNGFile.read(path: windowPath),
                origin: (origin["x"] as? Int ?? 0, origin["y"] as? Int ?? 0))
            if last.compared > 0, last.mismatches.isEmpty { break }
        }
        // STRATA_CURSOR_SHOTS=DIR keeps the last screenshots there, to look at.
        if let keep = ProcessInfo.processInfo.environment["STRATA_CURSOR_SHOTS"] {
            for file in [path, windowPath] {
                let copy = keep + "/" + (file as NSString).lastPathComponent
                try? FileManager.default.removeItem(atPath: copy)
                try? FileManager.default.copyItem(atPath: file, toPath: copy)
            }
        }
        return (last.compared, last.mismatches, path)
    }

    /// xclock sets no cursor: the root's, the theme's arrow, shows over it.
    @Test(.enabled(if: installed("xclock"), missing))
    func theThemesArrowShowsOverXclockWhichSetsNoCursor() async throws {
        let arrow = try #require(Self.arrow)
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "320x240"])
        try await session.ctl("exec", "--", "xclock", "-title", "XClockCursor", "-geometry", "200x200")
        let window = try #require(try await Self.shownWindow(session, title: "XClockCursor"), "xclock never showed")
        try await session.ctl("move", String(window.id), "--to", "0,0")
        let result = try await Self.cursorShown(session, window: window.id, at: (20, 20), cursor: arrow, name: "xclock")
        #expect(
            result.compared >= Int(arrow.width * arrow.height) / 2 && result.mismatches.isEmpty,
            "\(result.compared) compared; \(result.mismatches.prefix(8)); \(result.path)")
        #expect(await session.stop().status == 0)
    }

    /// Without any cursor theme the root's cursor is the built-in arrow Strata draws then.
    @Test(.enabled(if: installed("xclock"), missing))
    func withoutAnyThemeTheBuiltInArrowShowsOverXclock() async throws {
        let arrow = try #require(CursorImage.builtInArrow())
        // libXcursor searches only XCURSOR_PATH: an empty folder has no theme at all.
        let empty = NSTemporaryDirectory() + "strata-x-no-cursors-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let run = try StrataRun(
            ["--backend", "headless", "--size", "320x240"],
            environment: ["PATH": ControlTests.path, "XCURSOR_PATH": empty, "XCURSOR_THEME": nil])
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let session = ControlTests.Session(run: run, socket: socket)
        try await session.ctl("exec", "--", "xclock", "-title", "XClockBuiltIn", "-geometry", "200x200")
        let window = try #require(try await Self.shownWindow(session, title: "XClockBuiltIn"), "xclock never showed")
        try await session.ctl("move", String(window.id), "--to", "0,0")
        let result = try await Self.cursorShown(
            session, window: window.id, at: (20, 20), cursor: arrow, name: "xclock-built-in")
        #expect(
            result.compared == Int(arrow.width * arrow.height) && result.mismatches.isEmpty,
            "\(result.compared) compared; \(result.mismatches.prefix(8)); \(result.path)")
        #expect(run.stderr.contains("using a built-in arrow"), "stderr: \(run.stderr)")
        #expect(await session.stop().status == 0)
    }

    /// xterm sets its I-beam (XC_xterm): with `cursorTheme` set, its libXcursor loads the theme's
    /// `xterm` image, and exactly that shows; by default (`cursorTheme: none`) X's core I-beam
    /// shows, a cursor that is not the arrow.
    @Test(.enabled(if: installed("xterm"), missing))
    func xtermsOwnIBeamShowsOverItsText() async throws {
        let arrow = try #require(Self.arrow)
        let beam = try #require(Self.theme.image(named: "xterm"), "the theme has no xterm cursor")
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "320x240"])
        try await session.ctl(
            "exec", "--", "sh", "-c",
            "\(Self.themeWords) exec xterm -xrm '*cursorTheme: \(Self.theme.themeName ?? "default")' "
                + "-title XTermThemed -geometry 30x8")
        try await session.ctl("exec", "--", "xterm", "-title", "XTermCore", "-geometry", "30x8")
        let themed = try #require(try await Self.shownWindow(session, title: "XTermThemed"), "xterm never showed")
        let core = try #require(try await Self.shownWindow(session, title: "XTermCore"), "xterm never showed")
        try await session.ctl("move", String(themed.id), "--to", "0,0")
        try await session.ctl("move", String(core.id), "--to", "0,120")
        let pointer = (themed.width / 2, themed.height / 2)
        let result = try await Self.cursorShown(session, window: themed.id, at: pointer, cursor: beam, name: "xterm")
        #expect(
            result.compared >= Int(beam.width * beam.height) / 2 && result.mismatches.isEmpty,
            "\(result.compared) compared; \(result.mismatches.prefix(8)); \(result.path)")
        // Over the default xterm: a cursor shows (the screen differs from the window's own image
        // around the pointer), and it is not the arrow.
        let corePointer = (core.width / 2, 120 + core.height / 2)
        var coreShot: PNGFile.Pixels?
        var coreWindow: PNGFile.Pixels?
        try await session.ctl("input", "pointer", "move", String(corePointer.0), String(corePointer.1))
        for _ in 0..<300 {
            try await session.ctl("screenshot", "--window", String(core.id), "-o", "xterm-core-window.png")
            try await session.ctl("screenshot", "-o", "xterm-core.png")
            let shot = try PNGFile.read(path: session.run.root + "/xterm-core.png")
            let window = try PNGFile.read(path: session.run.root + "/xterm-core-window.png")
            let differs = (-4...4).contains { dy in
                (-4...4).contains { dx in
                    shot.at(corePointer.0 + dx, corePointer.1 + dy)
                        != window.at(corePointer.0 + dx, corePointer.1 - 120 + dy)
                }
            }
            if differs {
                coreShot = shot
                coreWindow = window
                break
            }
        }
        let shot = try #require(coreShot, "no cursor showed over the default xterm")
        let window = try #require(coreWindow)
        #expect(
            !Self.compare(shot, cursor: arrow, at: corePointer, window: window, origin: (0, 120)).mismatches.isEmpty)
        #expect(!Self.compare(shot, cursor: beam, at: corePointer, window: window, origin: (0, 120)).mismatches.isEmpty)
        if let keep = ProcessInfo.processInfo.environment["STRATA_CURSOR_SHOTS"] {
            try? FileManager.default.removeItem(atPath: keep + "/xterm-core.png")
            try? FileManager.default.copyItem(
                atPath: session.run.root + "/xterm-core.png", toPath: keep + "/xterm-core.png")
        }
        #expect(await session.stop().status == 0)
    }

    /// GTK 3 under X11 sets no cursor on its header bar: the arrow shows there, not X's "X".
    @Test(.enabled(if: installed("gtk3-demo", "dbus-daemon"), missing))
    func theArrowShowsOverAGtk3HeaderBarUnderX11() async throws {
        let arrow = try #require(Self.arrow)
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "800x600"])
        try await session.ctl(
            "exec", "--", "sh", "-c",
            "GDK_BACKEND=x11 NO_AT_BRIDGE=1 \(Self.themeWords) exec \(StrataRun.dbusSessionWords) gtk3-demo --run=headerbar > /dev/null 2>&1"
        )
        let window = try #require(try await Self.shownWindow(session, title: "Welcome"), "gtk3-demo never showed")
        try await session.ctl("move", String(window.id), "--to", "0,0")
        // The header bar's middle, away from its buttons and its title.
        let pointer = (window.width / 2 - 60, 15)
        let result = try await Self.cursorShown(session, window: window.id, at: pointer, cursor: arrow, name: "gtk3")
        #expect(
            result.compared >= Int(arrow.width * arrow.height) / 2 && result.mismatches.isEmpty,
            "\(result.compared) compared; \(result.mismatches.prefix(8)); \(result.path)")
        #expect(await session.stop().status == 0)
    }
}
