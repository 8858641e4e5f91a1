import Foundation
import Glibc
import StrataRender
import Testing

/// Real clients on the legacy shells: the built `strata` with `--disable-global`, a real GTK 3
/// client, the control socket's window tree and the exit screenshot.
@Suite(.serialized) struct LegacyShellClientTests {
    static let ready =
        ControlTests.ctl != nil && StrataRun.isInstalled("gtk3-demo") && StrataRun.isInstalled("dbus-daemon")

    @Test(
        .enabled(if: ready, "gtk3-demo (apt-get install gtk-3-examples), dbus-daemon (dbus) or strata-ctl is missing"))
    func gtk3DemoRunsOnZxdgShellV6WhenXdgWmBaseIsDisabled() async throws {
        let run = try StrataRun(
            ["--size", "640x480", "--disable-global", "xdg_wm_base"],
            command: StrataRun.dbusSession + ["gtk3-demo"], screenshots: true,
            environment: ["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "WAYLAND_DEBUG": "1"])
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let ctl = try #require(ControlTests.ctl)
        // The window tree shows gtk3-demo's window, shown, with its app id.
        var window: [String: Any]?
        for _ in 0..<150 where window == nil {
            let result = try await ProcessResult.run(
                [ctl, "windows", "--json"], environment: ["STRATA_SOCKET": socket], directory: run.root)
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            window = (object?["windows"] as? [[String: Any]])?.first {
                $0["app_id"] as? String == "gtk3-demo" && $0["hidden"] as? Bool == false
            }
            if window == nil { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let shown = try #require(window, "gtk3-demo never showed a window; stderr: \(run.stderr.suffix(2000))")
        #expect(shown["key"] as? Bool == true)
        // Once it has drawn over the whole screen (what is checked below), stop Strata for the screenshot.
        let drawn = await run.waitForScreen { image in
            (0..<480).allSatisfy { y in (0..<640).allSatisfy { x in image.at(x, y) != RealClientTests.background } }
        }
        #expect(drawn, "gtk3-demo never covered the screen")
        run.send(SIGTERM)
        let result = await run.finish()
        // The client spoke zxdg_shell_v6 (WAYLAND_DEBUG), never xdg_wm_base (not announced).
        #expect(result.stderr.contains("zxdg_shell_v6@"), "no zxdg_shell_v6 traffic")
        #expect(result.stderr.contains("zxdg_toplevel_v6@"))
        #expect(!result.stderr.contains("\"xdg_wm_base\""), "xdg_wm_base was announced")
        let image = try #require(
            result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr.suffix(2000))")
        // The window covers the 640×480 screen from the origin (its default size is larger): all
        // of the screen shows the window, none of it the background.
        var background = 0
        for y in 0..<480 { for x in 0..<640 where image.at(x, y) == RealClientTests.background { background += 1 } }
        #expect(background == 0, "\(background) background pixels")
        // Its light header bar and its dark sidebar text differ: it drew its content, not a fill.
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: 480, by: 4) {
            for x in stride(from: 0, to: 640, by: 4) { colours.insert(image.at(x, y)) }
        }
        #expect(colours.count > 20, "\(colours.count) colours")
    }
}
