import Foundation
import StrataTestSupport
import StrataTestRandom
import Testing

/// Hostile clients against the built `strata`: clients SIGKILLed while they commit, clients that
/// die half-way through a message, a thousand connections, a client that never reads. Strata keeps
/// serving, and still shuts down cleanly (exit 0) afterwards.
@Suite struct HostileEndToEndTests {
    static let colorClient = StrataRun.sibling("strata-color-client")

    @Test(.enabled(if: colorClient != nil, "strata-color-client is not built"))
    func clientsKilledWhileCommittingLeaveStrataServing() async throws {
        let run = try StrataRun(["--screens", "2", "--size", "320x200"])
        let name = try #require(await run.socketName())
        var environment = StrataRun.childEnvironment
        environment["WAYLAND_DISPLAY"] = name
        environment["XDG_RUNTIME_DIR"] = run.runtimeDirectory
        var generator = SeededGenerator(seed: 3)
        for round in 0..<24 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.colorClient!)
            process.arguments = ["--size", "\(40 + round)x\(30 + round)", "--frames", "100000"]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Somewhere between connecting and the middle of its stream of commits.
            try await Task.sleep(nanoseconds: UInt64(generator.next() % 60_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(kill(run.pid, 0) == 0, "strata died after killed client \(round): \(run.stderr)")
        }
        #expect(try WireSocket(runtime: run.runtimeDirectory, name: name).roundtrip(), "strata still answers")
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
    }

    @Test func halfMessagesThousandsOfConnectionsAndANonReaderLeaveStrataServing() async throws {
        let run = try StrataRun(["--size", "320x200"])
        let name = try #require(await run.socketName())
        // A thousand connections; every third leaves half-way through a message.
        for cycle in 0..<1000 {
            let socket = try WireSocket(runtime: run.runtimeDirectory, name: name)
            var bytes = WireMessage(object: 1, opcode: 1, [.newID(2)]).bytes
            bytes += WireMessage(object: 2, opcode: 0, [.uint(2), .string("wl_compositor"), .uint(4), .newID(3)]).bytes
            bytes += WireMessage(object: 3, opcode: 0, [.newID(4)]).bytes
            bytes += WireMessage(object: 4, opcode: 6).bytes  // wl_surface.commit
            if cycle % 3 == 0 { bytes = Array(bytes.prefix(bytes.count - 5)) }
            socket.write(bytes)
        }
        // A client that asks for answers and never reads them.
        let deaf = try WireSocket(runtime: run.runtimeDirectory, name: name)
        var spam: [UInt8] = []
        for id in UInt32(2)..<4000 { spam += WireMessage(object: 1, opcode: 0, [.newID(id)]).bytes }
        for _ in 0..<20 { deaf.write(spam) }
        #expect(try WireSocket(runtime: run.runtimeDirectory, name: name).roundtrip(), "strata still answers")
        #expect(kill(run.pid, 0) == 0)
        run.send(SIGTERM)
        let result = await run.finish()
        #expect(result.status == 0, "stderr: \(result.stderr)")
        withExtendedLifetime(deaf) {}
    }
}

/// A raw connection to a running strata's Wayland socket.
final class WireSocket {
    let fd: Int32

    init(runtime: String, name: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array("\(runtime)/\(name)".utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.prefix(raw.count - 1).map { UInt8(bitPattern: $0) })
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw StrataRun.Failure("cannot connect to \(runtime)/\(name): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Writes what the socket takes now (a non-reader's socket fills; that is the point).
    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// wl_display.sync and wait (up to 20 s: strata is another process, on a loaded machine)
    /// for its callback's done event.
    func roundtrip() -> Bool {
        write(WireMessage(object: 1, opcode: 0, [.newID(2)]).bytes)
        let deadline = Date().addingTimeInterval(20)
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return false }
            if count > 0 { input += buffer[0..<count] }
            // The done event: object 2, opcode 0.
            var offset = 0
            while input.count - offset >= 8 {
                let object = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
                let header = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                if object == 2, header & 0xffff == 0 { return true }
                offset += max(8, Int(header >> 16))
            }
        }
        return false
    }
}
