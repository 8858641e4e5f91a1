import ArgumentParser
import FoundationEssentials
import Glibc
import Testing
@testable import strata

/// The start's hand parse of common command lines (`StrataCommand.parseCommonArguments`) gives
/// the command swift-argument-parser gives, and leaves everything else to it.
@Suite struct CommonArgumentsTests {
    /// Each property wrapper of a command, as text (`Option(*definition*)` when unset).
    static func options(of command: StrataCommand) -> [String] {
        Mirror(reflecting: command).children.map { "\($0.label ?? "?")=\(String(describing: $0.value))" }
    }

    static let commonLines: [[String]] = [
        [],
        ["--backend", "headless"],
        ["--backend=headless", "--size", "640x480", "--", "weston-simple-shm"],
        [
            "--backend", "auto", "--socket", "wayland-9", "--screens", "3", "--size", "1920X1080", "--refresh", "59.94",
            "--scale", "1.5", "--mode", "800x600", "--mode=1024x768", "--overscan", "5:inset", "--screenshot",
            "/tmp/shots",
            "--policy", "click-to-focus", "--placement", "center", "--level", "org.example.app=alert", "--level=b=1500",
            "--clock", "manual", "--record", "/tmp/run.trace", "--record-limit", "65536", "--record-protocol", "123",
            "--record-protocol", "org.example.app", "--client-side-decorations", "--no-control", "--allow-privileged",
            "--hide-cursor", "--xwayland", "off", "--allow-levels", "a,b", "--allow-levels", " c ", "--disable-global",
            "xdg_wm_base", "--disable-global=zxdg_shell_v6", "--keyboard-layout", "de", "--keyboard-variant",
            "nodeadkeys",
            "--keyboard-options", "ctrl:nocaps,compose:ralt", "--keyboard-model", "pc104",
        ],
        ["--keyboard-layout=us,de", "--keyboard-options=grp:alt_shift_toggle"],
        ["--", "sh", "-c", "echo --backend x11 -- more"],
        ["--refresh", "1000", "--scale", "8", "--screens", "16", "--overscan", "0"],
        ["--record-limit=4096", "--record=run.trace", "--xwayland=eager", "--clock=realtime"],
        ["--socket", "wayland-1", "--"],
        ["--pointer-binding-modifier", "alt"], ["--pointer-binding-modifier=ctrl", "--no-pointer-bindings"],
        ["--x-display", "99", "--ready-fd", "3"], ["--x-display=0", "--ready-fd=7"],
    ]

    @Test(arguments: commonLines)
    func aCommonLineParsesAsSwiftArgumentParserParsesIt(arguments: [String]) throws {
        let full = try StrataCommand.parse(arguments)
        let fast = try #require(
            StrataCommand.parseCommonArguments(arguments), "\(arguments) left to swift-argument-parser")
        #expect(Self.options(of: fast) == Self.options(of: full))
    }

    @Test func theHandParseSetsEveryOption() throws {
        let fast = try #require(StrataCommand.parseCommonArguments([String]()))
        let options = Self.options(of: fast)
        #expect(options.count == Self.options(of: try StrataCommand.parse([])).count)
        #expect(!options.isEmpty)
        for option in options { #expect(!option.contains("*definition*"), "\(option) is not set by the hand parse") }
    }

    /// Lines the hand parse leaves to swift-argument-parser: help and its generators, unknown,
    /// repeated or malformed options, values it would not read the same way, invalid values.
    static let otherLines: [[String]] = [
        ["--help"], ["-h"], ["help"], ["--version"], ["--generate-completion-script", "bash"],
        ["--experimental-dump-help"], ["--no-such-option"], ["-x"], ["---backend", "headless"], ["command"],
        ["--backend"], ["--backend", "drm"], ["--backend", "--", "x"],
        ["--backend", "headless", "--backend", "headless"],
        ["--socket", ""], ["--socket="], ["--socket", "-s"], ["--socket", "a/b"],
        ["--screens", "+2"], ["--screens", "-2"], ["--screens", "0x2"], ["--screens", "2.0"], ["--screens", "17"],
        ["--screens", "99999999999999999999"],
        ["--refresh", "1e3"], ["--refresh", "inf"], ["--refresh", "nan"], ["--refresh", "0"], ["--refresh", "1.2.3"],
        ["--refresh", "."], ["--scale", "0x1p3"], ["--scale", "9"],
        ["--size", "0x0"], ["--mode", "wide"], ["--overscan", "30"], ["--level", "org.example.app"],
        ["--policy", "random"], ["--placement", ""], ["--clock", "wall"], ["--xwayland", "always"],
        ["--record", ""], ["--record-limit", "100"], ["--record-protocol", "1"],
        ["--hide-cursor=yes"], ["--no-control", "--no-control"], ["--hide-cursor", "extra"],
        ["--pointer-binding-modifier", "meta"], ["--pointer-binding-modifier", "Super"], ["--no-pointer-bindings=1"],
        ["--keyboard-layout", ""], ["--keyboard-layout", "de", "--keyboard-layout", "us"],
        ["--keyboard-layout", "d e"],
        ["--x-display", "-1"], ["--x-display", "40000"], ["--x-display", "3", "--xwayland", "off"],
        ["--ready-fd", "-3"],
        ["--ready-fd", "99999999999"], ["--keyboard-variant", "a\"b"], ["--keyboard-model="],
        ["--keyboard-options", String(repeating: "x", count: 256)],
    ]

    @Test(arguments: otherLines)
    func anyOtherLineIsLeftToSwiftArgumentParser(arguments: [String]) {
        #expect(StrataCommand.parseCommonArguments(arguments) == nil)
    }
}

/// The start's read of the environment (`ProcessEnvironment`) gives what ProcessInfo gives.
@Suite struct ProcessEnvironmentTests {
    /// Entries split at the first `=` byte, an empty value kept, an entry without `=` skipped, a
    /// later entry replacing an earlier one of the same name, bytes beyond ASCII decoded. Read from
    /// an array of the test's own: setenv would change the whole test process's environment
    /// under other tests that read it or start children.
    @Test func entriesAreSplitAtTheFirstEqualsSign() {
        let lines = ["A=a=b==c", "EMPTY=", "NO_EQUALS", "A=second", "=no name", "ÉTÉ=chaud ☀︎", "PATH=/usr/bin:/bin"]
        var pointers: [UnsafeMutablePointer<CChar>?] = lines.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        let read = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.read($0.baseAddress!) }
        #expect(read == ["A": "second", "EMPTY": "", "": "no name", "ÉTÉ": "chaud ☀︎", "PATH": "/usr/bin:/bin"])
    }

    @Test func theProcessEnvironmentReadsAsProcessInfoReadsIt() {
        // The environment is the whole process's: another test may change it while this one reads
        // (WestonParentTests sets WAYLAND_DISPLAY for a moment). Compared is a read that
        // ProcessInfo saw the same before and after; a wrong read is wrong every time.
        var read: [String: String] = [:], seen: [String: String] = [:]
        for _ in 0..<100 {
            seen = ProcessInfo.processInfo.environment
            read = ProcessEnvironment.read()
            if ProcessInfo.processInfo.environment == seen { break }
        }
        #expect(!read.isEmpty)
        #expect(read == seen)
    }
}
