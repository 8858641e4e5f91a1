import Foundation
import Glibc
import StrataControl
import StrataControlProtocol
import StrataModel
import StrataServer
import StrataTestSupport

/// An in-process Strata (`TestServer`) with a control server on a private socket, stepped by
/// the test on one thread, and raw clients of that socket.
final class ControlHarness {
    let server: TestServer
    let control: ControlServer
    private let folder: ScratchFolder
    var directory: String { folder.path }
    var logged: [String] = []

    init(screens: Int = 1, clock: StrataServer.Clock.Mode = .realtime, keymapNames: KeymapNames = .standard) throws {
        server = try TestServer(screens: screens, clock: clock, keymapNames: keymapNames)
        folder = try ScratchFolder(prefix: "strata-ctl")
        control = try ControlServer(compositor: server.compositor, path: folder.path + "/control.sock")
        control.log = { [unowned self] line in logged.append(line) }
    }

    deinit {
        control.stop()
    }

    var windows: WindowManager { server.windows }

    /// A model window without a client, shown (and key unless `key` is false).
    @discardableResult
    func window(_ appID: String, level: WindowLevel = .normal, key: Bool = true) -> Window {
        let window = windows.createWindow(appID: appID, title: appID.uppercased(), level: level)
        windows.setFrame(window, Rect(x: 10, y: 10, width: 100, height: 100))
        windows.show(window, makeKey: key)
        return window
    }

    func connect() throws -> RawControlClient {
        try RawControlClient(harness: self)
    }

    /// One request on a fresh connection; the reply.
    func request(_ fields: [String: JSONValue]) throws -> JSONValue {
        try connect().request(fields)
    }
}

struct ControlClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A non-blocking client of the control socket that steps the server while it waits.
final class RawControlClient {
    let fd: Int32
    unowned let harness: ControlHarness
    private var buffer: [UInt8] = []
    private(set) var sawEndOfFile = false
    private var nextID = 1

    init(harness: ControlHarness) throws {
        self.harness = harness
        fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(harness.control.path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw ControlClientError("connect: \(String(cString: strerror(errno)))") }
        harness.server.step()
    }

    deinit { close(fd) }

    /// Writes raw bytes (all of them, stepping the server while the socket is full).
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        var spins = 0
        while offset < bytes.count, spins < 10000 {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { offset += n } else { harness.server.step(); spins += 1 }
        }
    }

    func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until `count` lines arrived (or the server closed, or ~2 s of steps passed).
    func lines(_ count: Int) -> [JSONValue] {
        var result: [JSONValue] = []
        var idle = 0
        while result.count < count, idle < 400 {
            if let line = takeLine() {
                result.append(line)
                idle = 0
                continue
            }
            if sawEndOfFile { break }
            harness.server.step(timeout: 0.005)
            if !readSome() { idle += 1 }
        }
        return result
    }

    /// Whether the server closed the connection (after reading everything it sent), within
    /// `seconds`: the end of file comes once every copy of the server's end is closed, and the
    /// posix_spawn child of another test thread holds copies until its exec (late under load).
    func isClosedByServer(seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !sawEndOfFile, Date() < deadline {
            harness.server.step(timeout: 0.002)
            _ = readSome()
        }
        return sawEndOfFile
    }

    /// A line already sent by the server, read without stepping it (nil: none yet); for tests
    /// that step a Wayland test client and the server together.
    func pollLine() -> JSONValue? {
        _ = readSome()
        return takeLine()
    }

    private func takeLine() -> JSONValue? {
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Data(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return (try? JSONValue.parse(line)) ?? .string("NOT JSON: " + String(decoding: line, as: UTF8.self))
    }

    private func readSome() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
        if n == 0 { sawEndOfFile = true }
        if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { sawEndOfFile = true }
        return false
    }

    /// Sends one request (with a fresh id unless given) and returns its reply, skipping events.
    func request(_ fields: [String: JSONValue]) throws -> JSONValue {
        var fields = fields
        if fields["id"] == nil {
            fields["id"] = JSONValue(nextID)
            nextID += 1
        }
        var line = JSONValue.object(fields).encodedLine()
        line.append(UInt8(ascii: "\n"))
        send(Array(line))
        for _ in 0..<100 {
            for message in lines(1) where message["ok"] != nil {
                return message
            }
            if sawEndOfFile { break }
        }
        throw ControlClientError("no reply to \(fields)")
    }
}

extension JSONValue {
    var isOK: Bool { self["ok"]?.boolValue == true }
    var errorCode: String? { self["error"]?["code"]?.stringValue }
}
