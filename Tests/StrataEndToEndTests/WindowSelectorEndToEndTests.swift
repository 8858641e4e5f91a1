import Foundation
import Glibc
import Testing

/// Windows named by what a user knows, with real clients: foot by `title:` (a glob), GTK 3 by
/// its app id in another case, xterm under Xwayland by `xterm` (its WM_CLASS class is `XTerm`);
/// and `maximize`, `fullscreen`, `restore`, `resize` answered by the clients themselves.
@Suite(.serialized) struct WindowSelectorEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl")
    static let gtk = StrataRun.isInstalled("gtk3-demo") && StrataRun.isInstalled("dbus-daemon")

    /// The window `name` names now (its JSON object from `windows`), nil while none is visible.
    private static func window(_ session: ControlTests.Session, _ predicate: ([String: Any]) -> Bool) async throws
        -> [String: Any]?
    {
        try await session.windows().first { predicate($0) && $0["hidden"] as? Bool == false }
    }

    /// Waits (at most 20 s) until a visible window satisfies `predicate`; it, or nil.
    private static func waitFor(_ session: ControlTests.Session, _ predicate: @escaping ([String: Any]) -> Bool)
        async throws -> [String: Any]?
    {
        for _ in 0..<400 {
            if let found = try await window(session, predicate) { return found }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return nil
    }

    /// Whether `condition` came true within 20 s (asked every 50 ms).
    private static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        for _ in 0..<400 {
            if try await condition() { return true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return false
    }

    private static func frame(_ window: [String: Any]?) -> [Int] {
        let frame = window?["frame"] as? [String: Any] ?? [:]
        return ["x", "y", "width", "height"].map { frame[$0] as? Int ?? -1 }
    }

    /// foot, maximized, fullscreen, restored and resized by strata-ctl (named by a title glob
    /// and by its app id in capitals); its frame is the work area once it has drawn the
    /// maximized configure, and the screenshot shows its background in the screen's far corner.
    @Test(.enabled(if: ctl != nil && StrataRun.isInstalled("foot"), "strata-ctl or foot is missing"))
    func footIsMaximizedRestoredResizedAndClosedByTitle() async throws {
        let session = try await ControlTests.Session.start([
            "--backend", "headless", "--size", "800x600", "--hide-cursor",
        ])
        try await session.ctl(
            "exec", "--", "foot", "--title", "selector test", "-o", "colors.background=336699", "sh", "-c", "sleep 600")
        let shown = try #require(
            try await Self.waitFor(session) { $0["app_id"] as? String == "foot" }, "foot never showed")
        let original = Self.frame(shown)

        let reply = try await session.ctl("maximize", "title:selector*", "--json").stdout
        #expect(reply.contains("\"target\":{\"height\":600,\"width\":800,\"x\":0,\"y\":0}"), "\(reply)")
        let maximized = try await Self.waitFor(session) {
            Self.frame($0) == [0, 0, 800, 600] && $0["maximized"] as? Bool == true
        }
        let met1 = maximized != nil
        let listed1 = try await session.windows()
        #expect(met1, "foot's frame never became the work area: \(listed1)")
        #expect(
            await session.run.waitForScreen(timeout: 20) {
                $0.at(799, 599) == 0xff33_6699 && $0.at(0, 0) == 0xff33_6699
            },
            "foot's background does not fill the screen")

        try await session.ctl("restore", "FOOT")
        let restored = try await Self.waitFor(session) {
            Self.frame($0) == original && $0["maximized"] as? Bool == false
        }
        let met2 = restored != nil
        let listed2 = try await session.windows()
        #expect(met2, "foot did not come back to \(original): \(listed2)")

        try await session.ctl("fullscreen", "foot")
        #expect(
            try await Self.waitFor(session) { Self.frame($0) == [0, 0, 800, 600] && $0["fullscreen"] as? Bool == true }
                != nil)
        // From fullscreen, a size: out of fullscreen, at that size, where it was before.
        try await session.ctl("resize", "foot", "400x300")
        let resized = try await Self.waitFor(session) { Self.frame($0) == [original[0], original[1], 400, 300] }
        let met3 = resized?["fullscreen"] as? Bool == false
        let listed3 = try await session.windows()
        #expect(met3, "foot is not 400x300 at \(original[0]),\(original[1]): \(listed3)")

        let missing = try await session.ctl("close", "title:selector", expectStatus: 1)
        #expect(missing.stderr.contains("no window has title \"selector\"; the open windows: id "), "\(missing.stderr)")
        #expect(missing.stderr.contains("(app \"foot\", title \"selector test\", pid "), "\(missing.stderr)")
        try await session.ctl("close", "title:selector*")
        #expect(try await Self.eventually { try await session.windows().isEmpty }, "foot did not close")
        #expect(await session.stop().status == 0)
    }

    /// GTK 3's two windows share the app id `gtk3-demo`: `Gtk3-Demo` names both (an error listing
    /// them), `title:` one; once one is closed, `Gtk3-Demo` names the other, which is maximized
    /// to the work area and closed.
    @Test(.enabled(if: ctl != nil && gtk, "strata-ctl, gtk3-demo or dbus-daemon is missing"))
    func gtk3DemoIsNamedByItsAppIDInAnyCase() async throws {
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "800x600"])
        try await session.ctl(
            "exec", "--", "sh", "-c",
            "NO_AT_BRIDGE=1 exec \(StrataRun.dbusSessionWords) gtk3-demo --run=button_box > /dev/null 2>&1")
        _ = try #require(
            try await Self.waitFor(session) { $0["title"] as? String == "Button Boxes" }, "gtk3-demo never showed")
        #expect(try await session.windows().count { $0["app_id"] as? String == "gtk3-demo" } == 2)
        let ambiguous = try await session.ctl("raise", "Gtk3-Demo", expectStatus: 1)
        #expect(
            ambiguous.stderr.contains("2 windows have app id \"Gtk3-Demo\" (in any case): id "), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("title \"Button Boxes\""), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("(ambiguous_window)"), "\(ambiguous.stderr)")

        try await session.ctl("close", "title:Button Boxes")
        #expect(
            try await Self.eventually {
                try await session.windows().count { $0["app_id"] as? String == "gtk3-demo" } == 1
            },
            "Button Boxes did not close")
        try await session.ctl("maximize", "Gtk3-Demo")
        let met4 =
            try await Self.waitFor(session) {
                $0["app_id"] as? String == "gtk3-demo" && Self.frame($0) == [0, 0, 800, 600]
            } != nil
        let listed4 = try await session.windows()
        #expect(met4, "gtk3-demo's frame never became the work area: \(listed4)")
        try await session.ctl("close", "GTK3-DEMO")
        #expect(try await Self.eventually { try await session.windows().isEmpty }, "gtk3-demo did not close")
        #expect(await session.stop().status == 0)
    }

    /// xterm under Xwayland: class `XTerm`, named `xterm`; maximized to the work area through
    /// `_NET_WM_STATE`, resized, then closed (WM_DELETE_WINDOW), all by that name or `pid:`.
    @Test(.enabled(if: ctl != nil && StrataRun.isInstalled("xterm"), "strata-ctl or xterm is missing"))
    func xtermUnderXwaylandIsNamedXterm() async throws {
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "800x600"])
        try await session.ctl("exec", "--", "xterm")
        let shown = try #require(
            try await Self.waitFor(session) { $0["kind"] as? String == "x11" }, "xterm never showed")
        #expect(shown["app_id"] as? String == "XTerm")
        let pid = try #require(shown["pid"] as? Int)
        try await session.ctl("maximize", "xterm")
        let met5 =
            try await Self.waitFor(session) { Self.frame($0) == [0, 0, 800, 600] && $0["maximized"] as? Bool == true }
            != nil
        let listed5 = try await session.windows()
        #expect(met5, "xterm was not maximized: \(listed5)")
        try await session.ctl("resize", "pid:\(pid)", "300x200")
        let met6 =
            try await Self.waitFor(session) {
                $0["kind"] as? String == "x11" && Array(Self.frame($0)[2...]) == [300, 200]
            } != nil
        let listed6 = try await session.windows()
        #expect(met6, "xterm was not resized: \(listed6)")
        try await session.ctl("close", "xterm")
        #expect(try await Self.eventually { try await session.windows().isEmpty }, "xterm did not close")
        #expect(await session.stop().status == 0)
    }

    /// An experiment names windows the same way: `wait-window` and every `expect` take titles
    /// and app ids in any case (and pids), and a closed window is still named by its title.
    @Test(.enabled(if: ControlTests.ready, "strata-ctl or strata-color-client is not built"))
    func experimentsNameWindowsByTitleAndAppIDInAnyCase() async throws {
        let session = try await ControlTests.Session.start()
        let file = session.run.root + "/names.strata"
        try """
        exec -- strata-color-client --app-id Example.First --title "First window" --size 200x100 --color c08030 --seconds 60
        wait-window title:First*
        exec -- strata-color-client --app-id example.second --title Second --size 200x100 --color 8030c0 --seconds 60
        wait-window EXAMPLE.SECOND
        expect key title:Second
        expect stacking example.second example.first
        raise "title:First window"
        expect stacking EXAMPLE.FIRST title:Second
        close title:Second
        expect closed title:Second
        expect key example.first
        expect event windowDidClose title:Second
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await session.ctl("run", file)
        #expect(result.stdout.contains("passed (4 commands, 6 expectations)"), "\(result.stdout) \(result.stderr)")
        let bad = session.run.root + "/bad.strata"
        try "expect key example\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let failed = try await session.ctl("run", bad, expectStatus: 1)
        #expect(failed.stderr.contains("bad.strata:1: no window has app id \"example\""), "\(failed.stderr)")
        #expect(failed.stderr.contains("title \"First window\""), "\(failed.stderr)")
        #expect(await session.stop().status == 0)
    }

    /// `--wait`: foot draws the size it is asked for, so `resize --wait` prints it and exits 0;
    /// strata-color-client keeps its own size, so `resize --wait` and `maximize --wait` exit 1
    /// and say what it drew.
    @Test(
        .enabled(
            if: ControlTests.ready && StrataRun.isInstalled("foot"),
            "strata-ctl, strata-color-client or foot is missing"))
    func waitReportsWhatTheClientDrew() async throws {
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "800x600"])
        try await session.ctl("exec", "--", "foot", "sh", "-c", "sleep 600")
        try await session.ctl(
            "exec", "--", "strata-color-client", "--app-id", "own.size", "--size", "200x100", "--seconds", "600")
        _ = try #require(try await Self.waitFor(session) { $0["app_id"] as? String == "foot" }, "foot never showed")
        let color = try #require(
            try await Self.waitFor(session) { $0["app_id"] as? String == "own.size" }, "the colour client never showed")
        let drawn = Self.frame(color)

        let resized = try await session.ctl("resize", "foot", "400x300", "--wait", "20")
        #expect(resized.stdout.hasSuffix(" 400x300\n"), "\(resized.stdout)")
        let maximized = try await session.ctl("maximize", "foot", "--wait", "20")
        #expect(maximized.stdout.hasSuffix(": frame 0,0 800x600\n"), "\(maximized.stdout)")

        let refused = try await session.ctl("resize", "own.size", "300x200", "--wait", "1", expectStatus: 1)
        #expect(
            refused.stderr.contains(
                "'s client did not draw 300x200 within 1.0 s: its frame is \(drawn[0]),\(drawn[1]) 200x100"),
            "\(refused.stderr)")
        let notMaximized = try await session.ctl("maximize", "own.size", "--wait", "1", expectStatus: 1)
        #expect(notMaximized.stderr.contains("did not draw 0,0 800x600 within 1.0 s"), "\(notMaximized.stderr)")
        #expect(await session.stop().status == 0)
    }
}
