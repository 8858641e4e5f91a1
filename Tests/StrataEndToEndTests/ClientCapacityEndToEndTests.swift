import Foundation
import Glibc
import StrataTestSupport
import Testing

/// The built `strata` serves more clients at once than the soft open-file limit it was started
/// with allows: it raises its soft limit to the hard one at start (every client is a socket).
/// Strata starts with a low soft limit of its own (256), set in its child shell: this process's
/// limit, which Strata would otherwise inherit, is left alone.
@Suite struct ClientCapacityEndToEndTests {
    static let startingSoftLimit = 256
    static let clients = 2 * startingSoftLimit

    /// The soft and hard "Max open files" of a process.
    static func openFileLimits(of pid: pid_t) -> (soft: String, hard: String)? {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
            let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        return (String(fields[3]), String(fields[4]))
    }

    @Test func strataStartedWithALowLimitRaisesItAndServesTwiceAsManyClientsAtOnce() async throws {
        let run = try StrataRun(["--size", "320x200"], openFileSoftLimit: Self.startingSoftLimit)
        let name = try #require(await run.socketName())
        let limits = try #require(Self.openFileLimits(of: run.pid))
        #expect(limits.soft == limits.hard, "strata's open-file limit: \(limits)")
        #expect(
            (Int(limits.soft) ?? Int.max) > Self.clients + 64 || limits.soft == "unlimited",
            "strata's open-file limit: \(limits)")

        var sockets: [WireSocket] = []
        for _ in 0..<Self.clients {
            let socket = try WireSocket(runtime: run.runtimeDirectory, name: name)
            // get_registry(2), sync(3)
            socket.write(
                WireMessage(object: 1, opcode: 1, [.newID(2)]).bytes
                    + WireMessage(object: 1, opcode: 0, [.newID(3)]).bytes)
            sockets.append(socket)
        }
        var answered = 0
        for socket in sockets where socket.waitForDone(of: 3, globalsAtLeast: 10) { answered += 1 }
        #expect(answered == Self.clients)
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        withExtendedLifetime(sockets) {}
    }
}

extension WireSocket {
    /// Waits (up to 20 s: strata is another process, on a loaded machine) for wl_callback
    /// `callback`'s done, having seen at least `count`
    /// wl_registry.global events on object 2 before it.
    func waitForDone(of callback: UInt32, globalsAtLeast count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var globals = 0
        var offset = 0
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return false }
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received == 0 { return false }
            if received > 0 { input += buffer[0..<received] }
            while input.count - offset >= 8 {
                let object = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
                let header = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let size = max(8, Int(header >> 16))
                guard input.count - offset >= size else { break }
                if object == 2, header & 0xffff == 0 { globals += 1 }
                if object == callback, header & 0xffff == 0 { return globals >= count }
                offset += size
            }
        }
        return false
    }
}
