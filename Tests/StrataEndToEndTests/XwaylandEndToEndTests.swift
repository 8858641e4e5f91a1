import Foundation
import Testing

/// X11 clients through rootless Xwayland started by Strata (docs/xwayland.md), with Debian's
/// xterm: the window in `strata-ctl windows` (kind x11, class, title, pid), typed text arriving,
/// `--xwayland off`, and a missing Xwayland.
@Suite("Xwayland end to end", .serialized)
struct XwaylandEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"

    @Test func textTypedThroughStrataCtlReachesAnXtermStartedAsTheCommand() async throws {
        let run = try StrataRun(["--backend", "headless"], command: ["sh", "-c", """
            out=$(mktemp -d)/typed
            xterm -e sh -c "read line; echo \\"\\$line\\" > $out" &
            until \(Self.ctl) windows | grep -q ' x11'; do sleep 0.05; done
            until \(Self.ctl) windows | grep ' x11' | grep -q ' no  '; do sleep 0.05; done
            \(Self.ctl) windows --json
            \(Self.ctl) input type 'typed into X
            '
            until [ -s "$out" ]; do sleep 0.05; done
            echo "typed=$(cat "$out")"
            echo "display=$DISPLAY"
            """])
        let result = await run.finish(timeout: 60)
        #expect(result.stdout.contains("typed=typed into X"))
        #expect(result.stdout.contains("\"kind\":\"x11\"") || result.stdout.contains("\"kind\" : \"x11\""))
        #expect(result.stdout.contains("XTerm"))
        #expect(result.stdout.contains("display=:"))
        #expect(result.stdout.contains("DISPLAY=:"))
    }

    @Test func xwaylandOffGivesTheCommandNoDisplay() async throws {
        let result = try await StrataRun.run(["--backend", "headless", "--xwayland", "off"],
                                             command: ["sh", "-c", "echo \"display=[${DISPLAY-unset}]\""])
        #expect(result.stdout.contains("display=[unset]"))
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("DISPLAY=") })
    }

    @Test func aMissingXwaylandIsAClearMessageAndWaylandClientsStillWork() async throws {
        let result = try await StrataRun.run(
            ["--backend", "headless", "--xwayland", "eager"],
            command: ["sh", "-c", "wayland-info | grep -c wl_compositor"],
            environment: ["STRATA_XWAYLAND": "/nonexistent/Xwayland"])
        #expect(result.stderr.contains("strata: Xwayland: cannot start /nonexistent/Xwayland: No such file or directory"))
        #expect(result.stdout.contains("1"))
    }
}
