import Foundation
import StrataServer
import Testing

/// A keymap's text kept between runs (Input/KeymapCache.swift).
@Suite struct KeymapCacheTests {
    /// A fresh cache folder, and the environment that points a cache at it.
    private func temporaryCache() throws -> (directory: String, environment: [String: String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-keymap-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // HOME with no .xkb or .config/xkb in it, so only the system's XKB data counts.
        return (root, ["XDG_CACHE_HOME": root, "HOME": root])
    }

    @Test func aStoredKeymapIsLoadedBackForTheSameEnvironment() throws {
        let (root, environment) = try temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = KeymapCache(environment: environment)
        #expect(cache.directory == root + "/strata")
        #expect(cache.load() == nil)
        #expect(cache.store("xkb_keymap { };\n"))
        #expect(KeymapCache(environment: environment).load() == "xkb_keymap { };\n")
        // The file is the user's alone.
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/strata")
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/strata/" + files[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anotherLayoutOrDataRootDoesNotSeeTheStoredKeymap() throws {
        let (root, environment) = try temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(KeymapCache(environment: environment).store("xkb_keymap { };\n"))
        #expect(KeymapCache(environment: environment).forNames(KeymapNames(layout: "de")).load() == nil)
        #expect(KeymapCache(environment: environment).forNames(KeymapNames(options: "ctrl:nocaps")).load() == nil)
        // The host's XKB_DEFAULT_* play no part: the names are the whole key.
        var german = environment
        german["XKB_DEFAULT_LAYOUT"] = "de"
        #expect(KeymapCache(environment: german).load() == "xkb_keymap { };\n")
        var elsewhere = environment
        elsewhere["XKB_CONFIG_ROOT"] = root
        #expect(KeymapCache(environment: elsewhere).load() == nil)
    }

    @Test func aUserXkbFolderOrTheSwitchTurnsTheCacheOff() throws {
        let (root, environment) = try temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/.xkb", withIntermediateDirectories: true)
        #expect(!KeymapCache(environment: environment).store("xkb_keymap { };\n"))
        try FileManager.default.removeItem(atPath: root + "/.xkb")
        var off = environment
        off["STRATA_KEYMAP_CACHE"] = "0"
        #expect(!KeymapCache(environment: off).store("xkb_keymap { };\n"))
        #expect(KeymapCache(environment: off).load() == nil)
        // No HOME and no XDG_CACHE_HOME: nowhere to keep it.
        #expect(KeymapCache(environment: [:]).directory == nil)
        #expect(!KeymapCache(environment: [:]).store("xkb_keymap { };\n"))
    }

    @Test func aFileWithAnotherKeyLineOrChecksumOrANulOrTooBigOrAFifoIsIgnored() throws {
        let (root, environment) = try temporaryCache()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = KeymapCache(environment: environment)
        #expect(cache.store("xkb_keymap { };\n"))
        let path = root + "/strata/" + (try FileManager.default.contentsOfDirectory(atPath: root + "/strata"))[0]
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        let lines = stored.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        try #require(lines.count == 3)
        let (keyLine, checksumLine) = (String(lines[0]), String(lines[1]))
        #expect(checksumLine.hasPrefix("fnv1a64 ") && checksumLine.count == 24)
        #expect(cache.load() == "xkb_keymap { };\n")

        try ("another key\n" + checksumLine + "\nxkb_keymap { };\n").write(
            toFile: path, atomically: false, encoding: .utf8)
        #expect(cache.load() == nil)
        // One byte of the text changed: the checksum no longer matches.
        try (keyLine + "\n" + checksumLine + "\nxkb_keymap { }:\n").write(
            toFile: path, atomically: false, encoding: .utf8)
        #expect(cache.load() == nil)
        // No checksum line at all.
        try (keyLine + "\nxkb_keymap { };\n").write(toFile: path, atomically: false, encoding: .utf8)
        #expect(cache.load() == nil)
        try Data((keyLine + "\n" + checksumLine + "\nxkb_keymap {\0 };\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(cache.load() == nil)
        try Data((keyLine + "\n" + checksumLine + "\n" + String(repeating: "x", count: 1 << 20)).utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(cache.load() == nil)
        #expect(!cache.store(String(repeating: "x", count: 1 << 20)))
        #expect(!cache.store(""))
        // A symbolic link to a good file is not followed.
        try FileManager.default.removeItem(atPath: path)
        try stored.write(toFile: root + "/elsewhere", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: root + "/elsewhere")
        #expect(cache.load() == nil)
        // Nor is a FIFO waited on.
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        #expect(cache.load() == nil)
        // Written anew, it is served again.
        try FileManager.default.removeItem(atPath: path)
        #expect(cache.store("xkb_keymap { };\n"))
        #expect(cache.load() == "xkb_keymap { };\n")
    }
}
