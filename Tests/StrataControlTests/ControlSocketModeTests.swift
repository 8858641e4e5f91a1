import Foundation
import Glibc
@testable import StrataControl
import StrataServer
import StrataTestSupport
import Testing

/// The control socket is made private without the process's umask: the umask is the whole
/// process's, and a child that another thread starts while it is changed inherits it (chromium,
/// started with umask 0177 by a test beside a control server, crashed on its own profile folder).
@Suite struct ControlSocketModeTests {
    /// The socket file is 0600 from its creation whatever the umask (the kernel takes the mode
    /// from the socket's inode, which `listen` sets before `bind`).
    @Test func theSocketIsCreatedPrivate() throws {
        let folder = try ScratchFolder(prefix: "strata-control-mode")
        let fd = try UnixSocket.listen(path: folder.path + "/control")
        defer { close(fd) }
        var info = stat()
        #expect(stat(folder.path + "/control", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    /// While sockets are made on this thread, another thread reads the process's umask from
    /// /proc (reading it with umask() would change it): it never sees anything but the umask the
    /// test started with. With the umask switched to 0177 around `bind`, the reader saw it within
    /// the first few hundred sockets.
    @Test func makingSocketsLeavesTheProcessUmaskAlone() throws {
        let folder = try ScratchFolder(prefix: "strata-control-mode")
        let before = try #require(Self.processUmask())
        let watcher = UmaskWatcher(expected: before)
        let thread = Thread { watcher.run() }
        thread.start()
        while !watcher.hasStarted { usleep(100) }
        for index in 0..<2_000 {
            let path = folder.path + "/control-\(index % 8)"
            let fd = try UnixSocket.listen(path: path)
            close(fd)
            unlink(path)
        }
        watcher.stop()
        #expect(watcher.reads > 0)
        #expect(
            watcher.seen.isEmpty,
            "the umask changed to \(watcher.seen.map { String($0, radix: 8) }) while sockets were made")
    }

    /// The `Umask:` line of /proc/self/status (octal).
    static func processUmask() -> UInt32? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let value = line.split(separator: "\t").last
        else { return nil }
        return UInt32(value.trimmingCharacters(in: .whitespaces), radix: 8)
    }

    /// Reads the umask in a loop until stopped; keeps any value other than `expected`.
    final class UmaskWatcher: @unchecked Sendable {
        private let lock = NSLock()
        private let expected: UInt32
        private var stopped = false
        private var started = false
        private var finished = false
        private(set) var reads = 0
        private(set) var seen: Set<UInt32> = []

        init(expected: UInt32) { self.expected = expected }

        var hasStarted: Bool { lock.withLock { started } }

        func run() {
            lock.withLock { started = true }
            while !lock.withLock({ stopped }) {
                guard let mask = ControlSocketModeTests.processUmask() else { continue }
                lock.withLock {
                    reads += 1
                    if mask != expected { seen.insert(mask) }
                }
            }
            lock.withLock { finished = true }
        }

        /// Stops the loop and waits until it has ended.
        func stop() {
            lock.withLock { stopped = true }
            while !lock.withLock({ finished }) { usleep(100) }
        }
    }
}
