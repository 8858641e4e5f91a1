import CStrataClientGlue
import Foundation
import StrataServer

/// A client that speaks the wire by hand over a socket pair, without libwayland-client, so it
/// can send what a well-behaved library never would: unknown object ids, objects of the wrong
/// interface, requests on destroyed objects, lying sizes. It steps the in-process server itself
/// (one thread, no sleeps) and reads back the events, noting the protocol error, deleted ids and
/// the registry's globals.
public final class RawClient {
    public unowned let server: TestServer
    /// The client's end of the socket (non-blocking).
    public let fd: Int32
    /// The server's `wl_client`.
    public let serverClient: OpaquePointer
    /// Every event read, unless `keepsEvents` is false.
    public private(set) var events: [WireEvent] = []
    public var keepsEvents = true
    /// When the socket is full, step the server and read its answers, then retry (false: a
    /// client that never reads; sending fails instead).
    public var readsWhenBlocked = true
    /// The wl_display.error the server sent, if any.
    public private(set) var error: (object: UInt32, code: UInt32, message: String)?
    /// True once the server closed the connection (after an error, or dropping the client).
    public private(set) var isDisconnected = false
    public private(set) var deletedIDs: Set<UInt32> = []
    public private(set) var globals: [(name: UInt32, interface: String, version: UInt32)] = []
    public private(set) var registryID: UInt32?
    private var nextID: UInt32 = 2
    private var input: [UInt8] = []
    private var doneCallbacks: Set<UInt32> = []
    /// Tells when the server has destroyed `serverClient` (released: wait for the hang-up).
    private let hangUp: ClientHangUpWatch

    public enum Failure: Error { case connect(String) }

    /// Connects to `server`. `receiveBuffer` shrinks the client's socket receive buffer (for
    /// clients that never read: the server's side fills sooner). `origin`: how Strata would have
    /// made the connection.
    public init(server: TestServer, receiveBuffer: Int32? = nil, origin: ClientOrigin = .socket) throws {
        self.server = server
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw Failure.connect(String(cString: strerror(errno)))
        }
        if var size = receiveBuffer {
            setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard let serverClient = server.compositor.display.createClient(fd: fds[0], origin: origin) else {
            close(fds[0]); close(fds[1])
            throw Failure.connect("wl_client_create failed")
        }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        self.fd = fds[1]
        self.serverClient = serverClient
        hangUp = ClientHangUpWatch(serverClient)
    }

    deinit {
        close(fd)
        server.step()
        // Until the server has seen the hang-up (late under load: `ClientHangUpWatch`).
        hangUp.wait(stepping: server)
    }

    /// A fresh object id for a new_id argument.
    public func newID() -> UInt32 {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Sending

    /// Writes the messages (with their fds). False if the socket did not take them all
    /// (the server stopped reading, or closed).
    @discardableResult
    public func send(_ messages: WireMessage...) -> Bool { send(messages) }

    @discardableResult
    public func send(_ messages: [WireMessage]) -> Bool {
        for message in messages {
            guard send(bytes: message.bytes, fds: message.fds) else { return false }
        }
        return true
    }

    /// Writes raw bytes, with `fds` attached to the first byte.
    @discardableResult
    public func send(bytes: [UInt8], fds: [Int32] = []) -> Bool {
        var offset = 0
        var blockedSteps = 0
        var pendingFDs = fds
        while offset < bytes.count || !pendingFDs.isEmpty {
            let sent = bytes.withUnsafeBytes { buffer -> Int in
                RawClient.sendmsg(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]), fds: pendingFDs)
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN, readsWhenBlocked, blockedSteps < 1000 {
                    // The server has not read yet: let it, and read its answers, then retry.
                    blockedSteps += 1
                    server.step()
                    read()
                    continue
                }
                if errno == EPIPE || errno == ECONNRESET { isDisconnected = true }
                return false
            }
            pendingFDs = []
            offset += sent
            if bytes.isEmpty { break }
        }
        return true
    }

    private static func sendmsg(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, fds: [Int32]) -> Int {
        var iov = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
        var header = msghdr()
        // cmsghdr: cmsg_len (size_t), cmsg_level, cmsg_type (Int32), then the data, 8-aligned.
        let headerSize = MemoryLayout<Int>.size + 8
        let dataSize = fds.count * 4
        let space = headerSize + (dataSize + 7) / 8 * 8
        let control = UnsafeMutableRawPointer.allocate(byteCount: max(space, 8), alignment: 8)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: max(space, 8))
        return withUnsafeMutablePointer(to: &iov) { iovPointer in
            header.msg_iov = iovPointer
            header.msg_iovlen = 1
            if !fds.isEmpty {
                control.storeBytes(of: headerSize + dataSize, as: Int.self)
                control.storeBytes(of: SOL_SOCKET, toByteOffset: MemoryLayout<Int>.size, as: Int32.self)
                control.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: MemoryLayout<Int>.size + 4, as: Int32.self)
                for (index, fd) in fds.enumerated() {
                    control.storeBytes(of: fd, toByteOffset: headerSize + 4 * index, as: Int32.self)
                }
                header.msg_control = control
                header.msg_controllen = space
            }
            return Glibc.sendmsg(fd, &header, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
    }

    // MARK: Receiving

    /// Steps the server `steps` times, reading what it sent after each step.
    public func pump(steps: Int = 1) {
        for _ in 0..<steps {
            server.step()
            read()
        }
    }

    /// Sends wl_display.sync and steps until its callback is done. False if the client was
    /// disconnected (or no answer came within `limit` steps).
    @discardableResult
    public func roundtrip(limit: Int = 100) -> Bool {
        let callback = newID()
        guard send(WireMessage(object: 1, opcode: 0, [.newID(callback)])) else {
            pump(steps: 2)
            return false
        }
        for _ in 0..<limit {
            pump()
            if doneCallbacks.remove(callback) != nil { return true }
            if isDisconnected { return false }
        }
        return false
    }

    /// wl_display.get_registry, then a roundtrip: `globals` lists what the server announced.
    @discardableResult
    public func getRegistry() -> Bool {
        let id = newID()
        registryID = id
        send(WireMessage(object: 1, opcode: 1, [.newID(id)]))
        return roundtrip()
    }

    /// Binds the global announced as `interface` (the first one) at `version` (or the announced
    /// one) and returns the new object's id.
    public func bind(_ interface: String, version: UInt32? = nil) -> UInt32? {
        if registryID == nil { getRegistry() }
        guard let registryID, let global = globals.first(where: { $0.interface == interface }) else { return nil }
        let id = newID()
        send(
            WireMessage(
                object: registryID, opcode: 0,
                [
                    .uint(global.name), .string(interface), .uint(version ?? global.version), .newID(id),
                ]))
        return id
    }

    /// Reads everything available without blocking; notes errors, deletions, globals and done
    /// callbacks. File descriptors that arrive (keymaps) are closed.
    public func read() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !isDisconnected {
            let count = buffer.withUnsafeMutableBytes { RawClient.recvmsg(fd, $0) }
            if count == 0 {
                isDisconnected = true
            } else if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { isDisconnected = true }
                break
            } else {
                input.append(contentsOf: buffer[0..<count])
            }
        }
        parse()
    }

    private static func recvmsg(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Int {
        var iov = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
        let controlSize = 1024
        let control = UnsafeMutableRawPointer.allocate(byteCount: controlSize, alignment: 8)
        defer { control.deallocate() }
        var header = msghdr()
        let result = withUnsafeMutablePointer(to: &iov) { iovPointer -> Int in
            header.msg_iov = iovPointer
            header.msg_iovlen = 1
            header.msg_control = control
            header.msg_controllen = controlSize
            return Glibc.recvmsg(fd, &header, Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC))
        }
        // Close every fd that came along.
        var offset = 0
        let headerSize = MemoryLayout<Int>.size + 8
        while result >= 0, offset + headerSize <= header.msg_controllen {
            let length = control.load(fromByteOffset: offset, as: Int.self)
            let level = control.load(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
            let type = control.load(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
            guard length >= headerSize else { break }
            if level == SOL_SOCKET, type == Int32(SCM_RIGHTS) {
                for index in 0..<(length - headerSize) / 4 {
                    close(control.load(fromByteOffset: offset + headerSize + 4 * index, as: Int32.self))
                }
            }
            offset += (length + 7) / 8 * 8
        }
        return result
    }

    private func parse() {
        var start = 0
        while input.count - start >= 8 {
            let object = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt32.self) }
            let sizeAndOpcode = input.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self) }
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8 else { isDisconnected = true; break }
            guard input.count - start >= size else { break }
            let event = WireEvent(
                object: object, opcode: UInt16(truncatingIfNeeded: sizeAndOpcode),
                body: Array(input[(start + 8)..<(start + size)]))
            note(event)
            start += size
        }
        input.removeFirst(start)
    }

    private func note(_ event: WireEvent) {
        if keepsEvents { events.append(event) }
        switch (event.object, event.opcode) {
        case (1, 0):
            error = (event.word(0), event.word(1), event.string(atWord: 2) ?? "")
        case (1, 1):
            deletedIDs.insert(event.word(0))
            doneCallbacks.insert(event.word(0))
        case (registryID, 0) where registryID != nil:
            if let interface = event.string(atWord: 1) {
                let length = Int(event.word(1))
                globals.append((event.word(0), interface, event.word(2 + (length + 3) / 4)))
            }
        case (registryID, 1) where registryID != nil:
            globals.removeAll { $0.name == event.word(0) }
        default:
            break
        }
    }

    /// Events sent to `object`.
    public func events(for object: UInt32) -> [WireEvent] { events.filter { $0.object == object } }

    public func clearEvents() { events.removeAll() }
}

extension RawClient {
    /// A wl_shm pool of `poolSize` bytes (a memfd of `fileSize` bytes, default the same) and one
    /// buffer in it; the fd is closed after sending. Returns (pool, buffer) ids.
    public func makeBuffer(
        shm: UInt32, width: Int32, height: Int32, stride: Int32? = nil, offset: Int32 = 0,
        format: UInt32 = 0, poolSize: Int32? = nil, fileSize: Int? = nil
    ) -> (pool: UInt32, buffer: UInt32) {
        let stride = stride ?? width &* 4
        let size = poolSize ?? max(1, stride &* height)
        let fd = strata_client_memfd("strata-raw-buffer")
        _ = ftruncate(fd, off_t(fileSize ?? Int(max(size, 0))))
        let pool = newID(), buffer = newID()
        request(shm, "wl_shm.create_pool", .newID(pool), .fd(fd), .int(size))
        request(
            pool, "wl_shm_pool.create_buffer", .newID(buffer), .int(offset), .int(width), .int(height),
            .int(stride), .uint(format))
        close(fd)
        return (pool, buffer)
    }
}
