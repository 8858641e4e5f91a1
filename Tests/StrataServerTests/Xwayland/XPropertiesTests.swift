@testable import StrataServer
import Testing

/// The ICCCM and EWMH records the XWM decodes from GetProperty replies (`XProperties.swift`):
/// well-formed values decode as X clients write them, and hostile replies (short, huge counts,
/// a wrong format) are nil or cut to the bytes present, never a trap.
@Suite struct XPropertiesTests {
    /// A GetProperty reply: the 32-byte header (value length `items`, default the value's) and
    /// the value.
    static func reply(format: UInt8, type: UInt32 = 4, items: UInt32? = nil, value: [UInt8]) -> [UInt8] {
        func le(_ word: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        let count = items ?? UInt32(format == 0 ? 0 : value.count / Int(format / 8))
        let padded = value + [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
        return [1, format, 0, 0] + le(UInt32(padded.count / 4)) + le(type) + le(0) + le(count)
            + [UInt8](repeating: 0, count: 12) + padded
    }
    static func words(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    @Test func wellFormedPropertiesDecodeAsClientsWriteThem() throws {
        let name = try #require(XPropertyValue(reply: Self.reply(format: 8, value: Array("Terminal — ü".utf8))))
        #expect(WMName(name)?.title == "Terminal — ü")
        let wmClass = try #require(XPropertyValue(reply: Self.reply(format: 8, value: Array("xterm\0XTerm\0".utf8))))
        #expect(WMClass(wmClass) == WMClass(bytes: Array("xterm\0XTerm\0".utf8)))
        #expect(WMClass(wmClass)?.instance == "xterm" && WMClass(wmClass)?.appID == "XTerm")
        let hints = try #require(
            XPropertyValue(reply: Self.reply(format: 32, value: Self.words([1, 0, 1, 0, 0, 0, 0, 0, 0]))))
        #expect(WMHints(hints)?.input == false && WMHints(hints)?.acceptsInput == false)
        let noInputFlag = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([4, 0]))))
        #expect(WMHints(noInputFlag)?.input == nil && WMHints(noInputFlag)?.acceptsInput == true)
        let protocols = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([301, 302]))))
        #expect(XAtomList(protocols)?.atoms == [301, 302])
        let transient = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([0x40_0001]))))
        #expect(WMTransientFor(transient)?.window == 0x40_0001)
        let pid = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([4242]))))
        #expect(NetWMPid(pid)?.pid == 4242)
    }

    @Test func shortOrForeignRepliesAreNoValue() {
        #expect(XPropertyValue(reply: [UInt8]()) == nil)
        #expect(XPropertyValue(reply: [UInt8](repeating: 1, count: 31)) == nil)
        // An error (0) or an event (2+) in place of a reply.
        var notReply = Self.reply(format: 32, value: Self.words([1]))
        notReply[0] = 0
        #expect(XPropertyValue(reply: notReply) == nil)
        // No such property (format 0), and formats X never sends.
        for format: UInt8 in [0, 1, 7, 24, 64, 255] {
            #expect(
                XPropertyValue(reply: Self.reply(format: format, items: 4, value: [1, 2, 3, 4])) == nil, "\(format)")
        }
    }

    @Test func hugeItemCountsAreCutToTheBytesPresent() throws {
        for format: UInt8 in [8, 16, 32] {
            let value = try #require(
                XPropertyValue(reply: Self.reply(format: format, items: .max, value: Self.words([7, 8]))))
            #expect(value.bytes.count == 8, "\(format)")
        }
        // A count in items of 32 bits over a 6-byte tail: one whole item.
        let ragged = Self.reply(format: 32, items: 2, value: Self.words([9])) + [1, 2]
        #expect(XPropertyValue(reply: ragged)?.words == [9])
        // At most `maxBytes` are kept, whatever the reply holds.
        let long = [UInt8](repeating: 0x61, count: XPropertyValue.maxBytes + 4096)
        #expect(XPropertyValue(reply: Self.reply(format: 8, value: long))?.bytes.count == XPropertyValue.maxBytes)
        // A slice (not starting at 0) decodes the same.
        let padded = [UInt8](repeating: 0xff, count: 5) + Self.reply(format: 32, value: Self.words([5, 6]))
        #expect(XPropertyValue(reply: padded[5...])?.words == [5, 6])
    }

    @Test func aWrongFormatIsNoRecord() throws {
        let text = try #require(XPropertyValue(reply: Self.reply(format: 8, value: Array("abcdefgh".utf8))))
        #expect(WMHints(text) == nil && XAtomList(text) == nil && WMTransientFor(text) == nil && NetWMPid(text) == nil)
        let words = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([0x41, 0x42]))))
        #expect(WMName(words) == nil && WMClass(words) == nil)
        let halves = try #require(XPropertyValue(reply: Self.reply(format: 16, value: [1, 0, 1, 0])))
        #expect(WMHints(halves) == nil && XAtomList(halves) == nil && WMName(halves) == nil)
    }

    @Test func emptyOrOutOfRangeValuesAreNoRecord() throws {
        let empty = try #require(XPropertyValue(reply: Self.reply(format: 32, value: [])))
        #expect(WMHints(empty) == nil && WMTransientFor(empty) == nil && NetWMPid(empty) == nil)
        #expect(XAtomList(empty)?.atoms == [])
        for pid: UInt32 in [0, 0x8000_0000, 0xffff_ffff] {
            let value = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([pid]))))
            #expect(NetWMPid(value) == nil, "\(pid)")
        }
        let none = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([0]))))
        #expect(WMTransientFor(none) == nil)
        // WM_HINTS with the input flag and no input word: no hint, so the window takes input.
        let cut = try #require(XPropertyValue(reply: Self.reply(format: 32, value: Self.words([1]))))
        #expect(WMHints(cut)?.input == nil && WMHints(cut)?.acceptsInput == true)
        // Invalid UTF-8 is replaced, not refused.
        let invalid = try #require(XPropertyValue(reply: Self.reply(format: 8, value: [0xff, 0xfe, 0x41])))
        #expect(WMName(invalid)?.title.hasSuffix("A") == true)
    }

    @Test func theWindowsPropertiesAreKeyedByNameNotByPosition() throws {
        let title = try #require(XPropertyValue(reply: Self.reply(format: 8, value: Array("net".utf8))))
        let legacy = try #require(XPropertyValue(reply: Self.reply(format: 8, value: Array("legacy".utf8))))
        let empty = try #require(XPropertyValue(reply: Self.reply(format: 8, value: [])))
        #expect(X11WindowProperties([.wmName: legacy, .netWMName: title]).title == "net")
        #expect(X11WindowProperties([.wmName: legacy, .netWMName: empty]).title == "legacy")
        #expect(X11WindowProperties([.wmName: legacy]).title == "legacy")
        // A value of the wrong shape under a name is that property missing, not another's.
        let properties = X11WindowProperties([.wmHints: title, .wmClass: legacy])
        #expect(properties.wmHints == nil && properties.appID == "legacy" && properties.title == "")
        #expect(X11WindowProperties().appID == "" && X11WindowProperties().netWMPid == nil)
    }
}
