import Testing

/// `strata --help` and the checks on options, before anything starts.
@Suite struct CommandLineTests {
    @Test func helpListsEveryOption() async throws {
        let result = try await StrataRun.run(["--help"])
        #expect(result.status == 0)
        for option in [
            "--backend", "--socket", "--screens", "--size", "--refresh", "--screenshot",
            "--policy", "--placement", "--level", "--allow-levels", "--help", "<command>",
        ] {
            #expect(result.stdout.contains(option), "--help does not mention \(option)")
        }
        #expect(result.stdout.contains("strata [options] [-- command args…]"))
    }

    /// Each bad option and the message it must produce.
    static let badOptions: [(arguments: [String], message: String)] = [
        (["--size", "0x0"], "size must be WIDTHxHEIGHT with positive numbers"),
        (["--size", "0x5"], "size must be WIDTHxHEIGHT with positive numbers"),
        (["--size", "wide"], "size must be WIDTHxHEIGHT with positive numbers"),
        (["--screens", "0"], "screens must be between 1 and 16"),
        (["--screens", "17"], "screens must be between 1 and 16"),
        (["--backend", "drm"], "Please provide one of 'auto', 'headless', 'wayland' or 'x11'"),
        // StrataRun removes WAYLAND_DISPLAY and DISPLAY: there is no session to nest in.
        (["--backend", "wayland"], "WAYLAND_DISPLAY is not set: there is no parent Wayland session to connect to"),
        (["--backend", "x11"], "DISPLAY is not set"),
        (["--refresh", "0"], "refresh must be a rate in Hz between 1 and 1000"),
        (["--policy", "random"], "unknown policy 'random'"),
        (["--placement", "random"], "unknown placement 'random': use one of cascade, top-left, center"),
        (["--placement", ""], "unknown placement '': use one of cascade, top-left, center"),
        (["--level", "org.example.app"], "level rules are APPID=LEVEL"),
        (["--level", "org.example.app=sky"], "level rules are APPID=LEVEL"),
        (["--socket", "a/b"], "socket must be a plain file name"),
        (["--disable-global", "wl_nothing"], "unknown global 'wl_nothing' for --disable-global: use one of"),
        (["--overscan", "30"], "'30': an overscan is PERCENT[:scale|inset|none] with a percentage from 0 to 20"),
        (["--overscan", "5:wide"], "'5:wide': an overscan is PERCENT[:scale|inset|none]"),
        (["--overscan", "nan"], "'nan': an overscan is PERCENT[:scale|inset|none]"),
        (["--overscan", "5:inset:more"], "'5:inset:more': an overscan is PERCENT[:scale|inset|none]"),
        (["--no-such-option"], "Unknown option '--no-such-option'"),
    ]

    @Test(arguments: badOptions)
    func badOptionFailsWithClearMessage(arguments: [String], message: String) async throws {
        let result = try await StrataRun.run(arguments, command: ["true"], expecting: .failure)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.socketName == nil, "no socket may be taken for bad options")
        #expect(result.runtimeDirectoryContents.isEmpty)
    }

    @Test func goodOptionsAreAccepted() async throws {
        let result = try await StrataRun.run(
            [
                "--backend", "headless", "--screens", "3", "--size", "800x600", "--refresh", "30",
                "--policy", "click-to-focus", "--placement", "center", "--level", "org.example.panel=statusBar",
                "--level", "bar=1500",
                "--allow-levels", "org.example.a,org.example.b",
            ],
            command: ["true"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
    }
}
