import FoundationEssentials
import Glibc
import StrataControlProtocol

/// A blocking connection to Strata's control socket: one request at a time, each answered by
/// the reply with its id. Event lines (a subscription) are kept in `pendingEvents` in order.
final class ControlClient {
    let path: String
    let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Event lines received while waiting for a reply, oldest first.
    var pendingEvents: [JSONValue] = []
    /// Seconds to wait for a reply before giving up.
    var timeout: Double

    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// Whether nothing answered at the socket (no Strata runs there).
        var isConnectFailure = false
    }

    init(path: String, timeout: Double = 30) throws {
        self.path = path
        self.timeout = timeout
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw Failure(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        // `self.fd` is set only once connected: a throw before it is a failure before full
        // initialization, so deinit does not run and close the socket a second time.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw Failure(
                description: "cannot connect to Strata's control socket \(path): \(why); is Strata running?",
                isConnectFailure: true)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends `command` with `arguments` and waits for its reply. Throws for transport problems;
    /// an error reply is returned as such (`ok: false`).
    func request(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var fields = arguments
        fields["id"] = JSONValue(id)
        fields["command"] = .string(command)
        var line = JSONValue.object(fields).encodedLine()
        line.append(UInt8(ascii: "\n"))
        try write(line)
        let deadline = Self.now() + timeout
        while true {
            guard let message = try readLine(deadline: deadline) else {
                throw Failure(description: "Strata closed the connection before answering \(command)")
            }
            if message["ok"] == nil {
                pendingEvents.append(message)
                continue
            }
            if message["id"]?.intValue == id { return message }
        }
    }

    /// Like `request`, but throws the error reply as a `ControlError`.
    func call(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        let reply = try request(command, arguments)
        if reply["ok"]?.boolValue == true { return reply }
        let code = reply["error"]?["code"]?.stringValue.flatMap(ControlErrorCode.init(rawValue:)) ?? .failed
        let message = reply["error"]?["message"]?.stringValue ?? "error"
        throw ControlError(code, message)
    }

    /// The next event line (waiting at most until `deadline`, forever when nil); nil when the
    /// connection closed.
    func nextEvent(deadline: Double? = nil) throws -> JSONValue? {
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        while true {
            guard let message = try readLine(deadline: deadline) else { return nil }
            if message["ok"] == nil { return message }
        }
    }

    private func write(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let n = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "cannot write to \(path): \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Sends `command` without waiting for its reply (a delegate's `decide`: its reply may come
    /// after other lines).
    func post(_ command: String, _ arguments: [String: JSONValue] = [:]) throws {
        var fields = arguments
        fields["id"] = JSONValue(nextID)
        nextID += 1
        fields["command"] = .string(command)
        var line = JSONValue.object(fields).encodedLine()
        line.append(UInt8(ascii: "\n"))
        try write(line)
    }

    /// The lines that arrived (one read, for a caller that polled `fd`), the kept unread ones
    /// first; nil once Strata closed the connection.
    func availableLines() throws -> [JSONValue]? {
        var lines = pendingEvents
        pendingEvents.removeAll()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n == 0 { return lines.isEmpty ? nil : lines }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if let value = try? JSONValue.parse(line) { lines.append(value) }
        }
        return lines
    }

    /// One JSON line; nil at end of file. Throws on timeout or bad JSON.
    private func readLine(deadline: Double?) throws -> JSONValue? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                guard let value = try? JSONValue.parse(line) else {
                    throw Failure(
                        description: "Strata sent a line that is not JSON: \(String(decoding: line, as: UTF8.self))")
                }
                return value
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = deadline.map { Int32(max(0, min(($0 - Self.now()) * 1000, 3_600_000))) } ?? -1
            let ready = poll(&pfd, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 { throw Failure(description: "no answer from Strata within \(Int(timeout)) s") }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "cannot read from \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
