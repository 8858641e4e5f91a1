import Foundation

/// The smallest VNC (RFB 3.8) client that can move a pointer and turn a wheel: enough to drive
/// wayvnc, whose input reaches Strata through zwlr_virtual_pointer_v1. Security type None only
/// (wayvnc without a config file offers nothing else).
final class RFBPointer {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port` and completes the handshake; nil when nothing listens yet or
    /// the server speaks something else.
    init?(port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        self.fd = fd
        guard connected == 0, handshake() else { return nil }
    }

    deinit { close(fd) }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + done, count - done, 0) }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    private static func u32(_ b: [UInt8]) -> Int { b.reduce(0) { $0 << 8 | Int($1) } }

    private func handshake() -> Bool {
        guard let version = read(12), version.starts(with: Array("RFB 003.".utf8)),
            write(Array("RFB 003.008\n".utf8)),
            let count = read(1), count[0] > 0, let types = read(Int(count[0])), types.contains(1),
            write([1]), let result = read(4), Self.u32(result) == 0,
            write([1]),  // ClientInit: shared
            let header = read(24), read(Self.u32(Array(header[20..<24]))) != nil
        else { return false }
        return true
    }

    /// A PointerEvent: the buttons held (bit 0 left … bit 3 wheel up, bit 4 wheel down) at (x, y).
    func pointer(buttons: UInt8, x: UInt16, y: UInt16) -> Bool {
        write([5, buttons, UInt8(x >> 8), UInt8(x & 0xff), UInt8(y >> 8), UInt8(y & 0xff)])
    }

    /// One wheel step down at (x, y): the wheel-down button pressed and released, as VNC viewers send it.
    func scrollDown(x: UInt16, y: UInt16) -> Bool {
        pointer(buttons: 0, x: x, y: y) && pointer(buttons: 1 << 4, x: x, y: y) && pointer(buttons: 0, x: x, y: y)
    }
}
