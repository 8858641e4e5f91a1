import Glibc

/// Checks on a path Strata or strata-ctl will write to (a screenshot directory, a trace, a
/// video, a report), made before anything runs, so a session never runs to its end only to find
/// it cannot save what it made. Each answer is the problem in words, naming the path (nil when
/// there is none): "/tmp/shots is a regular file, not a directory", "the directory /tmp/nope does
/// not exist". The write itself can still fail later (a full disk); its error is in words too.
public enum OutputPath {
    /// Why a file cannot be created or replaced at `path`, or nil.
    public static func problemWritingFile(_ path: String) -> String? {
        guard !path.isEmpty else { return "the file name is empty" }
        guard !path.contains("\0") else { return "\(quoted(path)) is not a usable file name" }
        var info = stat()
        if stat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR { return "\(path) is a directory, not a file" }
            if kind != S_IFREG { return "\(path) is \(Self.kind(of: kind)), not a regular file" }
            if access(path, W_OK) != 0 { return "\(path) is not writable (\(reason(errno)))" }
            return nil
        }
        let code = errno
        guard code == ENOENT || code == ENOTDIR else { return "\(path) cannot be used (\(reason(code)))" }
        return problemMakingEntry(in: parent(of: path), makesMissingParents: false)
    }

    /// Why files cannot be written into the directory `path` (made, with its missing parents,
    /// when it does not exist), or nil.
    public static func problemWritingInto(directory path: String) -> String? {
        guard !path.isEmpty else { return "the directory name is empty" }
        guard !path.contains("\0") else { return "\(quoted(path)) is not a usable directory name" }
        var info = stat()
        if stat(path, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind != S_IFDIR { return "\(path) exists and is \(Self.kind(of: kind)), not a directory" }
            if access(path, W_OK | X_OK) != 0 { return "the directory \(path) is not writable (\(reason(errno)))" }
            return nil
        }
        let code = errno
        guard code == ENOENT || code == ENOTDIR else { return "\(path) cannot be used (\(reason(code)))" }
        return problemMakingEntry(in: parent(of: path), makesMissingParents: true)
    }

    /// Makes the directory `path` and its missing parents (mode 0755, less the umask); the
    /// problem in words, nil when the directory is there.
    public static func makeDirectories(_ path: String) -> String? {
        if let problem = problemWritingInto(directory: path) { return problem }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return "cannot make the directory \(prefix) (\(reason(errno)))"
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return "cannot make the directory \(path) (something else is there)"
        }
        return nil
    }

    /// Writes `text` into the file `path` (created or replaced); the problem in words, nil when
    /// written.
    public static func write(_ text: String, to path: String) -> String? {
        if let problem = problemWritingFile(path) { return problem }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot open \(path) (\(reason(errno)))" }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return "cannot write \(path) (\(reason(errno)))"
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }

    /// Why nothing can be made in `directory`: the nearest part of it that exists must be a
    /// writable directory, and it must be `directory` itself unless missing parents are made.
    private static func problemMakingEntry(in directory: String, makesMissingParents: Bool) -> String? {
        var existing = directory
        var info = stat()
        while stat(existing, &info) != 0 {
            let code = errno
            // ENOTDIR: a part of the path is a file; the walk up finds it.
            guard code == ENOENT || code == ENOTDIR else { return "\(existing) cannot be used (\(reason(code)))" }
            let up = parent(of: existing)
            if up == existing { return "no part of \(directory) exists" }
            existing = up
        }
        let kind = info.st_mode & S_IFMT
        if kind != S_IFDIR { return "\(existing) is \(Self.kind(of: kind)), not a directory" }
        if existing != directory, !makesMissingParents { return "the directory \(directory) does not exist" }
        if access(existing, W_OK | X_OK) != 0 { return "the directory \(existing) is not writable (\(reason(errno)))" }
        return nil
    }

    /// The directory part of `path` ("." for a bare name, "/" at the root).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        var result = trimmed[..<slash]
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }

    static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\0", with: "\\0") + "\""
    }
}
