import CStrataClientGlue
import Foundation

/// What a sandbox engine hands wp_security_context_manager_v1: a listening Unix socket (at an
/// abstract address, so no file is left behind) and a pipe whose write end it closes when the
/// sandbox is done. The test keeps its own copies; `closeListening()` and `hangUp()` drop them.
final class SandboxSocket {
    let listenFD: Int32
    let closeFD: Int32
    private var closeWriteFD: Int32
    private let name: String

    init() throws {
        name = "strata-sandbox-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = SandboxSocket.address(name)
        let length = SandboxSocket.length(name)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EINVAL) }
        listenFD = fd
        var pipeFDs: [Int32] = [-1, -1]
        guard strata_client_pipe(&pipeFDs) == 0 else { throw POSIXError(.EMFILE) }
        closeFD = pipeFDs[0]
        closeWriteFD = pipeFDs[1]
    }

    deinit {
        closeListening()
        close(closeFD)
        hangUp()
    }

    /// A new connection to the listening socket, or nil (ECONNREFUSED once nobody listens).
    func connect() -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = SandboxSocket.address(name)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, SandboxSocket.length(name)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private var listening = true
    /// Closes the test's copy of the listening socket (the server's copy keeps it listening).
    func closeListening() {
        guard listening else { return }
        listening = false
        close(listenFD)
    }

    /// Closes the pipe's write end: the server's close_fd hangs up.
    func hangUp() {
        guard closeWriteFD >= 0 else { return }
        close(closeWriteFD)
        closeWriteFD = -1
    }

    private static func address(_ name: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in name.utf8.enumerated() { raw[i + 1] = byte }  // raw[0] = 0: abstract
        }
        return address
    }

    private static func length(_ name: String) -> socklen_t {
        socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.utf8.count)
    }
}
