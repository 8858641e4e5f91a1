/// The bytes of one trace line written by hand (`frame` lines, the common `event` lines): a
/// fixed block allocated once per recording, filled through a pointer, so a frame's line costs
/// no allocation, no array growth check per byte, and about two divisions per two digits of a
/// number. Longer lines (lists of windows, coded events) go through arrays instead.
final class TraceLineBuffer {
    /// Room for any line written here: a frame line with 16 damage boxes of four 20-digit
    /// numbers is under 1,600 bytes.
    static let capacity = 4096
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: TraceLineBuffer.capacity)
    private(set) var count = 0

    deinit { bytes.deallocate() }

    /// The line so far.
    var line: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    func removeAll() { count = 0 }

    func append(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        bytes[count] = byte
        count += 1
    }

    func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        guard count + length <= Self.capacity else { return }
        (bytes + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// A name of known ASCII (a notification's), as it is.
    func append(ascii text: String) {
        for byte in text.utf8 { append(byte) }
    }

    /// A number in decimal.
    func append(_ value: Int64) {
        guard count + 21 <= Self.capacity else { return }
        if value < 0 {
            bytes[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        var index = count + digits
        count = index
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            index -= 2
            bytes[index] = Self.pairs[pair]
            bytes[index + 1] = Self.pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) &* 2
            bytes[index - 2] = Self.pairs[pair]
            bytes[index - 1] = Self.pairs[pair + 1]
        } else {
            bytes[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
    }

    /// 16 lowercase hexadecimal digits.
    func appendHex(_ value: UInt64) {
        guard count + 16 <= Self.capacity else { return }
        for index in 0..<16 {
            bytes[count + index] = Self.hexDigits[Int((value >> UInt64(60 - 4 * index)) & 0xf)]
        }
        count += 16
    }

    /// "00", "01", … "99", one after the other.
    private static let pairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
