import CStrataServerGlue
import Glibc

/// The few socket calls Strata's own listening sockets need (the control socket, the privileged
/// Wayland socket), with errno turned into messages. Every fd is non-blocking and close-on-exec,
/// so a client Strata starts never inherits one.
public enum UnixSocket {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ what: String, errno code: Int32 = errno) {
            description = "\(what): \(String(cString: strerror(code)))"
        }
        public init(message: String) { description = message }
    }

    /// `sun_path`'s capacity, terminating NUL included.
    public static let pathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// A listening socket at `path` with mode 0600. A file already there is replaced: the caller
    /// makes the name its own (the Wayland socket's lock, or a random name).
    public static func listen(path: String) throws(Failure) -> Int32 {
        guard path.utf8.count < pathCapacity else {
            throw Failure(message: "the socket path \(path) is longer than \(pathCapacity - 1) bytes")
        }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        unlink(path)
        var address = makeAddress(path)
        // Created private: Linux gives the socket's file the mode of the socket's own inode, less
        // the umask, so a 0600 socket binds as a 0600 file (no window where others connect). Not
        // umask: it is the whole process's, and a child another thread starts meanwhile would
        // inherit 0177 (chromium, started so by a test beside a control server, crashed on its
        // profile folder). The chmod after makes sure of the mode.
        guard fchmod(fd, 0o600) == 0 else {
            let code = errno
            close(fd)
            throw Failure("cannot make the socket \(path) private", errno: code)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure("cannot bind \(path)", errno: code)
        }
        guard chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            unlink(path)
            throw Failure("cannot listen on \(path)", errno: code)
        }
        return fd
    }

    /// A connection from `listener`, non-blocking and close-on-exec; nil when none is waiting.
    public static func accept(_ listener: Int32) -> Int32? {
        let fd = strata_accept_cloexec(listener)
        guard fd >= 0 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        return fd
    }

    public struct PeerCredentials: Sendable {
        public var pid: Int32 = 0
        public var uid: UInt32 = 0
        public var gid: UInt32 = 0
        public init() {}
    }

    /// The peer's pid, uid and gid (SO_PEERCRED), nil if the kernel does not say.
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout<PeerCredentials>.size
        else { return nil }
        return credentials
    }

    public enum ReadResult {
        case data(Int)
        case wouldBlock
        case endOfFile
        case failed(Int32)
    }

    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .data(n) }
            if n == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    public enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    /// `send` without SIGPIPE: a peer that went away is an error result, not a signal.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> WriteResult {
        while true {
            let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .wrote(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    public static func makeAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
