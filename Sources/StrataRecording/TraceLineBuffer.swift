/// The bytes of one trace line written by hand (`frame` lines, the common `event` lines): a
/// fixed block allocated once per recording, filled through a pointer, so a frame's line costs
/// no allocation, no array growth check per byte, and about two divisions per two digits of a
/// number. Longer lines (lists of windows, coded events) go through arrays instead.
final class TraceLineBuffer {
    /// Room for any line written here: a frame line with 16 damage boxes of four 20-digit
    /// numbers is under 1,600 bytes.
    static let capacity = 4096
    /// Past the line: where a number's digits are made.
    private static let scratch = 24
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(
        capacity: TraceLineBuffer.capacity + TraceLineBuffer.scratch)
    /// "00", "01", … "99", one after the other.
    private let pairs: UnsafeMutablePointer<UInt8> = {
        let pairs = UnsafeMutablePointer<UInt8>.allocate(capacity: 200)
        for value in 0..<100 {
            pairs[2 * value] = UInt8(ascii: "0") + UInt8(value / 10)
            pairs[2 * value + 1] = UInt8(ascii: "0") + UInt8(value % 10)
        }
        return pairs
    }()
    private(set) var count = 0

    deinit {
        bytes.deallocate()
        pairs.deallocate()
    }

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

    /// A number in decimal: two digits at a time from the last into the scratch room past the
    /// line, then moved into place (no count of the digits first).
    func append(_ value: Int64) {
        guard count + 21 <= Self.capacity else { return }
        if value < 0 {
            bytes[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        let end = bytes + Self.capacity + Self.scratch
        var start = end
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            start -= 2
            start[0] = pairs[pair]
            start[1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) &* 2
            start -= 2
            start[0] = pairs[pair]
            start[1] = pairs[pair + 1]
        } else {
            start -= 1
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        let digits = end - start
        (bytes + count).update(from: start, count: digits)
        count += digits
    }

    /// 16 lowercase hexadecimal digits.
    func appendHex(_ value: UInt64) {
        guard count + 16 <= Self.capacity else { return }
        for index in 0..<16 {
            bytes[count + index] = Self.hexDigits[Int((value >> UInt64(60 - 4 * index)) & 0xf)]
        }
        count += 16
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
