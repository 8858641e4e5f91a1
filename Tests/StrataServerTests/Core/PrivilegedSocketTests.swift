import Foundation
import Glibc
@testable import StrataServer
import StrataTestSupport
import Testing

/// The privileged socket (`PrivilegedSocket`): every connection on it is `.startedByStrata`, a
/// connection flood is accepted a bounded number per wakeup, and closing it removes its file
/// and leaves the clients that connected.
@Suite struct PrivilegedSocketTests {
    /// A connected, close-on-exec socket to `path`.
    static func connect(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = UnixSocket.makeAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw StrataRunFailure("connect \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    struct StrataRunFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func itsNameIsThePublicNameWithSixteenHexDigitsAndItsFileIsPrivate() throws {
        let server = try TestServer()
        let folder = try ScratchFolder(prefix: "strata-priv")
        let socket = try PrivilegedSocket(
            display: server.compositor.display, runtimeDirectory: folder.path, publicName: "wayland-7")
        #expect(socket.name.hasPrefix("wayland-7-") && socket.name.count == "wayland-7-".count + 16)
        #expect(socket.name.suffix(16).allSatisfy { $0.isHexDigit })
        var info = stat()
        #expect(stat(socket.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        // Two sockets never share a name.
        let other = try PrivilegedSocket(
            display: server.compositor.display, runtimeDirectory: folder.path, publicName: "wayland-7")
        #expect(other.name != socket.name)
    }

    @Test func aClientOnThePrivilegedSocketIsStartedByStrataAndSeesTheToolProtocols() throws {
        let server = try TestServer()
        server.compositor.clientPrivilege = .startedByStrata
        let folder = try ScratchFolder(prefix: "strata-priv")
        let socket = try PrivilegedSocket(
            display: server.compositor.display, runtimeDirectory: folder.path, publicName: "wayland-1")
        let privileged = try TestClient(server: server, connectedSocket: try Self.connect(to: socket.path))
        #expect(server.compositor.display.origin(of: privileged.serverClient) == .startedByStrata)
        #expect(privileged.globals["zwlr_screencopy_manager_v1"] != nil)
        #expect(privileged.globals["zwlr_data_control_manager_v1"] != nil)
        // Its pid is its own (the peer's credentials), not a recorded child's.
        #expect(server.compositor.display.processID(of: privileged.serverClient) == getpid())
        let ordinary = try TestClient(server: server)
        #expect(ordinary.globals["wl_compositor"] != nil && ordinary.globals["zwlr_screencopy_manager_v1"] == nil)
        #expect(socket.accepted == 1)
    }

    /// A hundred connects at once: one wakeup accepts at most `maxAcceptsPerWakeup`, the rest
    /// wait for the next ones, and every one is served in the end.
    @Test func aFloodOfConnectsIsAcceptedABoundedNumberPerWakeup() throws {
        let server = try TestServer()
        let folder = try ScratchFolder(prefix: "strata-priv")
        let socket = try PrivilegedSocket(
            display: server.compositor.display, runtimeDirectory: folder.path, publicName: "wayland-1")
        // Connects complete in the kernel's backlog (at most 16 listening), so make them in bursts.
        var fds: [Int32] = []
        defer { for fd in fds { close(fd) } }
        for _ in 0..<6 {
            for _ in 0..<16 { fds.append(try Self.connect(to: socket.path)) }
            let before = socket.accepted
            server.step()
            #expect(socket.accepted - before <= PrivilegedSocket.maxAcceptsPerWakeup)
            #expect(socket.accepted > before)
        }
        #expect(server.run(seconds: 10) { socket.accepted == fds.count })
        #expect(server.compositor.display.clientsWithOrigin == fds.count)
        for fd in fds { close(fd) }
        fds.removeAll()
        #expect(server.run(seconds: 10) { server.compositor.display.clientsWithOrigin == 0 })
        #expect(socket.refused == 0)
    }

    @Test func closingRemovesTheFileOnceAndKeepsTheClientsThatConnected() throws {
        let server = try TestServer()
        let folder = try ScratchFolder(prefix: "strata-priv")
        let socket = try PrivilegedSocket(
            display: server.compositor.display, runtimeDirectory: folder.path, publicName: "wayland-1")
        let client = try TestClient(server: server, connectedSocket: try Self.connect(to: socket.path))
        let closes = Descriptors.recordingCloses {
            socket.close()
            socket.close()
        }
        #expect(closes.closed.count == 1, "closed \(closes.closed)")
        #expect(access(socket.path, F_OK) != 0, "the socket file is gone")
        #expect(throws: StrataRunFailure.self) { _ = try Self.connect(to: socket.path) }
        #expect(client.roundtrip(), "the client that connected goes on")
    }

    /// The compositor's is named after its public socket: without one it is a setup error.
    @Test func theCompositorNeedsItsPublicSocketFirst() throws {
        let server = try TestServer()
        #expect(server.compositor.display.socketName == nil)
        #expect(throws: ServerError.self) { try server.compositor.addPrivilegedSocket() }
        #expect(server.compositor.privilegedSocket == nil)
    }
}
