import Foundation
import Testing

/// The default keymap's text kept between runs (`KeymapCache`), through the built `strata`: the
/// first run writes it, the next serves it (compiled only when a key needs it), and a cache file
/// whose text was altered is replaced by the keymap the names give.
@Suite struct KeymapCacheEndToEndTests {
    /// The size in the wl_keyboard.keymap event wayland-info receives (`keymap(1, fd 4, 64434)`
    /// in its WAYLAND_DEBUG log), printed by the command Strata starts.
    static let command = [
        "sh", "-c",
        "WAYLAND_DEBUG=1 wayland-info 2>&1 >/dev/null | sed -n 's/.*wl_keyboard@[0-9]*\\.keymap(1, fd [0-9]*, \\([0-9]*\\)).*/keymap size \\1/p'",
    ]

    static func keymapSize(in stdout: String) -> Int? {
        stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("keymap size ") ? Int(line.dropFirst("keymap size ".count)) : nil
        }.first
    }

    @Test(
        .enabled(
            if: StrataRun.isInstalled("wayland-info"), "wayland-info is not installed (apt-get install wayland-utils)"))
    func aCacheFileWhoseTextWasAlteredIsReplacedByTheKeymapOfTheNames() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-keymap-e2e-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Every XKB variable pinned: the X11 backend's tests, in this process, set XKB_DEFAULT_*
        // from their X server while other tests run, which would give each run another key.
        let environment: [String: String?] = [
            "XDG_CACHE_HOME": root, "HOME": root, "XDG_CONFIG_HOME": nil, "STRATA_KEYMAP_CACHE": nil,
            "XKB_DEFAULT_RULES": nil, "XKB_DEFAULT_MODEL": nil,
            "XKB_DEFAULT_LAYOUT": nil, "XKB_DEFAULT_VARIANT": nil, "XKB_DEFAULT_OPTIONS": nil,
            "XKB_CONFIG_ROOT": nil, "XKB_CONFIG_EXTRA_PATH": nil,
        ]

        // First run: compiled from the names, and kept.
        let first = try await StrataRun.run(["--backend", "headless"], command: Self.command, environment: environment)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let size = try #require(Self.keymapSize(in: first.stdout), "no keymap event: \(first.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/strata")
        try #require(files.count == 1, "cache folder holds \(files)")
        let path = root + "/strata/" + files[0]
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        let lines = stored.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        try #require(lines.count == 3)
        // The file is the key line, the checksum line and the text clients get (the event's size
        // counts its NUL).
        #expect(lines[2].utf8.count + 1 == size)

        // Second run: the same text, from the cache; a key typed through it still arrives (the
        // keymap is compiled when the key needs it).
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let typing = Self.command[2] + "; \"$0\" input type 'hello, World'"
        let second = try await StrataRun.run(
            ["--backend", "headless"], command: ["sh", "-c", typing, ctl], environment: environment)
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(Self.keymapSize(in: second.stdout) == size)

        // A file whose text was altered (its checksum no longer matches): the names again, and
        // the file written anew.
        try (lines[0] + "\n" + lines[1] + "\n" + lines[2].replacingOccurrences(of: "xkb_symbols", with: "xkb_sYmbols"))
            .write(toFile: path, atomically: false, encoding: .utf8)
        let third = try await StrataRun.run(["--backend", "headless"], command: Self.command, environment: environment)
        #expect(third.status == 0, "stderr: \(third.stderr)")
        #expect(Self.keymapSize(in: third.stdout) == size)
        let rewritten = try String(contentsOfFile: path, encoding: .utf8)
        let listing = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/strata")) ?? []).sorted()
        #expect(
            rewritten == stored,
            """
            the file was not written anew: \(listing); its first lines \(rewritten.split(separator: "\n").prefix(2)); \
            stderr: \(third.stderr)
            """)
    }
}
