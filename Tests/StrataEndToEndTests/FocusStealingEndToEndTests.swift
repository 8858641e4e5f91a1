import Foundation
import Testing

/// No focus stealing with real clients (docs/reliability.md, `FocusRequestRule`): xdotool's
/// `windowactivate` (`_NET_ACTIVE_WINDOW`) for a background xterm while foot is key is refused,
/// logged, and the xterm demands attention.
@Suite("Focus stealing end to end", .serialized)
struct FocusStealingEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"
    static let ready = ["xterm", "foot", "xdotool", "xprop"].allSatisfy(StrataRun.isInstalled)

    @Test(.enabled(if: ready, "needs xterm, foot, xdotool and xprop (apt-get install xterm foot xdotool x11-utils)"))
    func xdotoolActivatingABackgroundXtermWhileFootIsKeyIsRefused() async throws {
        let run = try StrataRun(
            ["--backend", "headless", "--size", "800x600"],
            command: [
                "sh", "-c",
                """
                xterm -class Stealer -title stealer &
                until \(Self.ctl) windows | grep -q ' stealer '; do sleep 0.05; done
                foot --app-id=typing --title=typing &
                until \(Self.ctl) windows | grep ' typing ' | grep -q ' yes '; do sleep 0.05; done
                until w=$(xdotool search --classname xterm | head -1) && [ -n "$w" ]; do sleep 0.05; done
                echo "STEP activating $w" >&2
                xdotool windowactivate "$w" || echo "STEP xdotool windowactivate failed: $?" >&2
                until xprop -id "$w" _NET_WM_STATE | grep -q _NET_WM_STATE_DEMANDS_ATTENTION; do sleep 0.05; done
                echo AFTER; \(Self.ctl) windows
                """,
            ])
        // The script leaves its two clients running: they end once Strata has gone.
        // Each step says where it is on standard error, so a run that stops says where.
        let result = await run.finish(timeout: 120, mayOutlive: ["xterm", "foot"])
        let after = result.stdout.split(separator: "AFTER").last.map(String.init) ?? ""
        #expect(
            after.split(separator: "\n").contains { $0.contains(" typing ") && $0.contains(" yes ") },
            "\(result.stdout) \(result.stderr.suffix(1000))")
        #expect(!after.split(separator: "\n").contains { $0.contains(" stealer ") && $0.contains(" yes ") })
        #expect(result.stderr.contains("focus request refused: _NET_ACTIVE_WINDOW"), "\(result.stderr.suffix(1000))")
    }
}
