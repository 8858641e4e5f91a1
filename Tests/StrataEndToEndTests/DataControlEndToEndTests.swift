import Foundation
import Testing

/// Debian's wl-clipboard (wl-copy, wl-paste) under Strata: with a data control protocol offered
/// it reads and sets both selections without a surface (no focus-stealing popup window).
@Suite struct DataControlEndToEndTests {
    @Test(
        .enabled(
            if: StrataRun.isInstalled("wl-copy") && StrataRun.isInstalled("wl-paste"),
            "wl-clipboard is not installed (apt-get install wl-clipboard)"))
    func wlCopyAndWlPasteUseBothSelectionsWithoutASurface() async throws {
        // Several privileged clients in one script, each on its own connection (the privileged socket).
        let script = """
            WAYLAND_DEBUG=1 wl-copy 'copied by wl-copy' 2>"$XDG_RUNTIME_DIR/copy.log"
            echo "clipboard=[$(WAYLAND_DEBUG=1 wl-paste -n 2>"$XDG_RUNTIME_DIR/paste.log")]"
            printf 'selected' | wl-copy --primary
            echo "primary=[$(wl-paste --primary -n)]"
            echo "clipboard-again=[$(wl-paste -n)]"
            wl-copy --clear
            wl-copy --primary --clear
            wl-paste -n; echo "cleared=$?"
            wl-paste --primary -n; echo "primary-cleared=$?"
            """
        let run = try StrataRun(["--size", "320x200"], command: ["/bin/sh", "-c", script])
        let copyLog = run.runtimeDirectory + "/copy.log", pasteLog = run.runtimeDirectory + "/paste.log"
        let logs = await StrataRun.poll(timeout: 20) { () -> (String, String)? in
            guard run.stdout.contains("primary-cleared="),
                let copy = try? String(contentsOfFile: copyLog, encoding: .utf8),
                let paste = try? String(contentsOfFile: pasteLog, encoding: .utf8)
            else { return nil }
            return (copy, paste)
        }
        // wl-copy stays in the background to answer for its selection until another replaces it.
        let result = await run.finish(mayOutlive: StrataRun.wlCopy)
        let (copy, paste) = try #require(logs, "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stdout.contains("clipboard=[copied by wl-copy]"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("primary=[selected]"), "stdout: \(result.stdout)")
        #expect(result.stdout.contains("clipboard-again=[copied by wl-copy]"), "stdout: \(result.stdout)")
        #expect(
            result.stdout.contains("cleared=1") && result.stdout.contains("primary-cleared=1"),
            "stdout: \(result.stdout)")
        for log in [copy, paste] {
            #expect(log.contains("zwlr_data_control_device_v1"), "no data control in: \(log.prefix(2000))")
            #expect(
                !log.contains("xdg_toplevel") && !log.contains("wl_surface"),
                "a focus-hack surface appeared: \(log.prefix(4000))")
        }
    }
}
