import Foundation
import Glibc
import StrataTestSupport
import Testing

/// The built `strata` serves 1,000 clients connected at once: it raises its open-file limit to
/// the hard limit at start (every client is a socket).
@Suite struct ClientCapacityEndToEndTests {
    /// The soft and hard "Max open files" of a process.
    static func openFileLimits(of pid: pid_t) -> (soft: String, hard: String)? {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
              let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        return (String(fields[3]), String(fields[4]))
    }

    @Test func strataRaisesItsOpenFileLimitAndServesAThousandClientsAtOnce() async throws {
        // This process holds the thousand sockets too.
        var own = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
        if own.rlim_cur < own.rlim_max {
            own.rlim_cur = own.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &own)
        }
        let run = try StrataRun(["--size", "320x200"])
        let name = try #require(await run.socketName())
        let limits = try #require(Self.openFileLimits(of: run.pid))
        #expect(limits.soft == limits.hard, "strata's open-file limit: \(limits)")

        var sockets: [WireSocket] = []
        for _ in 0..<1000 {
            let socket = try WireSocket(runtime: run.runtimeDirectory, name: name)
            // get_registry(2), sync(3)
            socket.write(WireMessage(object: 1, opcode: 1, [.newID(2)]).bytes + WireMessage(object: 1, opcode: 0, [.newID(3)]).bytes)
            sockets.append(socket)
        }
        var answered = 0
        for socket in sockets where socket.waitForDone(of: 3, globalsAtLeast: 10) { answered += 1 }
        #expect(answered == 1000)
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
