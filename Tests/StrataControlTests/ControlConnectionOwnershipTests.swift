import Foundation
import Glibc
@testable import StrataControl
import StrataServer
import Testing

/// Who closes a control connection's socket (docs/reliability.md, "Descriptor ownership"): the
/// server until a `ControlConnection` watches it, the connection from then on, once.
@Suite struct ControlConnectionOwnershipTests {
    /// A connection the loop cannot watch (the loop's copy of the socket could not be made, at
    /// the descriptor limit, say): its init fails after full initialization, so its deinit runs;
    /// it must leave the socket to the server, which closes it, rather than close it as well.
    @Test func aConnectionThatCannotBeWatchedLeavesItsSocketToTheServer() throws {
        let harness = try ControlHarness()
        // A regular file: epoll refuses to watch it.
        let fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var before = stat()
        try #require(fstat(fd, &before) == 0)
        var made = true
        let closes = Descriptors.recordingCloses {
            made =
                ControlConnection(fd: fd, peer: UnixSocket.PeerCredentials(), number: 1_000, server: harness.control)
                != nil
        }
        #expect(!made)
        #expect(closes.closed.isEmpty, "the failed connection closed \(closes.closed)")
        var after = stat()
        #expect(fstat(fd, &after) == 0 && after.st_ino == before.st_ino && after.st_dev == before.st_dev)
        #expect(harness.control.connectionCount == 0)
    }

    /// A connection that closes (the peer hung up) closes its socket once, and forgets it.
    @Test func aConnectionClosesItsSocketOnce() throws {
        let harness = try ControlHarness()
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let closes = Descriptors.recordingCloses {
            let connection = ControlConnection(
                fd: pair[0], peer: UnixSocket.PeerCredentials(), number: 1_000,
                server: harness.control)
            #expect(connection != nil)
            connection?.close()
            connection?.close()
        }
        #expect(closes.closed == [pair[0]])
    }
}
