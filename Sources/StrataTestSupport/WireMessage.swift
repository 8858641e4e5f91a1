import Foundation

/// One argument of a hand-made wire message.
public enum WireArgument: Equatable {
    case int(Int32)
    case uint(UInt32)
    /// A wl_fixed_t (24.8), given as its raw 32 bits.
    case fixedRaw(Int32)
    /// A string; nil is the null string (length 0).
    case string(String?)
    /// An object id (0 is null).
    case object(UInt32)
    case newID(UInt32)
    case array([UInt8])
    /// A file descriptor: sent beside the bytes (SCM_RIGHTS), nothing in the message body.
    case fd(Int32)

    public static func fixed(_ value: Double) -> WireArgument { .fixedRaw(Int32(clamping: Int(value * 256))) }
}

/// A Wayland wire message built by hand, for clients that lie: any object id, any opcode, any
/// argument of any type, and (with `sizeOverride`) a header whose size is wrong.
///
/// Layout: object id (u32), then `size << 16 | opcode` (u32), then the arguments, each a
/// multiple of four bytes, little-endian on this machine (the wire uses host order).
public struct WireMessage {
    public var object: UInt32
    public var opcode: UInt16
    public var arguments: [WireArgument]
    /// Written into the header instead of the real size.
    public var sizeOverride: UInt16?

    public init(object: UInt32, opcode: UInt16, _ arguments: [WireArgument] = [], sizeOverride: UInt16? = nil) {
        self.object = object
        self.opcode = opcode
        self.arguments = arguments
        self.sizeOverride = sizeOverride
    }

    /// The file descriptors to send with the message, in order.
    public var fds: [Int32] {
        arguments.compactMap { if case .fd(let fd) = $0 { return fd } else { return nil } }
    }

    /// The message's bytes: header and body.
    public var bytes: [UInt8] {
        var body: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .int(let value): body.appendWord(UInt32(bitPattern: value))
            case .uint(let value), .object(let value), .newID(let value): body.appendWord(value)
            case .fixedRaw(let value): body.appendWord(UInt32(bitPattern: value))
            case .string(nil): body.appendWord(0)
            case .string(let value?):
                let utf8 = Array(value.utf8) + [0]
                body.appendWord(UInt32(utf8.count))
                body.appendPadded(utf8)
            case .array(let value):
                body.appendWord(UInt32(value.count))
                body.appendPadded(value)
            case .fd: break
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + body.count)
        bytes.appendWord(object)
        let size = sizeOverride.map(UInt32.init) ?? UInt32(truncatingIfNeeded: 8 + body.count)
        bytes.appendWord(size << 16 | UInt32(opcode))
        return bytes + body
    }
}

/// One event read back from the server, undecoded.
public struct WireEvent: Equatable {
    public var object: UInt32
    public var opcode: UInt16
    public var body: [UInt8]

    /// The `index`th 32-bit word of the body.
    public func word(_ index: Int) -> UInt32 {
        guard body.count >= 4 * (index + 1) else { return 0 }
        return body.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self) }
    }

    /// The string starting at the `index`th word (length word, then bytes and NUL).
    public func string(atWord index: Int) -> String? {
        let length = Int(word(index))
        let start = 4 * (index + 1)
        guard length > 0, body.count >= start + length else { return nil }
        return String(decoding: body[start..<(start + length - 1)], as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    mutating func appendWord(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value) { append(contentsOf: $0) }
    }

    mutating func appendPadded(_ value: [UInt8]) {
        append(contentsOf: value)
        let padding = (4 - value.count % 4) % 4
        append(contentsOf: repeatElement(0, count: padding))
    }
}
