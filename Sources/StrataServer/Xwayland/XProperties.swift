/// A property's value as X sent it in a GetProperty reply: its type, its format (8, 16 or 32
/// bits an item) and its bytes. Made from the reply's bytes with every length checked against
/// them: a hostile client's property (a short reply, a huge item count, a format X never
/// sends) is nil or shortened, never a trap.
struct XPropertyValue: Equatable {
    let type: UInt32
    let format: UInt8
    let bytes: [UInt8]

    /// The largest value kept (`XWM.maxPropertyWords` words): longer values are cut there.
    static let maxBytes = Int(XWM.maxPropertyWords) * 4
    /// A GetProperty reply's fixed part: type 1, format, sequence, length, type, bytes-after,
    /// value length (in items of the format), 12 bytes of padding.
    static let headerBytes = 32

    init(type: UInt32, format: UInt8, bytes: [UInt8]) {
        self.type = type
        self.format = format
        self.bytes = bytes
    }

    /// From a GetProperty reply's bytes (its header and the value after it); nil for anything
    /// but a reply whose format is 8, 16 or 32 (a property that does not exist has format 0).
    init?<Bytes: RandomAccessCollection>(reply: Bytes) where Bytes.Element == UInt8, Bytes.Index == Int {
        guard reply.count >= Self.headerBytes, reply[reply.startIndex] == 1 else { return nil }
        let format = reply[reply.startIndex + 1]
        guard format == 8 || format == 16 || format == 32 else { return nil }
        let items = Self.word(reply, at: 16)
        // Items × item size, bounded before multiplying (a huge count cannot overflow).
        let available = reply.count - Self.headerBytes
        let itemSize = Int(format / 8)
        let count = min(Int(items), available / itemSize, Self.maxBytes / itemSize) * itemSize
        let start = reply.startIndex + Self.headerBytes
        self.init(type: Self.word(reply, at: 8), format: format, bytes: Array(reply[start..<start + count]))
    }

    /// The value's 32-bit items (none unless the format is 32).
    var words: [UInt32] {
        guard format == 32 else { return [] }
        return (0..<bytes.count / 4).map { Self.word(bytes, at: $0 * 4) }
    }

    /// The value's 8-bit text (nil unless the format is 8).
    var text: [UInt8]? { format == 8 ? bytes : nil }

    /// The little-endian word at `offset` (the X server writes in the client's byte order).
    private static func word<Bytes: RandomAccessCollection>(_ bytes: Bytes, at offset: Int) -> UInt32
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16
            | UInt32(bytes[base + 3]) << 24
    }
}

/// `WM_NAME` or `_NET_WM_NAME`: the window's title (decoded as UTF-8, invalid bytes replaced).
struct WMName: Equatable {
    let title: String
    init?(_ value: XPropertyValue) {
        guard let text = value.text else { return nil }
        title = String(decoding: text, as: UTF8.self)
    }
}

/// `WM_CLASS` (`instance\0class\0`). The app id is the class, or the instance when the class is
/// empty or missing (docs/xwayland.md, "App ids").
struct WMClass: Equatable {
    let instance: String
    let windowClass: String
    init?(_ value: XPropertyValue) {
        guard let text = value.text else { return nil }
        self.init(bytes: text)
    }
    init(bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        instance = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        windowClass = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    }
    var appID: String { windowClass.isEmpty ? instance : windowClass }
}

/// `WM_HINTS`: the flags and, when the input flag (1) is set, the input hint. Without the hint
/// (no property, or no input flag), the window takes the focus (`acceptsInput`).
struct WMHints: Equatable {
    let flags: UInt32
    /// The input hint, when the flags say it is there.
    let input: Bool?
    init?(_ value: XPropertyValue) {
        let words = value.words
        guard let flags = words.first else { return nil }
        self.flags = flags
        input = flags & 1 != 0 && words.count >= 2 ? words[1] != 0 : nil
    }
    var acceptsInput: Bool { input ?? true }
}

/// A property that is a list of atoms: `WM_PROTOCOLS`, `_NET_WM_WINDOW_TYPE`, `_NET_WM_STATE`.
struct XAtomList: Equatable {
    let atoms: [UInt32]
    static let empty = XAtomList(atoms: [])
    init(atoms: [UInt32]) { self.atoms = atoms }
    init?(_ value: XPropertyValue) {
        guard value.format == 32 else { return nil }
        atoms = value.words
    }
    func contains(_ atom: UInt32) -> Bool { atoms.contains(atom) }
}

/// `WM_TRANSIENT_FOR`: the window this one is a transient of (a dialog's parent).
struct WMTransientFor: Equatable {
    let window: UInt32
    init?(_ value: XPropertyValue) {
        guard let window = value.words.first, window != 0 else { return nil }
        self.window = window
    }
}

/// `_NET_WM_PID`: a positive 32-bit pid (anything else is no pid).
struct NetWMPid: Equatable {
    let pid: Int32
    init?(_ value: XPropertyValue) {
        guard let word = value.words.first, Int32(bitPattern: word) > 0 else { return nil }
        pid = Int32(bitPattern: word)
    }
}
