import Foundation
import Testing

/// Typing any text on any layout through `strata-ctl`, into real clients (docs/seat.md,
/// "Typing"): foot (a Wayland terminal running `cat`), a GTK entry (zenity), xterm under
/// Xwayland; characters on Shift and AltGr levels and characters the keymap lacks; the keymap
/// set by --keyboard-layout alone, whatever the host's XKB_DEFAULT_* say.
@Suite("Typing end to end")
struct TypingEndToEndTests {
    static let ctl = StrataRun.sibling("strata-ctl") ?? "strata-ctl"
    /// Shift, AltGr (under de) and missing (under us) characters.
    static let text = "@€ü{}"

    /// A script that starts `client` (writing what it gets to $out), waits until its window
    /// (`windowPattern` in `strata-ctl windows`) is key and shown, runs `input`, waits for the
    /// client to end and prints $out between markers.
    static func script(client: String, windowPattern: String, input: String) -> [String] {
        [
            "sh", "-c",
            """
            dir=$(mktemp -d); out=$dir/out.txt
            \(client) &
            client=$!
            until \(ctl) windows | grep -i -- '\(windowPattern)' | grep -q ' yes  *no '; do sleep 0.05; done
            \(input)
            wait $client
            printf 'typed<%s>\\n' "$(cat "$out")"
            rm -rf "$dir"
            """,
        ]
    }

    /// foot running `cat > $out`, ended by ctrl+d.
    static func foot(input: String) -> [String] {
        script(
            client: "env -u WAYLAND_SOCKET foot sh -c \"cat > $out\"", windowPattern: " foot ",
            input: input + "\n\(ctl) input key ctrl+d")
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("foot"), "foot is not installed"),
        arguments: [[], ["--keyboard-layout", "de"]])
    func textOnEveryLevelAndBeyondTheKeymapArrivesInFoot(options: [String]) async throws {
        let result = try await StrataRun.run(
            ["--backend", "headless"] + options,
            command: Self.foot(input: "\(Self.ctl) input type '\(Self.text)\n'"), timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<\(Self.text)>"), "\(result.stdout)")
    }

    @Test(
        .enabled(if: StrataRun.isInstalled("zenity"), "zenity is not installed (apt-get install zenity)"),
        arguments: [[], ["--keyboard-layout", "de"]])
    func textOnEveryLevelAndBeyondTheKeymapArrivesInAGtkEntry(options: [String]) async throws {
        let command = Self.script(
            client: "env -u WAYLAND_SOCKET GDK_BACKEND=wayland zenity --entry --title typing > $out 2>/dev/null",
            windowPattern: "zenity", input: "\(Self.ctl) input type '\(Self.text)'\n\(Self.ctl) input key Return")
        let result = try await StrataRun.run(["--backend", "headless"] + options, command: command, timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<\(Self.text)>"), "\(result.stdout)")
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("xterm") && StrataRun.isInstalled("Xwayland"),
            "xterm or Xwayland is not installed"),
        arguments: [[], ["--keyboard-layout", "de"]])
    func textOnEveryLevelAndBeyondTheKeymapArrivesInAnXterm(options: [String]) async throws {
        let command = Self.script(
            client: "xterm -e sh -c \"cat > $out\"", windowPattern: " x11 ",
            input: "\(Self.ctl) input type '\(Self.text)\n'\n\(Self.ctl) input key ctrl+d")
        let result = try await StrataRun.run(["--backend", "headless"] + options, command: command, timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<\(Self.text)>"), "\(result.stdout)")
    }

    /// wtype's keys (a virtual keyboard with a keymap of its own) are translated by keysym onto
    /// the seat's keymap, through its extension for what it lacks.
    @Test(
        .enabled(if: StrataRun.isInstalled("foot") && StrataRun.isInstalled("wtype"), "foot or wtype is not installed"),
        arguments: [[], ["--keyboard-layout", "de"]])
    func wtypesTextArrivesInFootOnEveryLayout(options: [String]) async throws {
        let result = try await StrataRun.run(
            ["--backend", "headless"] + options,
            command: Self.foot(input: "wtype '\(Self.text)😀\n'"), timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<\(Self.text)😀>"), "\(result.stdout)")
    }

    /// KEY_Y (evdev 21) types y under us and z under de: the keymap is the options', never
    /// the host's XKB_DEFAULT_LAYOUT.
    @Test(
        .enabled(if: StrataRun.isInstalled("foot"), "foot is not installed"),
        arguments: [
            ([String](), "y"), (["--keyboard-layout", "de"], "z"),
            (["--keyboard-layout", "us", "--keyboard-variant", "dvorak"], "f"),
        ])
    func theHostsXkbDefaultsDoNotChooseTheKeymap(options: [String], typed: String) async throws {
        let environment: [String: String?] = [
            "XKB_DEFAULT_LAYOUT": "de", "XKB_DEFAULT_VARIANT": "nodeadkeys", "XKB_DEFAULT_OPTIONS": "ctrl:swapcaps",
        ]
        let result = try await StrataRun.run(
            ["--backend", "headless"] + options,
            command: Self.foot(input: "\(Self.ctl) input key 21\n\(Self.ctl) input key Return"),
            environment: environment, timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<\(typed)>"), "\(result.stdout)")
    }

    @Test(arguments: [
        (["--keyboard-layout", "xx"], "unknown keyboard layout 'xx'"),
        (
            ["--keyboard-layout", "de", "--keyboard-variant", "nosuchvariant"],
            "unknown variant 'nosuchvariant' of keyboard layout 'de'"
        ),
        (["--keyboard-layout", "d e"], "keyboard-layout 'd e' is not an XKB name"),
    ])
    func anUnknownLayoutOrVariantIsAStartErrorThatNamesIt(options: [String], message: String) async throws {
        let result = try await StrataRun.run(
            ["--backend", "headless"] + options, command: ["true"], expecting: .status(64))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stdout.contains("WAYLAND_DISPLAY="))
    }

    /// Scrolling and a click at a point, from the command line, through a real client: the
    /// session's event log shows the click made the window key; scroll commands are accepted.
    @Test(.enabled(if: StrataRun.isInstalled("foot"), "foot is not installed"))
    func clickAtAPointAndScrollFromTheCommandLine() async throws {
        let command = Self.script(
            client: "env -u WAYLAND_SOCKET foot sh -c \"cat > $out\"", windowPattern: " foot ",
            input: """
                \(Self.ctl) input click 50 40 && \(Self.ctl) input click 50 40 left && \(Self.ctl) input click 272 && \\
                \(Self.ctl) input scroll 0 3 && \(Self.ctl) input scroll --smooth -2.5 10 && \(Self.ctl) input scroll 0 -3 && \(Self.ctl) input click -1 5 middle && \(Self.ctl) input pointer click right && \\
                \(Self.ctl) input type ok && \(Self.ctl) input key Return && \(Self.ctl) input key ctrl+d
                """)
        let result = try await StrataRun.run(["--backend", "headless"], command: command, timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("typed<ok>"), "\(result.stdout)")
    }
}
