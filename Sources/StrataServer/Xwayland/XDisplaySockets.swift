import Glibc

/// An X display Strata owns: its number N, the lock file `/tmp/.XN-lock` (the pid, as X servers
/// write it), and the two listening sockets X clients connect to (`/tmp/.X11-unix/XN` and the
/// abstract `@/tmp/.X11-unix/XN`). Xwayland is given both sockets (`-listenfd`); Strata keeps its
/// own copies, so a display outlives an Xwayland that died. `remove()` closes them and deletes the
/// socket file and the lock.
public struct XDisplaySockets {
    public let number: Int
    public let unixFD: Int32
    public let abstractFD: Int32

    /// Display numbers tried, lowest first (as sway and weston do). 1,024, not weston's 32:
    /// people start one Strata per test, a hundred at once, and each holds its display from its
    /// start (Xwayland starts lazily on it); the first free one is found after as many failed
    /// lock files as are taken (microseconds each).
    public static let candidates = 0..<1024

    static func socketPath(_ number: Int) -> String { "/tmp/.X11-unix/X\(number)" }
    static func lockPath(_ number: Int) -> String { "/tmp/.X\(number)-lock" }

    /// Takes the first free display number: one whose lock file does not exist or names a dead
    /// process (a stale lock is removed with its socket), and whose sockets bind. Nil with a
    /// reason when none is free.
    public static func open(from first: Int = 0) -> Result<XDisplaySockets, XwaylandError> {
        open(numbers: candidates.filter { $0 >= first })
    }

    /// The highest display number `open(exactly:)` takes.
    public static let highestNumber = 32767

    /// Takes display `number` or fails with `.displayTaken` (`strata --x-display`, `strata-run -n`).
    public static func open(exactly number: Int) -> Result<XDisplaySockets, XwaylandError> {
        guard (0...highestNumber).contains(number) else { return .failure(.displayTaken(number)) }
        if case .success(let sockets) = open(numbers: [number]) { return .success(sockets) }
        return .failure(.displayTaken(number))
    }

    private static func open(numbers: [Int]) -> Result<XDisplaySockets, XwaylandError> {
        _ = mkdir("/tmp/.X11-unix", 0o1777)
        for number in numbers {
            guard takeLock(number) else { continue }
            guard let unixFD = listen(path: socketPath(number), abstract: false) else {
                unlink(lockPath(number))
                continue
            }
            guard let abstractFD = listen(path: socketPath(number), abstract: true) else {
                close(unixFD)
                unlink(socketPath(number))
                unlink(lockPath(number))
                continue
            }
            return .success(XDisplaySockets(number: number, unixFD: unixFD, abstractFD: abstractFD))
        }
        return .failure(.noFreeDisplay)
    }

    /// Creates the lock file exclusively; a lock of a process that no longer exists is removed
    /// (with its socket file) and taken.
    private static func takeLock(_ number: Int) -> Bool {
        for _ in 0..<2 {
            let fd = Glibc.open(lockPath(number), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
            if fd >= 0 {
                // The format X servers use: the pid right-aligned in ten columns and a newline.
                let pid = String(getpid())
                let text = String(repeating: " ", count: max(0, 10 - pid.count)) + pid + "\n"
                let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, text.utf8.count) }
                close(fd)
                if written != text.utf8.count {
                    unlink(lockPath(number))
                    return false
                }
                return true
            }
            guard errno == EEXIST, let owner = lockOwner(number) else { return false }
            // kill(pid, 0) fails with ESRCH only when no such process exists.
            guard owner > 0, kill(owner, 0) != 0, errno == ESRCH else { return false }
            unlink(lockPath(number))
            unlink(socketPath(number))
        }
        return false
    }

    /// The pid in a lock file (at most 11 bytes read), nil when unreadable.
    private static func lockOwner(_ number: Int) -> pid_t? {
        let fd = Glibc.open(lockPath(number), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 12)
        let count = read(fd, &bytes, 11)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return pid_t(text)
    }

    /// A listening stream socket on `path` (a file, or the abstract name `\0path`).
    private static func listen(path: String, abstract: Bool) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let offset = abstract ? 1 : 0
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + offset < capacity else {
            close(fd)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index + offset] = byte }
        }
        if !abstract { unlink(path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Closes the sockets and removes the socket file and the lock file.
    public func remove() {
        close(unixFD)
        close(abstractFD)
        unlink(Self.socketPath(number))
        unlink(Self.lockPath(number))
    }
}
