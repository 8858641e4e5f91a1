import Foundation
import Glibc
import StrataTestSupport
import Testing

/// Sessions of real clients recorded and replayed under each clock (docs/experiments.md,
/// "Waiting for the same pixels"): foot with a command typed at its shell's prompt, gtk3-demo with
/// a menu opened by a click, and xterm under Xwayland with typed text. Every replay must match:
/// the model's events, each step's pictures (the replay waits for them) and each screen's last
/// picture. `STRATA_REPLAY_ROUNDS` sets the replays per recording (2 here; `bench/replay-real-clients.sh`
/// runs 10).
@Suite(.serialized) struct RealClientReplayEndToEndTests {
    struct Session: CustomStringConvertible, Sendable {
        var name: String
        var clock: String
        /// The experiment; `@GTK_CONFIG@` stands for a folder whose `gtk-3.0/settings.ini` turns GTK's
        /// animations and caret blinking off.
        var experiment: String
        /// Extra replay options.
        var replayOptions: [String] = []
        var description: String { "\(name) (\(clock) clock)" }
    }

    /// Between two steps the experiment lets the clients finish drawing: `settle` on the realtime
    /// clock, `step N --settle 3` on the manual one (a step is the only time a client may draw).
    static func sessions(clock: String) -> [Session] {
        // 10 quiet frames (about 170 ms): on a loaded machine a starved client can go 3 frames
        // without a commit while it still has content to draw (gtk3-demo fills in its demo's text
        // after its first frame), and the recording would keep that half-drawn picture.
        let wait = clock == "manual" ? "step 4 --settle 10" : "settle --frames 10 --timeout 30"
        return [
            Session(
                name: "foot", clock: clock,
                experiment: """
                    exec -- foot --app-id term sh
                    wait-window term
                    \(wait)
                    input type 'echo hello'
                    \(wait)
                    input key Return
                    \(wait)
                    """),
            // GTK animates state changes (a window going to the backdrop, a pressed menu item)
            // with its own clock, not the compositor's: with animations on, the pictures between
            // steps and the last one depend on when GTK drew. A test that compares pictures turns
            // them off, as Playwright does for CSS. Two runs of GTK still differ by 1 in a few
            // channel values at its gradients and shadow corners: --threshold 2. The menu is the
            // text view's context menu (a right click): `--run=menus` would open two toplevels at
            // once, whose first commits come in either order (a model divergence by GTK's timing).
            Session(
                name: "gtk3-demo", clock: clock,
                experiment: """
                    exec -- sh -c 'XDG_CONFIG_HOME=@GTK_CONFIG@ NO_AT_BRIDGE=1 exec @DBUS_SESSION@ gtk3-demo'
                    wait-window title:Application*
                    \(wait)
                    \(wait)
                    input click 500 300 right
                    \(wait)
                    \(wait)
                    """, replayOptions: ["--threshold", "2"]),
            Session(
                name: "xterm", clock: clock,
                experiment: """
                    exec -- xterm -title typed
                    wait-window title:typed
                    \(wait)
                    input type 'hello there'
                    \(wait)
                    """),
        ]
    }

    static let all = sessions(clock: "realtime") + sessions(clock: "manual")

    static var rounds: Int {
        ProcessInfo.processInfo.environment["STRATA_REPLAY_ROUNDS"].flatMap(Int.init).map { min(max($0, 1), 100) } ?? 2
    }

    static let clientsInstalled = ["foot", "gtk3-demo", "xterm", "Xwayland", "dbus-daemon"].allSatisfy(
        StrataRun.isInstalled)

    @Test(
        .enabled(
            if: clientsInstalled, "foot, gtk3-demo, xterm or Xwayland is not installed (scripts/install-deps.sh --test)"
        ),
        arguments: all)
    func aRecordedSessionReplaysAsAMatchEveryTime(_ session: Session) async throws {
        let ctl = try #require(ControlTests.ctl)
        let folder = try ReplayEndToEndTests.folder()
        let config = folder.path + "/config"
        try FileManager.default.createDirectory(atPath: config + "/gtk-3.0", withIntermediateDirectories: true)
        try "[Settings]\ngtk-enable-animations=0\ngtk-cursor-blink=0\n".write(
            toFile: config + "/gtk-3.0/settings.ini", atomically: true, encoding: .utf8)
        let experiment = folder.path + "/session.strata", trace = folder.path + "/session.trace"
        let dbusSession = try StrataRun.writeDBusSession(in: folder.path)
        try session.experiment.replacingOccurrences(of: "@GTK_CONFIG@", with: config).replacingOccurrences(
            of: "@DBUS_SESSION@", with: dbusSession
        )
        .write(toFile: experiment, atomically: true, encoding: .utf8)
        let recorded = try await StrataRun.run(
            ["--size", "1024x768", "--clock", session.clock, "--record", trace],
            command: [ctl, "run", experiment], environment: ["PATH": ControlTests.path], timeout: 120)
        try #require(
            recorded.stdout.contains("passed"),
            "\(session): the recording failed: \(recorded.stdout) \(recorded.stderr.suffix(2000))")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(text.contains(#""shown":[{"hash":"#), "\(session): the steps carry what the windows showed")
        var matched = 0
        for round in 1...Self.rounds {
            let result = try await ReplayEndToEndTests().replay(
                trace, in: folder, extra: ["--run-commands"] + session.replayOptions)
            #expect(result.status == 0, "\(session), round \(round): \(result.stdout) \(result.stderr.suffix(3000))")
            if result.status == 0, result.stdout.contains("the replay matches") { matched += 1 }
        }
        print("\(session): \(matched) of \(Self.rounds) replays matched")
        #expect(matched == Self.rounds)
    }
}
