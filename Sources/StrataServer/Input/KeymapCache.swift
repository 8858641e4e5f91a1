import Glibc

/// The text of the keymap rule names (`KeymapNames`) compile to, kept between runs: compiling the
/// names reads and parses about thirty files of the XKB data; compiling the text they gave takes
/// about 1 ms (docs/performance.md, "Start-up").
///
/// One file per key, `keymap-<hash>.xkb` in `$XDG_CACHE_HOME/strata` (else `~/.cache/strata`):
/// its first line is the whole key, its second the text's FNV-1a 64 checksum
/// (`fnv1a64 <16 hex digits>`), the rest the keymap text. The checksum lets the seat serve a
/// cached text without compiling it first (`Keymap`): a file that is not exactly what a
/// successful compile wrote is never served. The key holds the names and what they
/// resolve through: the XKB_CONFIG_* variables, the data root, and the change
/// time and inode of the root and each of its folders (a package update replaces files, which
/// changes their folder). A user or system XKB folder (`~/.config/xkb`, `~/.xkb`, `/etc/xkb`),
/// which could shadow any file, turns the cache off. A file that does not match its key, is too
/// big, is not a regular file, or fails its checksum is ignored and written again; writing goes
/// through a temporary file renamed into place, so readers never see half a file. Nothing
/// blocks on a FIFO put there. No directory means no cache.
public struct KeymapCache: Sendable {
    /// The cache's folder; nil: no cache.
    public let directory: String?
    /// The environment's part of the key, nil when the environment rules out a cache.
    let environmentKey: String?
    /// The rule names whose keymap this cache holds.
    var names = KeymapNames.standard
    /// The key line: the environment's part and the names.
    var key: String? { environmentKey.map { $0 + " " + names.line } }

    static let maximumSize = 1 << 20

    /// The cache for this process's environment.
    public static var standard: KeymapCache {
        var environment: [String: String] = [:]
        for name in [
            "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "HOME", "XKB_CONFIG_ROOT", "XKB_CONFIG_EXTRA_PATH",
            "STRATA_KEYMAP_CACHE",
        ] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return KeymapCache(environment: environment)
    }

    /// The cache `environment` (variable name → value) describes. STRATA_KEYMAP_CACHE=0 turns it
    /// off (the benchmark's before/after).
    public init(environment: [String: String]) {
        guard environment["STRATA_KEYMAP_CACHE"] != "0" else {
            directory = nil
            environmentKey = nil
            return
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            directory = cache + "/strata"
        } else {
            directory = home.map { $0 + "/.cache/strata" }
        }
        environmentKey = Self.key(environment: environment, home: home)
    }

    /// This cache, for the keymap of `names`.
    public func forNames(_ names: KeymapNames) -> KeymapCache {
        var cache = self
        cache.names = names
        return cache
    }

    /// The environment's part of the key line, or nil when a user or system XKB folder exists or the data root cannot be
    /// read.
    static func key(environment: [String: String], home: String?) -> String? {
        var userFolders = ["/etc/xkb"]
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { userFolders.append(config + "/xkb") }
        if let home { userFolders += [home + "/.config/xkb", home + "/.xkb"] }
        if let extra = environment["XKB_CONFIG_EXTRA_PATH"] { userFolders.append(extra) }
        for folder in userFolders where access(folder, F_OK) == 0 { return nil }
        let root = environment["XKB_CONFIG_ROOT"] ?? "/usr/share/X11/xkb"
        var key = "strata-keymap-cache 3 root=\(root)"
        for folder in ["", "/rules", "/keycodes", "/types", "/compat", "/symbols"] {
            var status = stat()
            guard stat(root + folder, &status) == 0 else { return nil }
            key +=
                " \(folder.isEmpty ? "." : folder)=\(status.st_ino):\(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
        }
        guard !key.utf8.contains(UInt8(ascii: "\n")) else { return nil }
        return key
    }

    /// The cache file's path for the key.
    var path: String? {
        guard let directory, let key, !key.utf8.contains(UInt8(ascii: "\n")) else { return nil }
        return directory + "/keymap-" + String(Self.fnv1a64(key.utf8), radix: 16) + ".xkb"
    }

    /// FNV-1a, 64 bits.
    static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The second line of a file holding `text`.
    static func checksumLine<Bytes: Sequence>(_ text: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = String(fnv1a64(text), radix: 16)
        return "fnv1a64 " + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The cached keymap text, nil when there is none for this key.
    public func load() -> String? {
        guard let path, let key else { return nil }
        // Non-blocking: a FIFO put there must not hold the start (it is then refused as no file).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
            status.st_size <= Self.maximumSize
        else { return nil }
        let size = Int(status.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < size {
                let n = read(fd, base + count, size - count)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                count += n
            }
        }
        guard bytes.count == size, let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            bytes[..<newline].elementsEqual(key.utf8),
            let second = bytes[(newline + 1)...].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let text = bytes[(second + 1)...]
        guard !text.isEmpty, !text.contains(0),
            bytes[(newline + 1)..<second].elementsEqual(Self.checksumLine(text).utf8)
        else {
            return nil
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Keeps `text` for this key; false when it could not (no cache, or a write failed).
    @discardableResult
    public func store(_ text: String) -> Bool {
        guard let directory, let path, let key, !text.isEmpty,
            key.utf8.count + 32 + text.utf8.count <= Self.maximumSize
        else { return false }
        if let slash = directory.utf8.lastIndex(of: UInt8(ascii: "/")), slash != directory.utf8.startIndex {
            _ = mkdir(String(directory[..<slash]), 0o700)
        }
        _ = mkdir(directory, 0o700)
        // A name of its own (several compositors, or several in one test process, may write at
        // once); O_EXCL: never someone else's file.
        let temporary = path + ".\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return false }
        let contents = Array((key + "\n" + Self.checksumLine(text.utf8) + "\n" + text).utf8)
        var written = 0
        while written < contents.count {
            let n = contents.withUnsafeBytes { bytes in
                bytes.baseAddress.map { write(fd, $0 + written, contents.count - written) } ?? -1
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        close(fd)
        guard written == contents.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
