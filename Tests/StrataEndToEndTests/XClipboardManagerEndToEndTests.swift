import Foundation
import Testing

/// The XWM as X's clipboard manager with a real GTK 3 client (docs/xwayland.md, "Clipboard"):
/// zenity under X11 copies its entry's text and quits; GTK asks the clipboard manager to keep
/// the clipboard (SAVE_TARGETS) as it goes, so wl-paste and xclip still paste the text after.
@Suite(
    "X clipboard manager end to end", .serialized,
    .enabled(
        if: ["Xwayland", "xclip", "wl-paste", "zenity"].allSatisfy(StrataRun.isInstalled),
        "Xwayland, xclip, wl-clipboard or zenity is not installed"))
struct XClipboardManagerEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"

    @Test func whatAGtkApplicationUnderX11CopiedIsStillPastedAfterItQuits() async throws {
        let text = "kept after zenity quits"
        let run = try StrataRun(
            ["--backend", "headless"],
            command: [
                "sh", "-c",
                XwaylandClipboardEndToEndTests.settle + """

                    GDK_BACKEND=x11 \(StrataRun.dbusSessionWords) zenity --entry --title keeper --entry-text '\(text)' &
                    client=$!
                    settle sh -c '\(Self.ctl) windows | grep -i -- keeper | grep -q " yes  *no "' && echo "shown"
                    \(Self.ctl) input key ctrl+a
                    \(Self.ctl) input key ctrl+c
                    settle sh -c 'test "$(wl-paste -n 2>/dev/null)" = "\(text)"' && echo "copied"
                    \(Self.ctl) input key Escape
                    wait $client
                    echo "zenity ended"
                    echo "wayland=[$(wl-paste -n 2>/dev/null)]"
                    echo "x=[$(xclip -selection clipboard -o 2>/dev/null)]"
                    """,
            ])
        let result = await run.finish(timeout: 90, mayOutlive: StrataRun.wlCopy)
        for line in ["shown", "copied", "zenity ended", "wayland=[\(text)]", "x=[\(text)]"] {
            #expect(
                result.stdout.contains(line),
                "\(line) missing in: \(result.stdout) stderr: \(result.stderr.suffix(2000))")
        }
    }
}
